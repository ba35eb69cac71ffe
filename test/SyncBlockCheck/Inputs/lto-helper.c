// The other unit of lto.c: one function that switches, one that does not.
#include "cacs/coro.h"

void helper_waits(void) { cacs_yield(); }
int helper_counts(int n) { return n + 1; }
