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

#include "sumseq.h"
#include "cacs/instack.hpp"

__attribute__((noinline)) uint64_t sumOf(uint64_t N, void *) {
  uint64_t Sum = 0;
  for (uint64_t V : cacs::make_instack<uint64_t>([N](auto &Yield) {
         for (uint64_t Count = N; Count != 0; --Count)
           Yield(Count);
       }))
    Sum += V;
  return Sum;
}

int main(int argc, char **argv) {
  bench_args A = sumseq_args(argc, argv);
  return sumseq_bench(&A, "libcacs-instack-c++", sumOf, nullptr);
}
