//===- bench/write_fully/write_fully_cpp20.cpp - write_fully, stackless ---===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The same call structure with C++20 tasks: connection -> co_await
// write_fully -> co_await wait_for_ready (a coroutine, like the stackful
// function it mirrors) -> co_await yield. A yield suspends the whole chain
// back to a round-robin scheduler, which resumes the innermost frame;
// finished tasks resume their awaiter by symmetric transfer. Frames come from
// the default operator new (the allocation cost the paper points out).
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "wf.h"

#include <coroutine>
#include <exception>
#include <utility>

namespace {

/// Round-robin ready queue of suspended coroutines.
struct Scheduler {
  static constexpr unsigned Cap = 64; // > WF_TASKS, a power of two
  std::coroutine_handle<> Q[Cap];
  unsigned Head = 0, Tail = 0;
  void push(std::coroutine_handle<> H) { Q[Tail++ % Cap] = H; }
  void run() {
    while (Head != Tail)
      Q[Head++ % Cap].resume();
  }
} Sched;

class Task {
public:
  struct promise_type {
    std::coroutine_handle<> Continuation;
    Task get_return_object() {
      return Task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct FinalAwaiter {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> H) noexcept {
        if (auto C = H.promise().Continuation)
          return C;
        return std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    FinalAwaiter final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };

  explicit Task(std::coroutine_handle<promise_type> H) : H(H) {}
  Task(Task &&O) noexcept : H(std::exchange(O.H, nullptr)) {}
  ~Task() {
    if (H)
      H.destroy();
  }

  // co_await Task: start the child by symmetric transfer; it resumes us.
  bool await_ready() noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> Me) noexcept {
    H.promise().Continuation = Me;
    return H;
  }
  void await_resume() noexcept {}

  std::coroutine_handle<promise_type> H;
};

/// Suspend to the scheduler; it resumes us after the other tasks.
struct Yield {
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<> Me) noexcept { Sched.push(Me); }
  void await_resume() noexcept {}
};

Task waitForReady(wf_sock *) { co_await Yield{}; }

Task writeFully(wf_sock *S, const unsigned char *Buf, size_t Len) {
  size_t Left = Len;
  while (Left) {
    co_await waitForReady(S);
    size_t N = wf_send_some(S, Buf, Left);
    Buf += N;
    Left -= N;
  }
}

Task connection(wf_sock *S, const unsigned char *Buf, size_t Len) {
  co_await writeFully(S, Buf, Len);
}

} // namespace

int main(int argc, char **argv) {
  bench_args A = bench_parse(argc, argv, 100u << 20);
  bench_run R = bench_begin("write_fully", "cpp20", A.n);
  size_t Bytes = A.n;
  unsigned char *Buf = wf_make_buffer(Bytes);
  uint64_t Expected = wf_expected(Buf, Bytes);
  for (int Rep = 0; Rep < A.reps; ++Rep) {
    wf_sock Socks[WF_TASKS] = {};
    Task *Tasks[WF_TASKS];
    for (int I = 0; I < WF_TASKS; ++I) {
      Tasks[I] = new Task(connection(&Socks[I], Buf, Bytes));
      Sched.push(Tasks[I]->H);
    }
    uint64_t T0 = bench_cpu_ns();
    Sched.run();
    uint64_t T1 = bench_cpu_ns();
    uint64_t Got = 0;
    for (int I = 0; I < WF_TASKS; ++I) {
      Got += Socks[I].sum + Socks[I].sent;
      delete Tasks[I];
    }
    bench_record(&R, T1 - T0, wf_ops(Bytes), Got, Expected);
  }
  return bench_end(&R);
}
