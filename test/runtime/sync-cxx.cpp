// The C++ wrappers (cacs/sync.hpp): cacs::mutex under std::lock_guard,
// std::unique_lock and std::scoped_lock, try_lock_for, condition_variable
// waits with predicates and timeouts, channel<T> of ints (range-for) and of
// move-only and owning types (none leaked, also when left in a destroyed
// channel), semaphore and wait group, shared_semaphore and a shared
// channel with std::thread, and the errors std:: types report. Under ASan:
// sync-cxx-asan.cpp.
//
// RUN: %clangxx -std=c++17 -O0 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t2 && %t2 | FileCheck %s
//
// CHECK: guards: 3000 increments, never two inside ok
// CHECK-NEXT: try_lock_for: false after 2 ms, true in time ok
// CHECK-NEXT: condition_variable: predicate waits, 5 woken, wait_for timeout ok
// CHECK-NEXT: channel<int>: range-for sum 4950 ok
// CHECK-NEXT: channel<unique_ptr<int>>: 100 moved through, 2 left behind freed ok
// CHECK-NEXT: channel<string>: abc def ok
// CHECK-NEXT: channel status: timeout, closed, send after close false ok
// CHECK-NEXT: semaphore and wait_group: at most 2 inside, 6 done ok
// CHECK-NEXT: threads: shared_semaphore woke a coroutine, shared channel sum 19900 ok
// CHECK-NEXT: errors: relock EDEADLK, wait without lock EPERM ok
// CHECK-NEXT: PASS

#include "cacs/sync.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace std::chrono_literals;

