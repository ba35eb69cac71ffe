//===- bench/sumseq/sumseq_cpp20.cpp - Sum of sequence, stackless ---------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Variants (-v): cpp20-for, cpp20-while (the two producers of the paper's
// Fig. 2) and plain-loop (no coroutine at all). Checksum: n(n+1)/2 mod 2^64.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "gen20.hpp"

#include <cstring>

__attribute__((noinline)) Gen20<uint64_t> producerFor(uint64_t Count) {
  for (; Count != 0; --Count)
    co_yield Count;
}

__attribute__((noinline)) Gen20<uint64_t> producerWhile(uint64_t Count) {
  while (Count)
    co_yield Count--;
}

template <typename Producer>
__attribute__((noinline)) uint64_t sumOf(Producer P, uint64_t N) {
  uint64_t Sum = 0;
  auto G = P(N);
  while (G.next())
    Sum += G.value();
  return Sum;
}

__attribute__((noinline)) uint64_t plainLoop(uint64_t N) {
  uint64_t Sum = 0;
  for (uint64_t C = N; C != 0; --C) {
    BENCH_KEEP(C); // no closed form, no vectorization: one value at a time
    Sum += C;
  }
  return Sum;
}

int main(int argc, char **argv) {
  bench_args A = bench_parse(argc, argv, 100000000);
  const char *V = A.variant ? A.variant : "cpp20-for";
  bench_run R = bench_begin("sumseq", V, A.n);
  // n(n+1)/2 mod 2^64, halving the even factor first.
  uint64_t Expected = A.n % 2 ? A.n * ((A.n + 1) / 2) : (A.n / 2) * (A.n + 1);
  for (int Rep = 0; Rep < A.reps; ++Rep) {
    uint64_t T0 = bench_now_ns(), Got;
    if (!strcmp(V, "cpp20-for"))
      Got = sumOf(producerFor, A.n);
    else if (!strcmp(V, "cpp20-while"))
      Got = sumOf(producerWhile, A.n);
    else if (!strcmp(V, "plain-loop"))
      Got = plainLoop(A.n);
    else {
      fprintf(stderr, "unknown variant %s\n", V);
      return 64;
    }
    uint64_t T1 = bench_now_ns();
    bench_record(&R, T1 - T0, A.n, Got, Expected);
  }
  return bench_end(&R);
}
