//===- bench/write_fully/write_fully_boost.cpp - write_fully on Boost -----===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The same call structure as write_fully.c; wait_for_ready() jumps straight
// to the next task with jump_fcontext (round-robin, one switch per yield).
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "wf.h"

#include <boost/context/detail/fcontext.hpp>
#include <cstdlib>

namespace bc = boost::context::detail;

namespace {

constexpr size_t StackSize = 64 * 1024;

struct Task {
  wf_sock Sock;
  const unsigned char *Buf;
  size_t Bytes;
};

// A ring like libcacs's scheduler: a circular list of runnable contexts.
struct Co {
  bc::fcontext_t Ctx;
  Co *Next, *Prev;
  Task *T;
};

Co Cos[WF_TASKS];
Co Main;
Co *Cur;
Task Tasks[WF_TASKS];

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

__attribute__((noinline)) void waitForReady(wf_sock *) { yieldNext(); }

__attribute__((noinline)) size_t
writeFully(wf_sock *S, const unsigned char *Buf, size_t Len) {
  size_t Left = Len;
  while (Left) {
    waitForReady(S);
    size_t N = wf_send_some(S, Buf, Left);
    Buf += N;
    Left -= N;
  }
  return Len;
}

void body(bc::transfer_t T) {
  arrived(T);
  Task &Me = *Cur->T;
  writeFully(&Me.Sock, Me.Buf, Me.Bytes);
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
  bench_args A = bench_parse(argc, argv, 100u << 20);
  bench_run R = bench_begin("write_fully", "boost-fcontext", A.n);
  size_t Bytes = A.n;
  unsigned char *Buf = wf_make_buffer(Bytes);
  uint64_t Expected = wf_expected(Buf, Bytes);
  char *Stacks[WF_TASKS];
  for (auto &S : Stacks)
    S = static_cast<char *>(aligned_alloc(4096, StackSize));
  for (int Rep = 0; Rep < A.reps; ++Rep) {
    for (int I = 0; I < WF_TASKS; ++I) {
      Tasks[I] = Task{{0, 0}, Buf, Bytes};
      Cos[I].Ctx = bc::make_fcontext(Stacks[I] + StackSize, StackSize, body);
      Cos[I].Next = &Cos[(I + 1) % WF_TASKS];
      Cos[I].Prev = &Cos[(I + WF_TASKS - 1) % WF_TASKS];
      Cos[I].T = &Tasks[I];
    }
    uint64_t T0 = bench_cpu_ns();
    Cur = &Cos[0];
    arrived(bc::jump_fcontext(Cos[0].Ctx, &Main));
    uint64_t T1 = bench_cpu_ns();
    uint64_t Got = 0;
    for (auto &T : Tasks)
      Got += T.Sock.sum + T.Sock.sent;
    bench_record(&R, T1 - T0, wf_ops(Bytes), Got, Expected);
  }
  return bench_end(&R);
}
