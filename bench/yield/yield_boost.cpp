//===- bench/yield/yield_boost.cpp - yield() on Boost.Context fcontext ----===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The peer of yield.c: 10 contexts passing control round-robin with
// jump_fcontext (one switch per yield, symmetric: the resumed side stores the
// suspended context it receives into the slot it was told about).
//
//===----------------------------------------------------------------------===//

#include "bench.h"

#include <boost/context/detail/fcontext.hpp>
#include <cstdlib>

namespace bc = boost::context::detail;

namespace {

constexpr int NCO = 10;
constexpr size_t StackSize = 64 * 1024;

bc::fcontext_t Ctx[NCO];
bc::fcontext_t MainCtx;
int Cur;
int Alive;
uint64_t ItersPerCo;
uint64_t YieldsDone;

// Store the context we came from into the slot its yield() pointed at.
inline void arrived(bc::transfer_t T) {
  *static_cast<bc::fcontext_t *>(T.data) = T.fctx;
}

__attribute__((noinline)) void yieldNext() {
  int From = Cur;
  int To = (Cur + 1) % NCO;
  // Skip finished contexts (their slot is null).
  while (!Ctx[To])
    To = (To + 1) % NCO;
  if (To == From)
    return;
  Cur = To;
  bc::fcontext_t Target = Ctx[To];
  Ctx[To] = nullptr;
  arrived(bc::jump_fcontext(Target, &Ctx[From]));
}

__attribute__((noinline)) uint64_t yieldLoop(uint64_t K) {
  uint64_t I = 0;
  for (; I < K; ++I)
    yieldNext();
  return I;
}

void body(bc::transfer_t T) {
  arrived(T);
  YieldsDone += yieldLoop(ItersPerCo);
  // Finished: leave for good. The last one returns to main.
  int Self = Cur;
  if (--Alive == 0) {
    bc::jump_fcontext(MainCtx, nullptr);
  } else {
    int To = (Self + 1) % NCO;
    while (!Ctx[To])
      To = (To + 1) % NCO;
    Cur = To;
    bc::fcontext_t Target = Ctx[To];
    Ctx[To] = nullptr;
    static bc::fcontext_t Dead;
    bc::jump_fcontext(Target, &Dead);
  }
  std::abort();
}

} // namespace

int main(int argc, char **argv) {
  bench_args A = bench_parse(argc, argv, 100000000);
  bench_run R = bench_begin("yield", "boost-fcontext", A.n);
  ItersPerCo = A.n / NCO;
  uint64_t Total = ItersPerCo * NCO;
  char *Stacks[NCO];
  for (auto &S : Stacks)
    S = static_cast<char *>(aligned_alloc(4096, StackSize));
  for (int Rep = 0; Rep < A.reps; ++Rep) {
    YieldsDone = 0;
    Alive = NCO;
    for (int I = 0; I < NCO; ++I)
      Ctx[I] = bc::make_fcontext(Stacks[I] + StackSize, StackSize, body);
    // Start every context once so each has stored its resume point, then
    // hand control to the first one.
    uint64_t T0 = bench_now_ns();
    Cur = 0;
    bc::fcontext_t First = Ctx[0];
    Ctx[0] = nullptr;
    bc::transfer_t T = bc::jump_fcontext(First, &MainCtx);
    (void)T;
    uint64_t T1 = bench_now_ns();
    bench_record(&R, T1 - T0, Total, YieldsDone, Total);
  }
  return bench_end(&R);
}
