//===- bench/patterns/nest_a.c - nestN: main's side -------------*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// Every round descends nest_depth (1 to 5) frames, each a different
// function, yields in the last one and returns up the chain: after each
// resume, nest_depth returns whose addresses the other side's calls have
// pushed out of the return stack buffer (issue 35). main.c's nest_ref
// computes the same sum without coroutines.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

volatile int nest_stop;
volatile uint64_t nest_box;
unsigned nest_depth;

#define NOINLINE __attribute__((noinline))

static NOINLINE uint64_t na5(uint64_t x, unsigned d) {
  (void)d;
  nest_box = x;
  YIELD();
  return nest_box + 5;
}
// Level k yields when it is the last (k == d), otherwise descends.
#define NEST_LEVEL(k, next)                                                    \
  static NOINLINE uint64_t na##k(uint64_t x, unsigned d) {                     \
    if (d == k) {                                                              \
      nest_box = x;                                                            \
      YIELD();                                                                 \
      return nest_box + k;                                                     \
    }                                                                          \
    return next(x + k, d) ^ k;                                                 \
  }
NEST_LEVEL(4, na5)
NEST_LEVEL(3, na4)
NEST_LEVEL(2, na3)
NEST_LEVEL(1, na2)

uint64_t nest_a_run(uint64_t rounds) {
  uint64_t sum = 0;
  for (uint64_t i = 0; i < rounds; ++i)
    sum += na1(i, nest_depth);
  nest_stop = 1;
  return sum;
}
