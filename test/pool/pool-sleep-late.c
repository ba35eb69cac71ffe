// Sleeps whose deadlines pass while their worker is busy expire in one
// pass of the worker's loop, and their coroutines run in deadline order,
// as sleeps that expire one by one do (pool_timer.c, cacs__ptimer_expire).
// On one worker, four coroutines sleep 10, 20, 30 and 40 ms, started in
// that order (so their deadlines are in that order whatever the load);
// then a fifth runs without yielding until the last deadline has passed:
// the loop finds all four expired at once. The old expiry woke them
// last-deadline-first (it listed them by pushing on a stack), and a
// default pool's worker runs woken coroutines first in, first out: they
// ran 40 30 20 10. No timing can fail it: the busy coroutine waits for
// the clock to pass the deadlines, however long that takes.
//
// RUN: %clang -O2 -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread \
// RUN:   -o %t
// RUN: %t | FileCheck %s
// RUN: %clang -O2 -DMIGRATE -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 \
// RUN:   -lpthread -o %t.m
// RUN: %t.m | FileCheck %s
//
// CHECK: woke: 10 20 30 40
// CHECK-NEXT: busy past the last deadline: yes

#include "cacs/pool.h"
#include "ptest.h"

#include <stdatomic.h>

#define SLEEPERS 4

static atomic_int asleep, n;
static int order[SLEEPERS];
static _Atomic uint64_t last_deadline; // ns
static int busy_past;

static void sleeper(void *arg) {
  int ms = (int)(long)arg;
  uint64_t d = h_now_ns() + ms * 1000000u;
  if (d > atomic_load(&last_deadline))
    atomic_store(&last_deadline, d);
  atomic_fetch_add(&asleep, 1);
  cacs_pool_sleep(ms * 1000);
  order[atomic_fetch_add(&n, 1)] = ms;
}

// Runs once every sleeper is parked, and keeps the worker until every
// deadline has passed (a margin of 2 ms over the latest).
static void busy(void *arg) {
  (void)arg;
  while (atomic_load(&asleep) < SLEEPERS)
    cacs_pool_yield();
  uint64_t until = atomic_load(&last_deadline) + 2000000u;
  while (h_now_ns() < until) {
  }
  busy_past = h_now_ns() >= until;
}

int main(void) {
#ifdef MIGRATE
  cacs_pool_attr a = {.workers = 1, .migrate = CACS_POOL_MIGRATE_RUNNING};
  cacs_pool *p = cacs_pool_create_ex(&a);
#else
  cacs_pool *p = cacs_pool_create(1);
#endif
  cacs_pool_task *t[SLEEPERS + 1];
  for (int i = 0; i < SLEEPERS; ++i)
    t[i] = cacs_pool_spawn(p, sleeper, (void *)(long)(10 * (i + 1)));
  t[SLEEPERS] = cacs_pool_spawn(p, busy, NULL);
  for (int i = 0; i <= SLEEPERS; ++i)
    cacs_pool_join(t[i]);
  cacs_pool_destroy(p);
  printf("woke:");
  for (int i = 0; i < atomic_load(&n); ++i)
    printf(" %d", order[i]);
  printf("\nbusy past the last deadline: %s\n", busy_past ? "yes" : "no");
  return 0;
}
