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

bc::fcontext_t Ctx[WF_TASKS];
bc::fcontext_t MainCtx;
Task Tasks[WF_TASKS];
int Cur, Alive;

inline void arrived(bc::transfer_t T) {
  *static_cast<bc::fcontext_t *>(T.data) = T.fctx;
}

int nextLive(int From) {
  int To = (From + 1) % WF_TASKS;
  while (!Ctx[To] && To != From)
    To = (To + 1) % WF_TASKS;
  return To;
}

__attribute__((noinline)) void yieldNext() {
  int From = Cur, To = nextLive(From);
  if (To == From)
    return;
  Cur = To;
  bc::fcontext_t Target = Ctx[To];
  Ctx[To] = nullptr;
  arrived(bc::jump_fcontext(Target, &Ctx[From]));
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
  Task &Me = Tasks[Cur];
  writeFully(&Me.Sock, Me.Buf, Me.Bytes);
  static bc::fcontext_t Dead;
  if (--Alive == 0)
    bc::jump_fcontext(MainCtx, nullptr);
  int To = nextLive(Cur);
  Cur = To;
  bc::fcontext_t Target = Ctx[To];
  Ctx[To] = nullptr;
  bc::jump_fcontext(Target, &Dead);
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
    Alive = WF_TASKS;
    for (int I = 0; I < WF_TASKS; ++I) {
      Tasks[I] = Task{{0, 0}, Buf, Bytes};
      Ctx[I] = bc::make_fcontext(Stacks[I] + StackSize, StackSize, body);
    }
    uint64_t T0 = bench_now_ns();
    Cur = 0;
    bc::fcontext_t First = Ctx[0];
    Ctx[0] = nullptr;
    bc::jump_fcontext(First, &MainCtx);
    uint64_t T1 = bench_now_ns();
    uint64_t Got = 0;
    for (auto &T : Tasks)
      Got += T.Sock.sum + T.Sock.sent;
    bench_record(&R, T1 - T0, wf_ops(Bytes), Got, Expected);
  }
  return bench_end(&R);
}
