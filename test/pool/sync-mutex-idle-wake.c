// A worker never idles behind a waiter that cannot run (pool_sync.c,
// "Barging or hand-off"): in a default pool, a contended unlock that finds
// another worker idle wakes a waiter homed there to compete, before one
// homed on the releasing worker. A holder locks a CES mutex on one worker;
// a waiter (`far`) queues, parked on the other worker; a busy coroutine
// takes that worker while a second waiter (`near`) queues, parked on the
// holder's worker; the busy one ends, and `far`'s worker idles. The holder
// unlocks and keeps its worker (it waits for `far`, yielding the CPU, for
// up to 200 ms), as a running coroutine that keeps taking the mutex does
// (issue 37's counter shape at 4 tasks). With the old rule the unlock woke
// `near`, which cannot run while the holder runs, and `far` stayed parked,
// its worker idle (printed "... kept its worker: 0"); now `far` is woken,
// runs at once on its idle worker and takes the mutex. A round in which
// `far` queued over 0.5 ms before the unlock (it may have starved: a
// starving mutex hands over in order), or the busy coroutine ran elsewhere,
// is run again, up to 100 times (sync-mutex-local-wake.c does the same).
// Each wait of the test's own for the other worker's thread yields the CPU
// (sched_yield): the workers may share one CPU. Under 1 s.
//
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include \
// RUN:   -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
//
// CHECK: set up: far on the other worker 1, near on the holder's 1
// CHECK-NEXT: far took the mutex while the holder kept its worker: 1
#include "psync.h"

enum { FAR = 1, NEAR = 2 };
#define WAIT_NS 200000000ull // how long the holder waits for `far`

static cacs_pool_mutex mu;
static int far_worker, near_worker, holder_worker, busy_worker, busy_out;
static int far_took, far_won, slow;
static uint64_t far_queued_ns;

static void waiter(void *arg) {
  int who = (int)(intptr_t)arg;
  if (who == FAR) {
    __atomic_store_n(&far_worker, h_worker(), __ATOMIC_RELAXED);
    __atomic_store_n(&far_queued_ns, h_now_ns(), __ATOMIC_RELAXED);
  } else {
    __atomic_store_n(&near_worker, h_worker(), __ATOMIC_RELAXED);
  }
  H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
  if (who == FAR)
    __atomic_store_n(&far_took, 1, __ATOMIC_RELEASE);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

static void busy(void *arg) {
  __atomic_store_n(&busy_worker, h_worker(), __ATOMIC_RELAXED);
  h_busy(arg);
  __atomic_store_n(&busy_out, 1, __ATOMIC_RELEASE);
}

static void holder(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
  // `far` on the other worker, idle: this one polls without switching.
  h_spawn(waiter, (void *)(intptr_t)FAR);
  while (h_mutex_waiters(&mu) < 1)
    sched_yield();
  // The busy one takes the other worker; `near`, left to this worker,
  // runs when the holder yields, and parks here.
  h_spawn(busy, NULL);
  while (!__atomic_load_n(&h_busy_started, __ATOMIC_ACQUIRE))
    sched_yield();
  h_spawn(waiter, (void *)(intptr_t)NEAR);
  while (h_mutex_waiters(&mu) < 2)
    h_yield();
  // The busy one ends: `far`'s worker has nothing left to run.
  __atomic_store_n(&h_busy_done, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&busy_out, __ATOMIC_ACQUIRE))
    sched_yield();
  holder_worker = h_worker();
  uint64_t t0 = h_now_ns();
  slow = t0 - __atomic_load_n(&far_queued_ns, __ATOMIC_RELAXED) > 500000;
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  // The holder keeps its worker (it yields the CPU, not the worker), so
  // `near` cannot run: only `far` may take the mutex meanwhile.
  while (!__atomic_load_n(&far_took, __ATOMIC_ACQUIRE) &&
         h_now_ns() - t0 < WAIT_NS)
    sched_yield();
  far_won = __atomic_load_n(&far_took, __ATOMIC_ACQUIRE);
}

int main(void) {
  h_watchdog(60);
  h_start(2);
  int tries = 0, won = 0;
  do {
    H_CHECK(cacs_pool_mutex_init(&mu, CACS_POOL_LOCK_CES) == 0);
    h_busy_started = h_busy_done = busy_out = far_took = far_won = 0;
    h_spawn(holder, NULL);
    h_join_all();
    won = far_won;
    slow = slow || busy_worker != far_worker;
  } while (slow && ++tries < 100);
  fprintf(stderr, "idle-wake: %d slow rounds\n", tries);
  printf("set up: far on the other worker %d, near on the holder's %d\n",
         far_worker != holder_worker, near_worker == holder_worker);
  printf("far took the mutex while the holder kept its worker: %d\n", won);
  h_stop();
  return 0;
}
