// Included by the stack-* tests: a coroutine body's recursion that leaves a
// coroutine suspended some frames deep with live locals in every frame.

#ifndef CACS_TEST_DEEP_YIELD_H
#define CACS_TEST_DEEP_YIELD_H

#include "cacs/coro.h"

// Coroutines that reached the bottom of deep().
static long reached;

// `depth` frames down, then `yields` yields (0: none, a plain call that
// gives the value to compare with); the locals of every frame are used
// after them.
__attribute__((noinline)) static long deep(int depth, long seed, int yields) {
  volatile long local[4] = {seed, seed * 3, seed ^ 0x55, depth};
  long r = 0;
  if (depth == 0) {
    if (yields)
      ++reached;
    for (int i = 0; i < yields; ++i)
      cacs_yield();
  } else {
    r = deep(depth - 1, seed + 1, yields);
  }
  return r + local[0] + local[1] + local[2] + local[3];
}

#endif // CACS_TEST_DEEP_YIELD_H
