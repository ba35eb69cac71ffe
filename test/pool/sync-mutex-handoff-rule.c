// The rule that decides between a CES hand-off and a release
// (pool_sync.c, "Barging or hand-off"), with every worker busy, in both
// pool modes. A holder locks a CES mutex on one worker and lets a waiter
// queue on it; a "busy" coroutine then keeps the other worker running
// (it never parks until told to), and the holder unlocks:
//   - far: the waiter parked on the other worker (its stack is there):
//     the unlock releases the mutex and wakes the waiter to compete, and
//     the holder goes on without switching; the waiter has not run when
//     the unlock returns, and cannot until a worker is free;
//   - near: the waiter parked on the holder's worker: the unlock runs it
//     in place, so it has taken the mutex by the time the unlock returns.
// With an idle worker instead of the busy one, a hand-off to a waiter
// parked elsewhere pays (sync-ces-inplace.c). A round in which the waiter
// called lock over 0.5 ms before the unlock (the holder slow to see it
// queued, or the busy coroutine slow to start, on a loaded machine) is run
// again, up to 100 times: the waiter may have starved, and a starving mutex
// hands over in place (at load 17 on 2 CPUs, 1 run in 400 had 20 such
// rounds in a row, 8 to 60 ms each). With the old rule (any waiter of a
// migrating pool run in place) "far" printed 1. Under 1 s.
//
// Each wait of the test's own for the other worker's thread yields the CPU
// (sched_yield): the workers may share one CPU (`taskset -c 0`, a loaded
// machine). Polled back to back, the mutex's spin lock is free only
// between a release and the next exchange, so a preempted holder almost
// always held it and the waiter, spinning for it on the same CPU, never
// queued (a livelock under `taskset -c 0`, as sync-mutex-starve-pool.c
// had). The busy coroutine yields the CPU, not its worker: it still never
// parks.
//
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t.pinned
// RUN: %t.pinned 2>&1 | FileCheck %s
//
// CHECK: far: other worker 1, waiter ran before the unlock returned 0
// CHECK-NEXT: near: same worker 1, waiter ran before the unlock returned 1
#include "psync.h"

static cacs_pool_mutex mu = CACS_POOL_MUTEX_INIT;
static int got, waiter_worker;
// When the waiter called lock: it has waited at most since then.
static uint64_t lock_ns;
// A round's outcome, and whether the waiter waited so long before the
// unlock (the holder or the busy worker slow, on a loaded machine) that it
// may have made the mutex starve (pool_sync.c's STARVE_NS, 1 ms), which
// hands over in place: then the round is run again.
static int other, ran, slow;

static void waiter(void *arg) {
  (void)arg;
  __atomic_store_n(&waiter_worker, h_worker(), __ATOMIC_RELAXED);
  __atomic_store_n(&lock_ns, h_now_ns(), __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
  __atomic_store_n(&got, 1, __ATOMIC_RELEASE);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

static void start_busy(void) {
  h_spawn(h_busy, NULL);
  while (!__atomic_load_n(&h_busy_started, __ATOMIC_ACQUIRE))
    sched_yield();
}

// The holder's unlock, the waiter queued, and what it saw.
static void unlock_and_see(void) {
  int me = h_worker();
  slow = h_now_ns() - __atomic_load_n(&lock_ns, __ATOMIC_RELAXED) > 500000;
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  ran = __atomic_load_n(&got, __ATOMIC_ACQUIRE);
  other = __atomic_load_n(&waiter_worker, __ATOMIC_RELAXED) != me;
  __atomic_store_n(&h_busy_done, 1, __ATOMIC_RELEASE);
}

// The waiter starts on the other worker (idle), the busy one after it.
static void far(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
  h_spawn(waiter, NULL);
  while (!h_mutex_waiters(&mu))
    sched_yield();
  start_busy();
  unlock_and_see();
}

// The busy one takes the other worker first; the waiter, left to this
// worker, runs when the holder yields, and parks here.
static void near(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
  start_busy();
  h_spawn(waiter, NULL);
  while (!h_mutex_waiters(&mu))
    h_yield();
  unlock_and_see();
}

static void round_of(void (*holder)(void *), const char *name) {
  int tries = 0;
  do {
    h_busy_started = h_busy_done = got = 0;
    h_spawn(holder, NULL);
    h_join_all();
  } while (slow && ++tries < 100);
  fprintf(stderr, "%s: %d slow rounds\n", name, tries);
  printf("%s: %s worker %d, waiter ran before the unlock returned %d\n", name,
         holder == far ? "other" : "same", holder == far ? other : !other, ran);
}

int main(void) {
  h_watchdog(60);
  h_start(2);
  round_of(far, "far");
  round_of(near, "near");
  h_stop();
  return 0;
}
