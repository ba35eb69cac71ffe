// std::chrono timeouts of the C++ wrappers at both ends. A zero or
// negative timeout (a deadline already passed: `Deadline - now()`) does
// not wait, in cacs/io.hpp as in cacs/sync.hpp and std:: timed waits;
// cacs::forever, or a duration as long as hours::max(), waits until the
// event. cacs::fd used to map every negative duration to "forever" (a read
// loop with a passed deadline hung), and condition_variable::wait_for with
// a predicate computed now() + D, which overflowed for such durations and
// gave up at once.
//
// RUN: %clangxx -std=c++17 -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t2 && %t2 | FileCheck %s
//
// CHECK: fd.read(-1ms): ETIMEDOUT at once
// CHECK-NEXT: fd.read(deadline passed): ETIMEDOUT at once
// CHECK-NEXT: fd.read(cacs::forever): 1, woken
// CHECK-NEXT: fd.read(hours::max()): 1, woken
// CHECK-NEXT: wait_for(cacs::forever, pred): true, woken
// CHECK-NEXT: wait_for(hours::max(), pred): true, woken
// CHECK-NEXT: try_acquire_for(cacs::forever): true, woken
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#include "cacs/io.hpp"
#include "cacs/sync.hpp"

#include "Inputs/io-test.h"

#include <chrono>
#include <mutex>

using namespace std::chrono_literals;

enum { DelayUs = 20 * 1000 };

static const char *woken(long long T0) {
  bool Waited = now_us() - T0 >= DelayUs / 2;
  EXPECT(Waited);
  return Waited ? "woken" : "returned at once";
}

static const char *atOnce(long long T0) {
  bool Quick = now_us() - T0 < 5 * 1000 * 1000;
  EXPECT(Quick);
  return Quick ? "at once" : "after a long wait";
}

int main() {
  int Fds = test_begin(20);
  int Sv[2];
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, Sv) == 0);
  cacs::fd A(Sv[0]), B(Sv[1]);
  char C;

  long long T0 = now_us();
  ssize_t N = A.read(&C, 1, -1ms);
  EXPECT(N == -1 && errno == ETIMEDOUT);
  printf("fd.read(-1ms): %s %s\n",
         N == -1 && errno == ETIMEDOUT ? "ETIMEDOUT" : "?", atOnce(T0));
  auto Deadline = std::chrono::steady_clock::now();
  cacs_sleep(1000);
  T0 = now_us();
  N = A.read(&C, 1, Deadline - std::chrono::steady_clock::now());
  EXPECT(N == -1 && errno == ETIMEDOUT);
  printf("fd.read(deadline passed): %s %s\n",
         N == -1 && errno == ETIMEDOUT ? "ETIMEDOUT" : "?", atOnce(T0));

  // The events come from a helper coroutine, DelayUs after each wait began.
  cacs::mutex M;
  cacs::condition_variable CV;
  cacs::semaphore Sem;
  bool Flag = false;
  cacs_coro *Helper = cacs::spawn([&] {
    for (int I = 0; I < 2; ++I) {
      cacs_sleep(DelayUs);
      EXPECT(B.write("x", 1) == 1);
    }
    for (int I = 0; I < 2; ++I) {
      cacs_sleep(DelayUs);
      std::lock_guard<cacs::mutex> L(M);
      Flag = true;
      CV.notify_one();
    }
    cacs_sleep(DelayUs);
    Sem.release();
  });
  T0 = now_us();
  N = A.read(&C, 1, cacs::forever);
  printf("fd.read(cacs::forever): %zd, %s\n", N, woken(T0));
  T0 = now_us();
  N = A.read(&C, 1, std::chrono::hours::max());
  printf("fd.read(hours::max()): %zd, %s\n", N, woken(T0));
  {
    std::unique_lock<cacs::mutex> L(M);
    T0 = now_us();
    bool R = CV.wait_for(L, cacs::forever, [&] { return Flag; });
    printf("wait_for(cacs::forever, pred): %s, %s\n", R ? "true" : "false",
           woken(T0));
    Flag = false;
    T0 = now_us();
    R = CV.wait_for(L, std::chrono::hours::max(), [&] { return Flag; });
    printf("wait_for(hours::max(), pred): %s, %s\n", R ? "true" : "false",
           woken(T0));
  }
  T0 = now_us();
  bool R = Sem.try_acquire_for(cacs::forever);
  printf("try_acquire_for(cacs::forever): %s, %s\n", R ? "true" : "false",
         woken(T0));
  cacs_join(Helper);
  A.reset();
  B.reset();
  return test_end(Fds);
}
