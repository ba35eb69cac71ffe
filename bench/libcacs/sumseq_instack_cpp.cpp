//===- bench/libcacs/sumseq_instack_cpp.cpp - Sum of sequence, C++ in-stack
//===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// libcacs's C++ in-stack generator (cacs/instack.hpp) in a range-for.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/instack.hpp"

__attribute__((noinline)) uint64_t sumOf(uint64_t N) {
  uint64_t Sum = 0;
  for (uint64_t V : cacs::make_instack<uint64_t>([N](auto &Yield) {
         for (uint64_t Count = N; Count != 0; --Count)
           Yield(Count);
       }))
    Sum += V;
  return Sum;
}

int main(int argc, char **argv) {
  bench_args A = bench_parse(argc, argv, 100000000);
  bench_run R = bench_begin("sumseq", "libcacs-instack-c++", A.n);
  uint64_t Expected = A.n % 2 ? A.n * ((A.n + 1) / 2) : (A.n / 2) * (A.n + 1);
  for (int Rep = 0; Rep < A.reps; ++Rep) {
    uint64_t T0 = bench_now_ns();
    uint64_t Got = sumOf(A.n);
    uint64_t T1 = bench_now_ns();
    bench_record(&R, T1 - T0, A.n, Got, Expected);
  }
  return bench_end(&R);
}
