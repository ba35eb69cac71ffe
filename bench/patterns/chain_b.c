//===- bench/patterns/chain_b.c - chain: the coroutine's side ---*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// b1 -> b5 answer what main's a5 left in chain_box, yielding in b5 from one
// of two sites; the depth they return is summed so every frame does work
// on the way back.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

volatile uint64_t chain_depths;

static __attribute__((noinline)) unsigned b5(unsigned d) {
  uint64_t v = chain_box;
  if (v & 8) {
    chain_box = v * 5 + 1;
    YIELD();
    return d + 1;
  }
  chain_box = v + 7;
  YIELD();
  // Not d + 2: the optimizer would sink the two yields into one call site.
  return d * 3;
}
static __attribute__((noinline)) unsigned b4(unsigned d) { return b5(d + 1) + 1; }
static __attribute__((noinline)) unsigned b3(unsigned d) { return b4(d + 1) + 1; }
static __attribute__((noinline)) unsigned b2(unsigned d) { return b3(d + 1) + 1; }
static __attribute__((noinline)) unsigned b1(unsigned d) { return b2(d + 1) + 1; }

void chain_b_run(void *arg) {
  (void)arg;
  while (!chain_stop)
    chain_depths += b1(0);
}
