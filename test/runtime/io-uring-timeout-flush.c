// On the io_uring engine a call's timeout counts from the call (cacs/io.h),
// also when the call finds the submission queue full and must send it to
// the kernel before it can queue its own request: the time that submit
// takes (the first attempt of every request in the queue, a preemption)
// is part of the timeout, not added to it. The test fills the queue with
// reads that wait for ever, then makes a cacs_read and a cacs_wait_fd with
// a 300 ms timeout; the submit their request needs moves the clock the
// library reads (clock_gettime, wrapped at link time) 10 s on, as a slow
// submit would. The call is then past its deadline: ETIMEDOUT at once, not
// 300 ms after the submit.
//
// REQUIRES: io-uring
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -Wl,--wrap=clock_gettime -Wl,--wrap=io_uring_submit -o %t && %t | FileCheck %s
//
// CHECK: engine: uring
// CHECK-NEXT: read: the submit counts against the timeout ok
// CHECK-NEXT: wait_fd: the submit counts against the timeout ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#define _GNU_SOURCE 1
#define IO_TEST_OWN_ENGINE 1 // it asks for io_uring itself
#include "Inputs/io-test.h"

#include <stdint.h>

struct io_uring;

// CLOCK_MONOTONIC as the library and the test see it: the real clock plus
// `shift_ns`, which the slow submit below adds to.
static uint64_t shift_ns;
int __real_clock_gettime(clockid_t id, struct timespec *ts);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts) {
  int r = __real_clock_gettime(id, ts);
  if (r == 0 && id == CLOCK_MONOTONIC && shift_ns) {
    uint64_t ns =
        (uint64_t)ts->tv_sec * 1000000000u + (uint64_t)ts->tv_nsec + shift_ns;
    ts->tv_sec = (time_t)(ns / 1000000000u);
    ts->tv_nsec = (long)(ns % 1000000000u);
  }
  return r;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// The engine sends a full submission queue to the kernel with
// io_uring_submit (its polls use other calls). While `armed`, one such
// submit takes SLOW_NS of the clock above.
enum { SLOW_US = 10000000, TIMEOUT_US = 300000 };
static int armed, slow_submits;
int __real_io_uring_submit(struct io_uring *ring);
int __wrap_io_uring_submit(struct io_uring *ring) {
  if (armed) {
    armed = 0;
    ++slow_submits;
    shift_ns += (uint64_t)SLOW_US * 1000u;
  }
  return __real_io_uring_submit(ring);
}

// The engine's submission queue holds 256 requests (lib/io_uring.c, UR_SQ).
enum { QUEUE = 256 };
static int idle[2];  // the fillers wait on idle[0] for ever
static int quiet[2]; // the timed call waits on quiet[0]: nothing comes

static void filler(void *arg) {
  (void)arg;
  char c;
  // cacs_close ends the wait.
  if (cacs_read(idle[0], &c, 1, CACS_FOREVER) != -1 || errno != ECANCELED)
    ++failures;
}

static int timed_errno, timed_slow;
static uint64_t timed_ns;

static void timed_call(void *arg) {
  int wait_fd = (int)(intptr_t)arg;
  char c;
  armed = 1;
  int before = slow_submits;
  uint64_t t0 = now_ns();
  int r = wait_fd ? cacs_wait_fd(quiet[0], EPOLLIN, TIMEOUT_US)
                  : (int)cacs_read(quiet[0], &c, 1, TIMEOUT_US);
  timed_errno = r == -1 ? errno : 0;
  timed_ns = now_ns() - t0;
  timed_slow = slow_submits - before;
  armed = 0;
}

static void test_call(int wait_fd) {
  int before = failures;
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, idle) == 0);
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, quiet) == 0);
  // The fillers run first and fill the queue; the timed call's request is
  // one too many, and its submit is the slow one.
  cacs_coro *f[QUEUE];
  for (int i = 0; i < QUEUE; i++)
    f[i] = cacs_create(filler, NULL, 0);
  cacs_coro *t = cacs_create(timed_call, (void *)(intptr_t)wait_fd, 0);
  cacs_join(t);
  EXPECT(timed_slow == 1); // else the test did not test
  EXPECT(timed_errno == ETIMEDOUT);
  // The deadline passed during the submit: no 300 ms wait after it.
  EXPECT(timed_ns >= (uint64_t)SLOW_US * 1000u);
  EXPECT(timed_ns < ((uint64_t)SLOW_US + TIMEOUT_US / 2) * 1000u);
  if (failures != before && timed_ns >= (uint64_t)SLOW_US * 1000u)
    printf("the call ended %.1f ms after the submit\n",
           (double)(timed_ns - (uint64_t)SLOW_US * 1000u) / 1e6);
  EXPECT(cacs_close(idle[0]) == 0);
  for (int i = 0; i < QUEUE; i++)
    cacs_join(f[i]);
  cacs_close(idle[1]);
  cacs_close(quiet[0]);
  cacs_close(quiet[1]);
  printf("%s: the submit counts against the timeout %s\n",
         wait_fd ? "wait_fd" : "read", failures == before ? "ok" : "FAILED");
}

int main(void) {
  cacs_io_set_engine(CACS_IO_ENGINE_URING);
  int fds = test_begin(30);
  printf("engine: %s\n", io_engine_name(cacs_io_engine()));
  test_call(0);
  test_call(1);
  return test_end(fds);
}
