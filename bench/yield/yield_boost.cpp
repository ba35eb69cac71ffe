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

// A ring like libcacs's scheduler: a circular list of runnable contexts.
struct Co {
  bc::fcontext_t Ctx;
  Co *Next, *Prev;
};

Co Cos[NCO];
Co Main;
Co *Cur;
uint64_t ItersPerCo;
uint64_t YieldsDone;

// The context we came from is stored into the Co its yield() passed along.
inline void arrived(bc::transfer_t T) {
  static_cast<Co *>(T.data)->Ctx = T.fctx;
}

__attribute__((noinline)) void yieldNext() {
  Co *From = Cur, *To = From->Next;
  if (To == From)
    return;
  Cur = To;
  arrived(bc::jump_fcontext(To->Ctx, From));
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
  // Finished: leave the ring for good; the last one returns to main.
  Co *Self = Cur, *To = Self->Next;
  static Co Dead;
  if (To == Self) {
    bc::jump_fcontext(Main.Ctx, &Dead);
  } else {
    Self->Prev->Next = To;
    To->Prev = Self->Prev;
    Cur = To;
    bc::jump_fcontext(To->Ctx, &Dead);
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
    for (int I = 0; I < NCO; ++I) {
      Cos[I].Ctx = bc::make_fcontext(Stacks[I] + StackSize, StackSize, body);
      Cos[I].Next = &Cos[(I + 1) % NCO];
      Cos[I].Prev = &Cos[(I + NCO - 1) % NCO];
    }
    uint64_t T0 = bench_cpu_ns();
    Cur = &Cos[0];
    arrived(bc::jump_fcontext(Cos[0].Ctx, &Main));
    uint64_t T1 = bench_cpu_ns();
    bench_record(&R, T1 - T0, Total, YieldsDone, Total);
  }
  return bench_end(&R);
}
