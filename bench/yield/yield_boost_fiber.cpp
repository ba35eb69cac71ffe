//===- bench/yield/yield_boost_fiber.cpp - yield() of Boost.Fiber ---------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Peer: 10 Boost.Fiber fibers call boost::this_fiber::yield() in a loop,
// scheduled by Boost.Fiber's default round-robin scheduler (its switch is
// Boost.Context's jump_fcontext plus the scheduler's ready queue). Main
// joins them, so the ring holds the 10 fibers. Checksum: yields done.
//
//===----------------------------------------------------------------------===//

#include "bench.h"

#include <boost/fiber/all.hpp>
#include <vector>

namespace {

constexpr int NCO = 10;
uint64_t ItersPerCo;
uint64_t YieldsDone;

__attribute__((noinline)) uint64_t yieldLoop(uint64_t K) {
  uint64_t I = 0;
  for (; I < K; ++I)
    boost::this_fiber::yield();
  return I;
}

} // namespace

int main(int argc, char **argv) {
  bench_args A = bench_parse(argc, argv, 100000000);
  bench_run R = bench_begin("yield", "boost-fiber", A.n);
  ItersPerCo = A.n / NCO;
  uint64_t Total = ItersPerCo * NCO;
  for (int Rep = 0; Rep < A.reps; ++Rep) {
    YieldsDone = 0;
    std::vector<boost::fibers::fiber> Fs;
    Fs.reserve(NCO);
    uint64_t T0 = bench_cpu_ns();
    for (int I = 0; I < NCO; ++I)
      Fs.emplace_back([] { YieldsDone += yieldLoop(ItersPerCo); });
    for (auto &F : Fs)
      F.join();
    uint64_t T1 = bench_cpu_ns();
    bench_record(&R, T1 - T0, Total, YieldsDone, Total);
  }
  return bench_end(&R);
}
