// cacs_waitgroup: waiters return only when every worker is done (several
// waiters at once), a wait on a zero counter returns at once, a timeout
// fires while work is left, and a counter below zero aborts.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: not --crash %t2 negative 2>&1 | FileCheck --check-prefix=NEG %s
//
// CHECK: workers: 3 waiters saw 10 of 10 done ok
// CHECK-NEXT: zero: no wait ok
// CHECK-NEXT: timeout: ETIMEDOUT with 1 left, then 0 ok
// CHECK-NEXT: PASS
// NEG: cacs: wait group counter below 0

#include "Inputs/sync-test.h"
#include "cacs/sync.h"

#include <errno.h>
#include <string.h>

static cacs_waitgroup wg = CACS_WAITGROUP_INIT;
enum { NWORK = 10, NWAITERS = 3 };
static int finished, saw[NWAITERS];

static void worker(void *arg) {
  long k = (long)arg;
  if (k % 2)
    cacs_sleep(100 * k);
  else
    for (long i = 0; i < k; i++)
      cacs_yield();
  finished++;
  cacs_waitgroup_done(&wg);
}

static void waiter(void *arg) {
  long k = (long)arg;
  EXPECT(cacs_waitgroup_wait(&wg, CACS_FOREVER) == 0);
  saw[k] = finished;
}

static void test_workers(void) {
  cacs_coro *c[NWORK + NWAITERS];
  cacs_waitgroup_add(&wg, NWORK);
  for (long i = 0; i < NWAITERS; i++)
    c[NWORK + i] = cacs_create(waiter, (void *)i, 0);
  for (long i = 0; i < NWORK; i++)
    c[i] = cacs_create(worker, (void *)(NWORK - i), 0);
  EXPECT(cacs_waitgroup_wait(&wg, CACS_FOREVER) == 0);
  EXPECT(finished == NWORK);
  for (int i = 0; i < NWORK + NWAITERS; i++)
    cacs_join(c[i]);
  int all = 1;
  for (int i = 0; i < NWAITERS; i++)
    all &= saw[i] == NWORK;
  EXPECT(all);
  printf("workers: %d waiters saw %d of %d done %s\n", NWAITERS, saw[0], NWORK,
         OK);
}

static void test_zero(void) {
  long long t0 = now_us();
  EXPECT(cacs_waitgroup_wait(&wg, CACS_FOREVER) == 0);
  EXPECT(cacs_waitgroup_wait(&wg, 0) == 0);
  EXPECT(now_us() - t0 < 100000);
  printf("zero: no wait %s\n", OK);
}

static void one_worker(void *arg) {
  (void)arg;
  cacs_sleep(20000);
  cacs_waitgroup_done(&wg);
}

static void test_timeout(void) {
  cacs_waitgroup_add(&wg, 1);
  cacs_coro *c = cacs_create(one_worker, NULL, 0);
  long long t0 = now_us();
  EXPECT(err_of(cacs_waitgroup_wait(&wg, 0)) == ETIMEDOUT);
  EXPECT(err_of(cacs_waitgroup_wait(&wg, 3000)) == ETIMEDOUT);
  EXPECT(now_us() - t0 >= 3000 && wg.count == 1);
  EXPECT(cacs_waitgroup_wait(&wg, 10 * 1000 * 1000) == 0);
  EXPECT(now_us() - t0 < 1000000);
  cacs_join(c);
  printf("timeout: ETIMEDOUT with 1 left, then %lld %s\n", (long long)wg.count,
         OK);
}

int main(int argc, char **argv) {
  test_start(30);
  if (argc > 1 && strcmp(argv[1], "negative") == 0) {
    cacs_waitgroup_add(&wg, 1);
    cacs_waitgroup_done(&wg);
    cacs_waitgroup_done(&wg); // aborts
    return 0;
  }
  test_workers();
  test_zero();
  test_timeout();
  EXPECT(cacs_count() == 0);
  return test_end();
}
