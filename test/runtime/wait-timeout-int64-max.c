// A timeout of INT64_MAX microseconds (some 292,000 years; a "no limit"
// that programs pass) waits until the event, on every waiting call: the
// core's, cacs/sync.h's and the I/O module's. The deadline, now + timeout
// in nanoseconds, used to wrap around into the past, so each of these
// calls gave up at once (ETIMEDOUT; cacs_sleep returned 0).
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

static void report(const char *what, long long r, long long t0) {
  long long waited = now_us() - t0;
  printf("%s: %lld%s, %s\n", what, r, r == -1 && errno == EINTR ? " EINTR" : "",
         waited >= DELAY_US / 2 ? "woken" : "returned at once");
  EXPECT(waited >= DELAY_US / 2);
}

static void waiter(void *arg) {
  (void)arg;
  long long t0 = now_us();
  report("cacs_park_timeout", cacs_park_timeout(INT64_MAX), t0);
  t0 = now_us();
  report("cacs_sleep", cacs_sleep(INT64_MAX), t0);
  t0 = now_us();
  report("cacs_mutex_lock", cacs_mutex_lock(&mu, INT64_MAX), t0);
  cacs_mutex_unlock(&mu);
  cacs_mutex_lock(&mu, CACS_FOREVER);
  t0 = now_us();
  report("cacs_cond_wait", cacs_cond_wait(&cv, &mu, INT64_MAX), t0);
  cacs_mutex_unlock(&mu);
  t0 = now_us();
  report("cacs_sem_wait", cacs_sem_wait(&sem, INT64_MAX), t0);
  t0 = now_us();
  report("cacs_waitgroup_wait", cacs_waitgroup_wait(&wg, INT64_MAX), t0);
  int v;
  t0 = now_us();
  report("cacs_chan_recv", cacs_chan_recv(ch, &v, INT64_MAX), t0);
  t0 = now_us();
  report("cacs_chan_send", cacs_chan_send(ch, &v, INT64_MAX), t0);
  t0 = now_us();
  report("cacs_xsem_wait", cacs_xsem_wait(&xs, INT64_MAX), t0);
  char c;
  t0 = now_us();
  report("cacs_read", cacs_read(sv[0], &c, 1, INT64_MAX), t0);
  t0 = now_us();
  report("cacs_wait_fd", cacs_wait_fd(sv[0], EPOLLIN, INT64_MAX), t0);
}

// Each event DELAY_US after the waiter started its wait.
static void helper(void *arg) {
  (void)arg;
  cacs_sleep(DELAY_US);
  cacs_wake(waiter_co); // park_timeout
  cacs_sleep(DELAY_US);
  cacs_wake(waiter_co); // sleep
  cacs_mutex_lock(&mu, CACS_FOREVER);
  cacs_sleep(DELAY_US);
  cacs_mutex_unlock(&mu);
  cacs_sleep(DELAY_US);
  cacs_mutex_lock(&mu, CACS_FOREVER);
  cacs_cond_signal(&cv);
  cacs_mutex_unlock(&mu);
  cacs_sleep(DELAY_US);
  cacs_sem_post(&sem);
  cacs_sleep(DELAY_US);
  cacs_waitgroup_done(&wg);
  int v = 1;
  cacs_sleep(DELAY_US);
  EXPECT(cacs_chan_send(ch, &v, CACS_FOREVER) == 0);
  cacs_sleep(DELAY_US);
  EXPECT(cacs_chan_recv(ch, &v, CACS_FOREVER) == 0);
  cacs_sleep(DELAY_US);
  cacs_xsem_post(&xs);
  cacs_sleep(DELAY_US);
  EXPECT(write(sv[1], "x", 1) == 1);
  cacs_sleep(DELAY_US);
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
