//===- bench/common/sumseq.h - The sum-of-sequence workload -----*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Every variant sums the values N, N-1, ..., 1 that a producer yields to a
// consumer. A variant supplies the consumer as a function; sumseq_bench
// times it per repetition (ops = values) and checks its result against
// n(n+1)/2 mod 2^64.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_SUMSEQ_H
#define CACS_BENCH_SUMSEQ_H

#include "bench.h"

#ifdef __cplusplus
extern "C" {
#endif

/// n(n+1)/2 mod 2^64, halving the even factor first.
static inline uint64_t sumseq_expected(uint64_t n) {
  return n % 2 ? n * ((n + 1) / 2) : (n / 2) * (n + 1);
}

/// One variant: the sum of the values N..1 its producer yields. `state` is
/// the variant's own (a stack, for example).
typedef uint64_t (*sumseq_fn)(uint64_t n, void *state);

static inline bench_args sumseq_args(int argc, char **argv) {
  return bench_parse(argc, argv, 100000000);
}

/// Runs `sum` a->reps times and prints the RESULT line; returns the exit
/// status.
static inline int sumseq_bench(const bench_args *a, const char *variant,
                               sumseq_fn sum, void *state) {
  bench_run r = bench_begin("sumseq", variant, a->n);
  uint64_t expected = sumseq_expected(a->n);
  for (int rep = 0; rep < a->reps; ++rep) {
    uint64_t t0 = bench_cpu_ns();
    uint64_t got = sum(a->n, state);
    uint64_t t1 = bench_cpu_ns();
    bench_record(&r, t1 - t0, a->n, got, expected);
  }
  return bench_end(&r);
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_BENCH_SUMSEQ_H
