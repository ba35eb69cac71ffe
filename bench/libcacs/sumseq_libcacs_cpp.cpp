//===- bench/libcacs/sumseq_libcacs_cpp.cpp - Sum of sequence, cacs::generator
//===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The C++ face of the runtime (generator.hpp, range-for), written like the
// C++20 peers: a noinline producer and a range-for consumer.
//
//===----------------------------------------------------------------------===//

#include "sumseq.h"
#include "cacs/generator.hpp"

__attribute__((noinline)) cacs::generator<uint64_t> producer(uint64_t Count) {
  return cacs::generator<uint64_t>(
      [Count](cacs::generator<uint64_t>::yielder &Yield) mutable {
        for (; Count != 0; --Count)
          Yield(Count);
      });
}

__attribute__((noinline)) uint64_t sumOf(uint64_t N, void *) {
  uint64_t Sum = 0;
  for (uint64_t V : producer(N))
    Sum += V;
  return Sum;
}

int main(int argc, char **argv) {
  bench_args A = sumseq_args(argc, argv);
  return sumseq_bench(&A, "libcacs-gen-c++", sumOf, nullptr);
}
