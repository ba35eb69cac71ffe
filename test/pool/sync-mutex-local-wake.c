// Which waiter a contended unlock wakes to compete, or, the mutex
// starving, hands it to (pool_sync.c, "Barging or hand-off"), with every
// worker busy, in both pool modes. A holder locks
// a CES mutex on one worker; a waiter (`far`) queues first, parked on the
// other worker, and a second (`near`) behind it, parked on the holder's
// worker; a "busy" coroutine then keeps the other worker running (it never
// parks until told to), and the holder unlocks. Neither waiter's hand-off
// pays for the head (`far`, whose stack is on the other worker), so the
// mutex is released and one waiter woken to compete: `near`, the first
// waiter on the releasing worker, which runs there once the holder yields,
// so the mutex stays on this worker; `far` stays queued until `near`
// unlocks. So `near` takes the mutex first. With the old rule (the head
// woken: `far`, which then took the mutex, in a default pool once the busy
// coroutine stopped, with migration on the holder's worker) it printed
// "far". A round in which `far` called lock over 0.5 ms before the unlock
// (the holder or the busy coroutine slow to start on a loaded machine) is
// run again, up to 100 times: `far` may have starved, and a mutex starving
// that long may hand over to the head (sync-mutex-handoff-rule.c does the
// same). Under 1 s each.
//
// With H_STARVE, the holder keeps the mutex until `far` has waited over
// 1 ms (STARVE_NS) before it unlocks: that unlock finds the head starving
// and the mutex turns to strict hand-over, newcomers queueing. The head
// has waited under 2 ms (STRICT_NS), so the waiters of the releasing
// worker go first: `near` is handed the mutex and runs in place, `far`
// gets it from `near`'s unlock. So `near` takes it first here too. With
// the old rule (a starving mutex hands over to the head alone) it printed
// "far": `far` was handed the mutex and ran once the busy coroutine
// stopped (default pool) or on the holder's worker (migration). A slow
// round there is one in which `far` called lock over 1.95 ms before the
// unlock (it may have waited 2 ms, and then it is served first).
//
// Each wait of the test's own for the other worker's thread yields the CPU
// (sched_yield): the workers may share one CPU (sync-mutex-handoff-rule.c
// says why).
//
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s \
// RUN:   %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include \
// RUN:   -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t.pinned
// RUN: %t.pinned 2>&1 | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -DH_STARVE=1 -I%cacs_include \
// RUN:   -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t.starve
// RUN: %t.starve 2>&1 | FileCheck %s
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -DH_STARVE=1 \
// RUN:   -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread \
// RUN:   -o %t.starve.pinned
// RUN: %t.starve.pinned 2>&1 | FileCheck %s
//
// CHECK: set up: far on the other worker 1, near on the holder's 1
// CHECK-NEXT: first to take the mutex after the unlock: near
#include "psync.h"

#ifndef H_STARVE
#define H_STARVE 0
#endif

static cacs_pool_mutex mu;
static int far_worker, near_worker, first;
// When `far` called lock (it has waited at most since then), and when it
// was seen queued (it has waited at least since then).
static uint64_t far_lock_ns, far_queued_ns;
static int slow, holder_worker;

enum { FAR = 1, NEAR = 2 };

static void waiter(void *arg) {
  int who = (int)(intptr_t)arg;
  if (who == FAR) {
    __atomic_store_n(&far_worker, h_worker(), __ATOMIC_RELAXED);
    __atomic_store_n(&far_lock_ns, h_now_ns(), __ATOMIC_RELAXED);
  } else {
    __atomic_store_n(&near_worker, h_worker(), __ATOMIC_RELAXED);
  }
  H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
  int none = 0;
  __atomic_compare_exchange_n(&first, &none, who, 0, __ATOMIC_RELAXED,
                              __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

static void holder(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
  // `far` on the other worker, idle: this one polls without switching.
  h_spawn(waiter, (void *)(intptr_t)FAR);
  while (h_mutex_waiters(&mu) < 1)
    sched_yield();
  far_queued_ns = h_now_ns();
  // The busy one takes the other worker; `near`, left to this worker,
  // runs when the holder yields, and parks here.
  h_spawn(h_busy, NULL);
  while (!__atomic_load_n(&h_busy_started, __ATOMIC_ACQUIRE))
    sched_yield();
  h_spawn(waiter, (void *)(intptr_t)NEAR);
  while (h_mutex_waiters(&mu) < 2)
    h_yield();
  // H_STARVE: `far` starves, queued over 1 ms ago.
  while (H_STARVE && h_now_ns() - far_queued_ns < 1050000)
    sched_yield();
  holder_worker = h_worker();
  slow = h_now_ns() - __atomic_load_n(&far_lock_ns, __ATOMIC_RELAXED) >
         (H_STARVE ? 1950000 : 500000);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  // The waiter woken runs once this worker is free (or, the old rule in a
  // default pool, once the busy one stops).
  for (int i = 0; i < 1000 && !__atomic_load_n(&first, __ATOMIC_RELAXED); ++i)
    h_yield();
  __atomic_store_n(&h_busy_done, 1, __ATOMIC_RELEASE);
}

int main(void) {
  h_watchdog(60);
  h_start(2);
  int tries = 0;
  do {
    H_CHECK(cacs_pool_mutex_init(&mu, CACS_POOL_LOCK_CES) == 0);
    h_busy_started = h_busy_done = first = 0;
    h_spawn(holder, NULL);
    h_join_all();
  } while (slow && ++tries < 100);
  fprintf(stderr, "local-wake: %d slow rounds\n", tries);
  printf("set up: far on the other worker %d, near on the holder's %d\n",
         far_worker != holder_worker, near_worker == holder_worker);
  printf("first to take the mutex after the unlock: %s\n",
         first == NEAR  ? "near"
         : first == FAR ? "far"
                        : "none");
  h_stop();
  return 0;
}
