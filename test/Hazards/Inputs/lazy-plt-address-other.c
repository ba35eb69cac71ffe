// Another unit of lazy-plt-address.c: it only takes the address of
// weighted, in code that is not position-independent.
#include "lazy-plt-address.h"

weighted_fn *weighted_address(void) { return weighted; }
