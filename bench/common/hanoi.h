//===- bench/common/hanoi.h - Shared bits of the Hanoi workload -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Every variant enumerates all 2^n - 1 moves of Hanoi(n), `times` times in a
// row (so small n still runs long enough to time), and folds each move into
// a hash in order. The expected hash is computed by the plain recursion.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_HANOI_H
#define CACS_BENCH_HANOI_H

#include <stdint.h>

#define HANOI_MOVE(n, f, t)                                                    \
  ((uint32_t)(n) + ((uint32_t)(f) << 8) + ((uint32_t)(t) << 16))

static inline uint64_t hanoi_fold(uint64_t h, uint32_t move) {
  return h * 31 + move;
}

/// How many times Hanoi(n) is solved per repetition: about 2^20 moves.
static inline uint64_t hanoi_times(unsigned n) {
  return n >= 20 ? 1 : (uint64_t)1 << (20 - n);
}

/// Reference: the plain recursion, computing the expected hash directly.
static uint64_t hanoi_ref_(unsigned n, char f, char t, char a, uint64_t h) {
  if (n == 0)
    return h;
  h = hanoi_ref_(n - 1, f, a, t, h);
  h = hanoi_fold(h, HANOI_MOVE(n, f, t));
  return hanoi_ref_(n - 1, a, t, f, h);
}

static inline uint64_t hanoi_expected(unsigned n, uint64_t times) {
  uint64_t h = 0;
  for (uint64_t i = 0; i < times; ++i)
    h = hanoi_ref_(n, 'a', 'b', 'c', h);
  return h;
}

#endif // CACS_BENCH_HANOI_H
