// A barging mutex bounds a waiter's wait. A pool coroutine hogs a CES
// mutex (a lock, 50 us of work, an unlock, again, never parking: the
// mutex is free only for the few instructions between its unlock and its
// next lock) while plain threads lock it now and then and time each lock.
// A waiter woken to compete, or spinning, almost never wins; one that lost
// after waiting more than 1 ms makes every unlock hand the mutex over in
// order (pool_sync.c, "Barging or hand-off"), so no lock waits much longer
// than that plus a thread's wake. The bound checked is 250 ms, far above
// that, since the machine may be loaded (seen at load 22: 75 to 110 ms,
// the waiters' threads waiting for a CPU); without the starvation rule
// (`starving` never set) a waiter waited the hog's whole run (seen: 500 ms
// of a 500 ms run, 2 of 3 runs). The longest wait goes to stderr.
//
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 1 2>&1 | FileCheck %s
// RUN: %t 2 2>&1 | FileCheck %s
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t.pinned
// RUN: %t.pinned 2 2>&1 | FileCheck %s
//
// CHECK: starve: the hog locked it {{[0-9]+}} times, the waiters {{[0-9]+}}
// CHECK-NEXT: starve: every wait under 250 ms: 1
#include "psync.h"

enum { WAITERS = 2, RUN_MS = 1000, BOUND_MS = 250 };

static cacs_pool_mutex mu = CACS_POOL_MUTEX_INIT;
static long hog_locks, waiter_locks;
static int stop;
static uint64_t longest;

static void hog(void *arg) {
  (void)arg;
  uint64_t end = h_now_ns() + RUN_MS * 1000000ull;
  while (h_now_ns() < end) {
    H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
    hog_locks++;
    uint64_t t1 = h_now_ns(); // a long critical section: 50 us
    while (h_now_ns() - t1 < 50000)
      ;
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
}

static void waiter(void *arg) {
  (void)arg;
  while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
    uint64_t t0 = h_now_ns();
    H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
    uint64_t waited = h_now_ns() - t0;
    waiter_locks++;
    if (waited > longest)
      longest = waited;
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
    uint64_t t1 = h_now_ns(); // work outside the lock: 20 us
    while (h_now_ns() - t1 < 20000)
      ;
  }
}

int main(int argc, char **argv) {
  h_start(argc > 1 ? (unsigned)atoi(argv[1]) : 1);
  h_spawn(hog, NULL);
  for (int i = 0; i < WAITERS; ++i)
    h_plain(waiter, NULL);
  h_join_all();
  h_stop();
  fprintf(stderr, "starve: longest wait %.3f ms\n", longest / 1e6);
  printf("starve: the hog locked it %ld times, the waiters %ld\n", hog_locks,
         waiter_locks);
  printf("starve: every wait under %d ms: %d\n", BOUND_MS,
         longest < BOUND_MS * 1000000ull);
  return 0;
}
