// A timeout of INT64_MAX microseconds (some 292,000 years; a "no limit"
// that programs pass) waits until the event, on every waiting call: the
// core's, cacs/sync.h's and the I/O module's. The deadline, now + timeout
// in nanoseconds, used to wrap around into the past, so each of these
// calls gave up at once (ETIMEDOUT; cacs_sleep returned 0).
//
// "woken" is told by order, not by the clock: the helper counts each event
// just before it makes it, and a wait that gave up before its event sees
// the count short. (Comparing wall-clock waits with the helper's sleeps
// failed under load, when the waiter was descheduled for a few ms.)
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t2 && %t2 | FileCheck %s
//
// CHECK: cacs_park_timeout: 0, woken
// CHECK-NEXT: cacs_sleep: -1 EINTR, woken
// CHECK-NEXT: cacs_mutex_lock: 0, woken
// CHECK-NEXT: cacs_cond_wait: 0, woken
// CHECK-NEXT: cacs_sem_wait: 0, woken
// CHECK-NEXT: cacs_waitgroup_wait: 0, woken
// CHECK-NEXT: cacs_chan_recv: 0, woken
// CHECK-NEXT: cacs_chan_send: 0, woken
// CHECK-NEXT: cacs_xsem_wait: 0, woken
// CHECK-NEXT: cacs_read: 1, woken
// CHECK-NEXT: cacs_wait_fd: 0, woken
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"
#include "cacs/sync.h"

#include <stdint.h>

enum { DELAY_US = 20 * 1000 };

static cacs_coro *waiter_co;
static cacs_mutex mu = CACS_MUTEX_INIT;
static cacs_cond cv = CACS_COND_INIT;
static cacs_sem sem = CACS_SEM_INIT(0);
static cacs_waitgroup wg = CACS_WAITGROUP_INIT;
static cacs_xsem xs;
static cacs_chan *ch;
static int sv[2];

// How many events the helper has made so far (a single thread: no race).
static int events;

static void report(const char *what, long long r, int event) {
  printf("%s: %lld%s, %s\n", what, r, r == -1 && errno == EINTR ? " EINTR" : "",
         events == event ? "woken" : "returned at once");
  EXPECT(events == event);
}

static void waiter(void *arg) {
  (void)arg;
  report("cacs_park_timeout", cacs_park_timeout(INT64_MAX), 1);
  report("cacs_sleep", cacs_sleep(INT64_MAX), 2);
  report("cacs_mutex_lock", cacs_mutex_lock(&mu, INT64_MAX), 3);
  cacs_mutex_unlock(&mu);
  cacs_mutex_lock(&mu, CACS_FOREVER);
  report("cacs_cond_wait", cacs_cond_wait(&cv, &mu, INT64_MAX), 4);
  cacs_mutex_unlock(&mu);
  report("cacs_sem_wait", cacs_sem_wait(&sem, INT64_MAX), 5);
  report("cacs_waitgroup_wait", cacs_waitgroup_wait(&wg, INT64_MAX), 6);
  int v;
  report("cacs_chan_recv", cacs_chan_recv(ch, &v, INT64_MAX), 7);
  report("cacs_chan_send", cacs_chan_send(ch, &v, INT64_MAX), 8);
  report("cacs_xsem_wait", cacs_xsem_wait(&xs, INT64_MAX), 9);
  char c;
  report("cacs_read", cacs_read(sv[0], &c, 1, INT64_MAX), 10);
  report("cacs_wait_fd", cacs_wait_fd(sv[0], EPOLLIN, INT64_MAX), 11);
}

// Each event DELAY_US after the waiter started its wait (time for a wait
// that gives up at once to do so first), counted just before it is made.
static void helper(void *arg) {
  (void)arg;
  cacs_sleep(DELAY_US);
  events = 1;
  cacs_wake(waiter_co); // park_timeout
  cacs_sleep(DELAY_US);
  events = 2;
  cacs_wake(waiter_co); // sleep
  cacs_mutex_lock(&mu, CACS_FOREVER);
  cacs_sleep(DELAY_US);
  events = 3;
  cacs_mutex_unlock(&mu);
  cacs_sleep(DELAY_US);
  cacs_mutex_lock(&mu, CACS_FOREVER);
  events = 4;
  cacs_cond_signal(&cv);
  cacs_mutex_unlock(&mu);
  cacs_sleep(DELAY_US);
  events = 5;
  cacs_sem_post(&sem);
  cacs_sleep(DELAY_US);
  events = 6;
  cacs_waitgroup_done(&wg);
  int v = 1;
  cacs_sleep(DELAY_US);
  events = 7;
  EXPECT(cacs_chan_send(ch, &v, CACS_FOREVER) == 0);
  cacs_sleep(DELAY_US);
  events = 8;
  EXPECT(cacs_chan_recv(ch, &v, CACS_FOREVER) == 0);
  cacs_sleep(DELAY_US);
  events = 9;
  cacs_xsem_post(&xs);
  cacs_sleep(DELAY_US);
  events = 10;
  EXPECT(write(sv[1], "x", 1) == 1);
  cacs_sleep(DELAY_US);
  events = 11;
  EXPECT(write(sv[1], "y", 1) == 1);
}

int main(void) {
  int fds = test_begin(60);
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  EXPECT(cacs_xsem_init(&xs, 0) == 0);
  ch = cacs_chan_create(sizeof(int), 0, 0);
  cacs_waitgroup_add(&wg, 1);
  waiter_co = cacs_create(waiter, NULL, 0);
  cacs_coro *h = cacs_create(helper, NULL, 0);
  cacs_join(waiter_co);
  cacs_join(h);
  EXPECT(cacs_chan_destroy(ch) == 0);
  cacs_xsem_destroy(&xs);
  cacs_close(sv[0]);
  cacs_close(sv[1]);
  return test_end(fds);
}
