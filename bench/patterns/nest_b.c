//===- bench/patterns/nest_b.c - nestN: the coroutine's side ----*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// The other side of nest_a.c: descends nest_depth frames, answers the
// request in nest_box in the last one, yields, and returns up the chain.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

volatile uint64_t nest_levels;

#define NOINLINE __attribute__((noinline))

static NOINLINE unsigned nb5(unsigned d) {
  nest_box = nest_box * 3 + 1;
  YIELD();
  return d;
}
#define NEST_LEVEL(k, next)                                                    \
  static NOINLINE unsigned nb##k(unsigned d) {                                 \
    if (d == k) {                                                              \
      nest_box = nest_box * 3 + 1;                                             \
      YIELD();                                                                 \
      return d * k;                                                            \
    }                                                                          \
    return next(d) + k;                                                        \
  }
NEST_LEVEL(4, nb5)
NEST_LEVEL(3, nb4)
NEST_LEVEL(2, nb3)
NEST_LEVEL(1, nb2)

void nest_b_run(void *arg) {
  (void)arg;
  while (!nest_stop)
    nest_levels += nb1(nest_depth);
}
