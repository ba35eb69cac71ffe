//===- bench/hanoi/hanoi_boost.cpp - Hanoi on Boost.Context ---------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The recursion runs on its own stack; every move is one jump_fcontext to the
// consumer and one back.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "hanoi.h"

#include <boost/context/detail/fcontext.hpp>
#include <cstdlib>

namespace bc = boost::context::detail;

namespace {

constexpr size_t StackSize = 64 * 1024;

struct Job {
  unsigned N;
  uint64_t Times;
  bc::fcontext_t Caller;
};

void hanoiGen(Job &J, unsigned N, char F, char T, char A) {
  if (N == 0)
    return;
  hanoiGen(J, N - 1, F, A, T);
  uintptr_t Move = HANOI_MOVE(N, F, T);
  J.Caller = bc::jump_fcontext(J.Caller, reinterpret_cast<void *>(Move)).fctx;
  hanoiGen(J, N - 1, A, T, F);
}

void body(bc::transfer_t T) {
  Job &J = *static_cast<Job *>(T.data);
  J.Caller = T.fctx;
  for (uint64_t I = 0; I < J.Times; ++I)
    hanoiGen(J, J.N, 'a', 'b', 'c');
  bc::jump_fcontext(J.Caller, nullptr); // moves are never 0: end marker
  std::abort();
}

__attribute__((noinline)) uint64_t run(char *Stack, Job &J) {
  bc::fcontext_t G = bc::make_fcontext(Stack + StackSize, StackSize, body);
  uint64_t H = 0;
  bc::transfer_t T = bc::jump_fcontext(G, &J);
  while (T.data) {
    H = hanoi_fold(H,
                   static_cast<uint32_t>(reinterpret_cast<uintptr_t>(T.data)));
    T = bc::jump_fcontext(T.fctx, nullptr);
  }
  return H;
}

} // namespace

int main(int argc, char **argv) {
  bench_args A = bench_parse(argc, argv, 20);
  bench_run R = bench_begin("hanoi", "boost-fcontext", A.n);
  Job J{static_cast<unsigned>(A.n), hanoi_times(static_cast<unsigned>(A.n)),
        nullptr};
  uint64_t Ops = J.Times * ((uint64_t(1) << J.N) - 1);
  uint64_t Expected = hanoi_expected(J.N, J.Times);
  char *Stack = static_cast<char *>(aligned_alloc(4096, StackSize));
  for (int Rep = 0; Rep < A.reps; ++Rep) {
    uint64_t T0 = bench_now_ns();
    uint64_t H = run(Stack, J);
    uint64_t T1 = bench_now_ns();
    bench_record(&R, T1 - T0, Ops, H, Expected);
  }
  return bench_end(&R);
}
