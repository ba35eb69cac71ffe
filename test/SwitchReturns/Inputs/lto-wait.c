// Second translation unit of lto.c: waits for its turn and returns.
#include "cacs/coro.h"

volatile unsigned long lto_box;

__attribute__((noinline)) unsigned long lto_wait(unsigned long n) {
  lto_box = n;
  cacs_yield();
  return lto_box * 3 + 1;
}
