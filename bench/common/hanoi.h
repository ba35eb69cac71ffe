//===- bench/common/hanoi.h - Shared bits of the Hanoi workload -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Every variant enumerates all 2^n - 1 moves of Hanoi(n), `times` times in a
// row (so small n still runs long enough to time), and folds each move into
// a hash in order. The expected hash is computed by the plain recursion.
// A variant supplies the solver as a function; hanoi_bench times it.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_HANOI_H
#define CACS_BENCH_HANOI_H

#include "bench.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/// One variant: solves Hanoi(n) `times` times in a row, folding every move
/// into a hash (hanoi_fold) that starts at 0; returns the hash. `state` is
/// the variant's own.
typedef uint64_t (*hanoi_fn)(unsigned n, uint64_t times, void *state);

/// Runs `run` a->reps times at n = a->n (ops = moves) and prints the RESULT
/// line; returns the exit status.
static inline int hanoi_bench(const bench_args *a, const char *variant,
                              hanoi_fn run, void *state) {
  bench_run r = bench_begin("hanoi", variant, a->n);
  unsigned n = (unsigned)a->n;
  uint64_t times = hanoi_times(n);
  uint64_t ops = times * (((uint64_t)1 << n) - 1);
  uint64_t expected = hanoi_expected(n, times);
  for (int rep = 0; rep < a->reps; ++rep) {
    uint64_t t0 = bench_cpu_ns();
    uint64_t h = run(n, times, state);
    uint64_t t1 = bench_cpu_ns();
    bench_record(&r, t1 - t0, ops, h, expected);
  }
  return bench_end(&r);
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_BENCH_HANOI_H