static int Failures;
#define EXPECT(c)                                                              \
  do {                                                                         \
    if (!(c)) {                                                                \
      std::printf("FAIL line %d: %s\n", __LINE__, #c);                         \
      ++Failures;                                                              \
    }                                                                          \
  } while (0)
#define OK (Failures ? "FAILED" : "ok")

static void joinAll(std::vector<cacs_coro *> &Cs) {
  for (cacs_coro *C : Cs)
    cacs_join(C);
  Cs.clear();
}

static void testGuards() {
  cacs::mutex M;
  int Counter = 0, Inside = 0;
  std::vector<cacs_coro *> Cs;
  for (int K = 0; K < 30; ++K)
    Cs.push_back(cacs::spawn([&, K] {
      for (int I = 0; I < 100; ++I) {
        auto Body = [&] {
          EXPECT(Inside++ == 0);
          int V = Counter;
          cacs_yield();
          Counter = V + 1;
          --Inside;
        };
        if (I % 3 == 0) {
          std::lock_guard<cacs::mutex> G(M);
          Body();
        } else if (I % 3 == 1) {
          std::unique_lock<cacs::mutex> L(M);
          Body();
          L.unlock();
          cacs_yield();
        } else {
          std::scoped_lock<cacs::mutex> S(M);
          Body();
        }
        (void)K;
      }
    }));
  joinAll(Cs);
  EXPECT(Counter == 3000);
  std::printf("guards: %d increments, never two inside %s\n", Counter, OK);
}

static void testTryLockFor() {
  cacs::mutex M;
  bool Timed = true, InTime = false;
  M.lock();
  cacs_coro *C = cacs::spawn([&] {
    auto T0 = std::chrono::steady_clock::now();
    Timed = M.try_lock_for(2ms);
    EXPECT(std::chrono::steady_clock::now() - T0 >= 2ms);
    InTime = M.try_lock_for(10s);
    if (InTime)
      M.unlock();
  });
  while (Timed) // until the 2 ms try gave up
    cacs_sleep(1000);
  M.unlock();
  cacs_join(C);
  EXPECT(!Timed && InTime);
  std::printf("try_lock_for: false after 2 ms, true in time %s\n", OK);
}

static void testConditionVariable() {
  cacs::mutex M;
  cacs::condition_variable CV;
  bool Go = false;
  int Woken = 0;
  std::vector<cacs_coro *> Cs;
  for (int I = 0; I < 5; ++I)
    Cs.push_back(cacs::spawn([&] {
      std::unique_lock<cacs::mutex> L(M);
      CV.wait(L, [&] { return Go; });
      EXPECT(L.owns_lock() && Go);
      ++Woken;
    }));
  cacs_yield();
  CV.notify_all(); // Go is still false: they must wait again
  cacs_yield();
  cacs_yield();
  EXPECT(Woken == 0);
  {
    std::lock_guard<cacs::mutex> G(M);
    Go = true;
  }
  CV.notify_all();
  joinAll(Cs);
  std::unique_lock<cacs::mutex> L(M);
  auto T0 = std::chrono::steady_clock::now();
  bool Got = CV.wait_for(L, 3ms, [] { return false; });
  EXPECT(!Got && std::chrono::steady_clock::now() - T0 >= 3ms);
  EXPECT(L.owns_lock());
  EXPECT(CV.wait_for(L, 1ms) == std::cv_status::timeout);
  EXPECT(Woken == 5);
  std::printf("condition_variable: predicate waits, %d woken, wait_for timeout "
              "%s\n",
              Woken, OK);
}

static void testChannelInt() {
  cacs::channel<int> Ch(4);
  cacs_coro *P = cacs::spawn([&] {
    for (int I = 0; I < 100; ++I)
      EXPECT(Ch.send(I));
    Ch.close();
  });
  int Sum = 0;
  for (int V : Ch)
    Sum += V;
  cacs_join(P);
  EXPECT(Sum == 4950);
  std::printf("channel<int>: range-for sum %d %s\n", Sum, OK);
}

static int Alive; // Tracked objects not yet destroyed.
struct Tracked {
  int V;
  explicit Tracked(int V) : V(V) { ++Alive; }
  ~Tracked() { --Alive; }
};

static void testChannelMoveOnly() {
  int Moved = 0, Left = 0;
  {
    cacs::channel<std::unique_ptr<Tracked>> Ch(2);
    cacs_coro *P = cacs::spawn([&] {
      for (int I = 0; I < 102; ++I)
        EXPECT(Ch.send(std::make_unique<Tracked>(I)));
    });
    for (int I = 0; I < 100; ++I) {
      std::optional<std::unique_ptr<Tracked>> V = Ch.recv();
      EXPECT(V && (*V)->V == I);
      ++Moved;
    }
    cacs_join(P);       // its last 2 fit in the buffer
    Left = Alive; // in the channel
    EXPECT(Left == 2);

  } // the destructor frees what is left
  EXPECT(Alive == 0);
  std::printf("channel<unique_ptr<int>>: %d moved through, %d left behind "
              "freed %s\n",
              Moved, Left, OK);
}

static void testChannelString() {
  cacs::channel<std::string> Ch(0); // rendezvous
  cacs_coro *P = cacs::spawn([&] {
    Ch.send("abc");
    Ch.send(std::string("def"));
    Ch.close();
  });
  std::string Got;
  for (std::string S : Ch)
    Got += (Got.empty() ? "" : " ") + S;
  cacs_join(P);
  EXPECT(Got == "abc def");
  std::printf("channel<string>: %s %s\n", Got.c_str(), OK);
}

static void testChannelStatus() {
  cacs::channel<long> Ch(1);
  long V = 0;
  EXPECT(Ch.recv_for(V, 1ms) == cacs::chan_status::timeout);
  EXPECT(Ch.send_for(7L, 0ms) == cacs::chan_status::ok);
  EXPECT(Ch.send_for(8L, 1ms) == cacs::chan_status::timeout);
  EXPECT(Ch.close() && !Ch.close());
  EXPECT(!Ch.send(9));
  EXPECT(Ch.recv_for(V, 1s) == cacs::chan_status::ok && V == 7);
  EXPECT(Ch.recv_for(V, 1s) == cacs::chan_status::closed);
  EXPECT(!Ch.recv());
  std::printf("channel status: timeout, closed, send after close false %s\n",
              OK);
}

static void testSemaphoreWaitGroup() {
  cacs::semaphore S(2);
  cacs::wait_group WG;
  int Inside = 0, Max = 0, Done = 0;
  std::vector<cacs_coro *> Cs;
  for (int I = 0; I < 6; ++I) {
    WG.add();
    Cs.push_back(cacs::spawn([&] {
      S.acquire();
      Max = std::max(Max, ++Inside);
      cacs_sleep(200);
      --Inside;
      S.release();
      ++Done;
      WG.done();
    }));
  }
  EXPECT(!WG.wait_for(10us));
  WG.wait();
  joinAll(Cs);
  EXPECT(Done == 6 && Max == 2 && S.try_acquire());
  std::printf("semaphore and wait_group: at most %d inside, %d done %s\n", Max,
              Done, OK);
}

static void testThreads() {
  cacs::shared_semaphore Sem;
  bool Woke = false;
  cacs_coro *C = cacs::spawn([&] {
    Sem.acquire();
    Woke = true;
  });
  std::thread T([&] {
    std::this_thread::sleep_for(2ms);
    Sem.release();
  });
  cacs_join(C);
  T.join();
  EXPECT(Woke);
  cacs::channel<int> Ch(8, /*Shared=*/true);
  std::thread P([&] {
    for (int I = 0; I < 200; ++I)
      Ch.send(I);
    Ch.close();
  });
  int Sum = 0;
  std::vector<cacs_coro *> Cs;
  for (int K = 0; K < 3; ++K)
    Cs.push_back(cacs::spawn([&] {
      for (int V : Ch)
        Sum += V;
    }));
  joinAll(Cs);
  P.join();
  EXPECT(Sum == 19900);
  std::printf("threads: shared_semaphore woke a coroutine, shared channel sum "
              "%d %s\n",
              Sum, OK);
}

static void testErrors() {
  cacs::mutex M;
  cacs::condition_variable CV;
  std::errc Relock{}, NoLock{};
  M.lock();
  try {
    M.lock();
  } catch (const std::system_error &E) {
    Relock = static_cast<std::errc>(E.code().value());
  }
  M.unlock();
  std::unique_lock<cacs::mutex> L(M, std::defer_lock);
  try {
    CV.wait(L);
  } catch (const std::system_error &E) {
    NoLock = static_cast<std::errc>(E.code().value());
  }
  EXPECT(Relock == std::errc::resource_deadlock_would_occur);
  EXPECT(NoLock == std::errc::operation_not_permitted);
  std::printf("errors: relock EDEADLK, wait without lock EPERM %s\n", OK);
}

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  alarm(60);
  testGuards();
  testTryLockFor();
  testConditionVariable();
  testChannelInt();
  testChannelMoveOnly();
  testChannelString();
  testChannelStatus();
  testSemaphoreWaitGroup();
  testThreads();
  testErrors();
  EXPECT(cacs_count() == 0);
  std::printf("%s\n", Failures ? "FAIL" : "PASS");
  return Failures != 0;
}
