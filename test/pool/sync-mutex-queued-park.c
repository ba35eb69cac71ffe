// When a locker spins in a default pool (pool_sync.c, "Barging or
// hand-off"): only while the holder runs on another worker (a holder of
// the locker's own worker cannot free it meanwhile), and only while nobody
// is queued (an unlock cannot run a waiter of another worker in place,
// and a spinner of the other worker that wins would move the mutex there
// at each critical section).
// A holder locks a CES mutex on one worker; a locker (`far`) takes the
// other worker and keeps it (it waits for a flag without parking); a
// waiter (`near`) queues, parked on the holder's worker; then `far` locks,
// and the holder keeps the mutex until `far` has queued too. A spin that
// runs out marks the mutex (`spun_out`, white box). `near` finds the
// holder switched out on its own worker: it queues at once; with the old
// rule it spun its 2 us for nothing and marked the mutex ("near spun: 1").
// The holder clears the mark (the old rule's) before `far` locks: with the
// old rule `far` spun its 2 us first, ran out and marked it ("spun with a
// waiter queued: 1"); now it queues at once. (Sampling the state word for the spinner's count
// instead missed the 2 us on a loaded machine.) Under 1 s.
//
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include \
// RUN:   -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
//
// CHECK: set up: far on the other worker 1, near on the holder's 1
// CHECK-NEXT: near spun: 0
// CHECK-NEXT: spun with a waiter queued: 0
// CHECK-NEXT: both took it: 1
#include "psync.h"

static cacs_pool_mutex mu = CACS_POOL_MUTEX_INIT;
static int far_worker, near_worker, holder_worker, far_started, go, took;
static uint32_t near_spun, spun;

static void take(void) {
  H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
  __atomic_fetch_add(&took, 1, __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

static void far(void *arg) {
  (void)arg;
  __atomic_store_n(&far_worker, h_worker(), __ATOMIC_RELAXED);
  __atomic_store_n(&far_started, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
    sched_yield();
  take();
}

static void near(void *arg) {
  (void)arg;
  __atomic_store_n(&near_worker, h_worker(), __ATOMIC_RELAXED);
  take();
}

static void holder(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
  holder_worker = h_worker();
  // `far` to the other worker, idle; `near`, left to this one, runs when
  // the holder yields, and parks here.
  h_spawn(far, NULL);
  while (!__atomic_load_n(&far_started, __ATOMIC_ACQUIRE))
    sched_yield();
  h_spawn(near, NULL);
  while (h_mutex_waiters(&mu) < 1)
    h_yield();
  // The old rule: `near` spun for the holder, which could not run
  // meanwhile, and ran out: lockers would now spin one time in 8. Cleared:
  // `far` may spin.
  near_spun = __atomic_load_n(&mu.spun_out, __ATOMIC_RELAXED);
  __atomic_store_n(&mu.spun_out, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
  while (h_mutex_waiters(&mu) < 2)
    sched_yield();
  spun = __atomic_load_n(&mu.spun_out, __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

int main(void) {
  h_watchdog(60);
  h_start(2);
  h_spawn(holder, NULL);
  h_join_all();
  printf("set up: far on the other worker %d, near on the holder's %d\n",
         far_worker != holder_worker, near_worker == holder_worker);
  printf("near spun: %u\n", near_spun);
  printf("spun with a waiter queued: %u\n", spun);
  printf("both took it: %d\n", took == 2);
  h_stop();
  return 0;
}
