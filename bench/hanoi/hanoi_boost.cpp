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

__attribute__((noinline)) uint64_t run(unsigned N, uint64_t Times,
                                       void *State) {
  char *Stack = static_cast<char *>(State);
  Job J{N, Times, nullptr};
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
  return hanoi_bench(&A, "boost-fcontext", run,
                     aligned_alloc(4096, StackSize));
}
