// A running coroutine's lock does not take a mutex kept for its starving
// woken waiter: the slow path leaves a mutex marked M_STARVING to that
// waiter alone, and a fast path that barges past waiters' flags (M_QUEUED,
// M_WOKEN, spinners) must stop there too (bench/results/locks/fast-49: a
// candidate whose lock barged with a second compare-and-swap; with that
// CAS ignoring M_STARVING, this test failed, and so it does with the slow
// path's m_free_for ignoring M_STARVING: 2,286 locks past, rwlock 965).
// In a default pool a holder keeps its worker; a waiter queues, parked on
// the other one, and a task keeps that worker busy, so that the
// holder's unlock wakes the waiter to compete (M_WOKEN) and it cannot run
// yet. The holder then locks and unlocks on and on, as a running
// coroutine does: every PASS_LOOK-th unlock looks at how long the woken
// waiter has waited and, past 1 ms (STARVE_NS), marks the mutex starving.
// From then on each of the holder's locks must wait for the waiter: the
// holder reads the state before each lock and counts the locks it got,
// having seen M_STARVING, before the waiter had the mutex. The main
// thread ends the busy task 10 ms after the holder saw the mark, and the
// waiter runs. With the fast lock's second compare-and-swap ignoring
// M_STARVING, the holder took it thousands of times in those 10 ms
// (35,876-170,068; rwlock writers 40,282-68,317).
// (On a loaded machine the waiter may have waited past 1 ms by the first
// unlock, which then hands it the mutex instead of waking it: the attempt
// is repeated, up to ATTEMPTS times; if none lines up, only "locks past"
// and "all took it" are checked, and the set-up line says so.)
//
// With H_RW, the same with writers of a reader-writer lock, whose write
// lock shares the fast path on its writers' mutex.
//
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include \
// RUN:   -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -DH_RW \
// RUN:   -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t.rw
// RUN: %t.rw 2>&1 | FileCheck %s
//
// CHECK: set up: waiter on the other worker 1, lined up {{yes|no}}
// CHECK-NEXT: locks past the starving waiter: 0
// CHECK-NEXT: all took it: 1
#include "psync.h"

#define ATTEMPTS 100

// pool_sync.c's state bits (white box).
enum { M_STARVING = 4u, M_WOKEN = 8u };

#ifdef H_RW
static cacs_pool_rwlock rw = CACS_POOL_RWLOCK_INIT;
#define LOCK() H_CHECK(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER) == 0)
#define UNLOCK() H_CHECK(cacs_pool_rwlock_wrunlock(&rw) == 0)
#define MU (&rw.wmu)
#else
static cacs_pool_mutex mu = CACS_POOL_MUTEX_INIT;
#define LOCK() H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0)
#define UNLOCK() H_CHECK(cacs_pool_mutex_unlock(&mu) == 0)
#define MU (&mu)
#endif

static int waiter_worker, waiter_got, lined_up, others_worker = 1, done;
static long barged, relocks;
// When the holder first saw M_STARVING in an attempt (0: not yet).
static uint64_t starve_seen_ns;

static uint32_t state(void) {
  return __atomic_load_n(&MU->state, __ATOMIC_RELAXED);
}

static void waiter(void *arg) {
  (void)arg;
  __atomic_store_n(&waiter_worker, h_worker(), __ATOMIC_RELAXED);
  LOCK();
  __atomic_store_n(&waiter_got, 1, __ATOMIC_RELEASE);
  UNLOCK();
}

// A task that keeps its worker busy, never parking (psync.h's h_busy,
// which also says when it has ended).
static int busy_started, busy_done, busy_ended;
static void busy(void *arg) {
  (void)arg;
  __atomic_store_n(&busy_started, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&busy_done, __ATOMIC_ACQUIRE))
    sched_yield();
  __atomic_store_n(&busy_ended, 1, __ATOMIC_RELEASE);
}

static void end_busy(void) {
  __atomic_store_n(&busy_done, 1, __ATOMIC_RELEASE);
}

// One attempt; returns whether the unlock woke the waiter to compete.
static int attempt(void) {
  LOCK();
  int me = h_worker();
  __atomic_store_n(&waiter_got, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&starve_seen_ns, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&busy_started, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&busy_ended, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&busy_done, 0, __ATOMIC_RELAXED);
  // The holder never switches out: the waiter runs on the other worker,
  // queues and parks there, and the busy task then takes that worker.
  h_spawn(waiter, NULL);
  while (h_mutex_waiters(MU) < 1)
    sched_yield();
  h_spawn(busy, NULL);
  while (!__atomic_load_n(&busy_started, __ATOMIC_ACQUIRE))
    sched_yield();
  others_worker &= __atomic_load_n(&waiter_worker, __ATOMIC_RELAXED) != me;
  UNLOCK();
  int woken =
      (state() & M_WOKEN) && !__atomic_load_n(&waiter_got, __ATOMIC_ACQUIRE);
  // Lock and unlock until the waiter has had the mutex. Not lined up, the
  // busy task ends at once; lined up, the main thread ends it 10 ms after
  // the mark, or the holder 1 s after the unlock if no mark came.
  if (!woken)
    end_busy();
  uint64_t t0 = h_now_ns();
  while (!__atomic_load_n(&waiter_got, __ATOMIC_ACQUIRE)) {
    int starving = (state() & M_STARVING) != 0;
    if (woken && starving &&
        !__atomic_load_n(&starve_seen_ns, __ATOMIC_RELAXED))
      __atomic_store_n(&starve_seen_ns, h_now_ns(), __ATOMIC_RELEASE);
    if (h_now_ns() - t0 > 1000000000u)
      end_busy();
    LOCK();
    if (woken && starving && !__atomic_load_n(&waiter_got, __ATOMIC_ACQUIRE))
      ++barged;
    ++relocks;
    UNLOCK();
  }
  return woken;
}

static void holder(void *arg) {
  (void)arg;
  for (int i = 0; i < ATTEMPTS && !lined_up; ++i) {
    lined_up = attempt();
    end_busy(); // and wait for it to end before the next attempt
    while (!__atomic_load_n(&busy_ended, __ATOMIC_ACQUIRE))
      sched_yield();
  }
  __atomic_store_n(&done, 1, __ATOMIC_RELEASE);
}

int main(void) {
  h_watchdog(60);
  h_start(2);
  h_spawn(holder, NULL);
  // The busy task's end, 10 ms after the holder saw the mark.
  while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE)) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
    uint64_t seen = __atomic_load_n(&starve_seen_ns, __ATOMIC_ACQUIRE);
    if (seen && h_now_ns() - seen > 10000000u)
      end_busy();
  }
  end_busy();
  h_join_all();
  fprintf(stderr, "relocks %ld\n", relocks);
  printf("set up: waiter on the other worker %d, lined up %s\n", others_worker,
         lined_up ? "yes" : "no (the load)");
  printf("locks past the starving waiter: %ld\n", barged);
  printf("all took it: %d\n", __atomic_load_n(&waiter_got, __ATOMIC_RELAXED));
  h_stop();
  return 0;
}
