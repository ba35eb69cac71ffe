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

#include "bench.h"
#include "cacs/generator.hpp"

__attribute__((noinline)) cacs::generator<uint64_t> producer(uint64_t Count) {
  return cacs::generator<uint64_t>(
      [Count](cacs::generator<uint64_t>::yielder &Yield) mutable {
        for (; Count != 0; --Count)
          Yield(Count);
      });
}

__attribute__((noinline)) uint64_t sumOf(uint64_t N) {
  uint64_t Sum = 0;
  for (uint64_t V : producer(N))
    Sum += V;
  return Sum;
}

int main(int argc, char **argv) {
  bench_args A = bench_parse(argc, argv, 100000000);
  bench_run R = bench_begin("sumseq", "libcacs-gen-c++", A.n);
  uint64_t Expected = A.n % 2 ? A.n * ((A.n + 1) / 2) : (A.n / 2) * (A.n + 1);
  for (int Rep = 0; Rep < A.reps; ++Rep) {
    uint64_t T0 = bench_now_ns();
    uint64_t Got = sumOf(A.n);
    uint64_t T1 = bench_now_ns();
    bench_record(&R, T1 - T0, A.n, Got, Expected);
  }
  return bench_end(&R);
}
