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

#include "gen20.hpp"
#include "sumseq.h"

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

uint64_t sumFor(uint64_t N, void *) { return sumOf(producerFor, N); }
uint64_t sumWhile(uint64_t N, void *) { return sumOf(producerWhile, N); }
uint64_t sumPlain(uint64_t N, void *) { return plainLoop(N); }

int main(int argc, char **argv) {
  bench_args A = sumseq_args(argc, argv);
  const char *V = A.variant ? A.variant : "cpp20-for";
  sumseq_fn F = !strcmp(V, "cpp20-for")     ? sumFor
                : !strcmp(V, "cpp20-while") ? sumWhile
                : !strcmp(V, "plain-loop")  ? sumPlain
                                            : nullptr;
  if (!F) {
    fprintf(stderr, "unknown variant %s\n", V);
    return 64;
  }
  return sumseq_bench(&A, V, F, nullptr);
}
