// A release that serves several waiters wakes them after dropping the
// object's spin lock (pool_waiter.h, serve_later): a wake may be a futex
// system call, and the kernel may switch to the thread it wakes at once;
// on a CPU shared by two workers the other one then spins for the lock
// while its holder waits to run (issue 37: the rwlock of a default pool
// fell to 30 us per lock pair in 2 runs of 5).
// In a default pool of 2 workers a holder keeps worker A (it never switches
// out) and holds the write lock; three readers queue, parked on worker B;
// once B sleeps (the test's syscall() sees its futex wait), the holder's
// wrunlock grants all three: one runs in place (a vote to B), the other
// two are woken, and B's futex wake is the first such system call. The
// test's syscall() counts the futex wakes the holder's thread makes inside
// the unlock, and those made while the rwlock's spin lock is held (no one
// else takes it meanwhile: the readers wait for the holder's word before
// they unlock). With the old rwlock the readers after the first were
// woken under the lock ("under the spin lock: 1"). The same for a wait
// group's last done() and its waiters. (B may not sleep before the
// unlock on a loaded machine, or wake early: then the unlock makes no
// futex wake and the attempt is repeated, up to ATTEMPTS times; the
// set-up line says whether one lined up.) Counts system calls, not time.
//
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include \
// RUN:   -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -ldl -o %t
// RUN: %t 2>&1 | FileCheck %s
//
// CHECK: rwlock: set up: readers on the other worker 1, lined up {{yes|no}}
// CHECK-NEXT: rwlock: futex wakes under the spin lock: 0
// CHECK-NEXT: rwlock: all read: 1
// CHECK-NEXT: waitgroup: set up: waiters on the other worker 1, lined up {{yes|no}}
// CHECK-NEXT: waitgroup: futex wakes under the spin lock: 0
// CHECK-NEXT: waitgroup: all passed: 1
#include "psync.h"

#include <dlfcn.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ATTEMPTS 200
#define WAITERS 3
// Rounds of sched_yield the holder waits for the other worker to sleep.
#define SLEEP_ROUNDS 100000

static cacs_pool_rwlock rw;
static cacs_pool_waitgroup wg;
static uint32_t *watched_spin; // the spin lock of the object under test
static int holder_tid, other_tid, other_sleeps, watching, wakes, under;
static int holder_worker, others_worker = 1, entered, go_on, left;

// libcacs's futex calls go through syscall(3): this definition takes them
// (the runtime is linked statically into this program).
long syscall(long n, ...) {
  static long (*real)(long, ...);
  if (!real)
    real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
  va_list ap;
  va_start(ap, n);
  long a[6];
  for (int i = 0; i < 6; ++i)
    a[i] = va_arg(ap, long);
  va_end(ap);
  int cmd = n == SYS_futex ? (int)a[1] & FUTEX_CMD_MASK : -1;
  int tid = gettid();
  if ((cmd == FUTEX_WAKE || cmd == FUTEX_WAKE_BITSET) &&
      __atomic_load_n(&watching, __ATOMIC_RELAXED) && tid == holder_tid) {
    __atomic_fetch_add(&wakes, 1, __ATOMIC_RELAXED);
    if (__atomic_load_n(watched_spin, __ATOMIC_RELAXED))
      __atomic_fetch_add(&under, 1, __ATOMIC_RELAXED);
  }
  int sleeps = (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET) &&
               tid == __atomic_load_n(&other_tid, __ATOMIC_RELAXED);
  if (sleeps)
    __atomic_store_n(&other_sleeps, 1, __ATOMIC_RELEASE);
  long r = real(n, a[0], a[1], a[2], a[3], a[4], a[5]);
  if (sleeps)
    __atomic_store_n(&other_sleeps, 0, __ATOMIC_RELEASE);
  return r;
}

// White box: the waiters queued on a spin-locked queue, read under its
// spin lock; a waiter record (pool_waiter.h) starts with its links.
struct links {
  struct links *next, *prev;
};
static int waiters(uint32_t *spin, cacs__pwaitq *q) {
  while (__atomic_exchange_n(spin, 1, __ATOMIC_ACQUIRE))
    ;
  int n = 0;
  for (struct links *w = (struct links *)q->head; w; w = w->next)
    ++n;
  __atomic_store_n(spin, 0, __ATOMIC_RELEASE);
  return n;
}

static void arrived(void) {
  others_worker &= h_worker() != holder_worker;
  __atomic_store_n(&other_tid, gettid(), __ATOMIC_RELAXED);
}

// In, then wait for the holder's word (yielding: B's other waiters run)
// before taking the spin lock again.
static void inside(void) {
  __atomic_fetch_add(&entered, 1, __ATOMIC_RELAXED);
  while (!__atomic_load_n(&go_on, __ATOMIC_ACQUIRE))
    cacs_pool_yield();
}

static void reader(void *arg) {
  (void)arg;
  arrived();
  H_CHECK(cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER) == 0);
  inside();
  H_CHECK(cacs_pool_rwlock_rdunlock(&rw) == 0);
  __atomic_fetch_add(&left, 1, __ATOMIC_RELEASE);
}

static void wg_waiter(void *arg) {
  (void)arg;
  arrived();
  H_CHECK(cacs_pool_waitgroup_wait(&wg, CACS_POOL_FOREVER) == 0);
  inside();
  __atomic_fetch_add(&left, 1, __ATOMIC_RELEASE);
}

// Waits for the other worker's futex sleep; 0 if it never came.
static int other_asleep(void) {
  for (int i = 0; i < SLEEP_ROUNDS; ++i) {
    if (__atomic_load_n(&other_sleeps, __ATOMIC_ACQUIRE))
      return 1;
    sched_yield();
  }
  return 0;
}

// One attempt: queue WAITERS, let the other worker sleep, release them
// all while counting. Returns whether the release made a futex wake.
static int attempt(int use_wg) {
  __atomic_store_n(&entered, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&left, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&go_on, 0, __ATOMIC_RELAXED);
  if (use_wg) {
    cacs_pool_waitgroup_init(&wg);
    cacs_pool_waitgroup_add(&wg, 1);
    watched_spin = &wg.spin;
  } else {
    H_CHECK(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER) == 0);
    watched_spin = &rw.spin;
  }
  for (int i = 0; i < WAITERS; ++i)
    h_spawn(use_wg ? wg_waiter : reader, NULL);
  while (use_wg ? waiters(&wg.spin, &wg.waiters) < WAITERS
                : waiters(&rw.spin, &rw.waiters) < WAITERS)
    sched_yield();
  int asleep = other_asleep();
  __atomic_store_n(&wakes, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&watching, 1, __ATOMIC_SEQ_CST);
  if (use_wg)
    cacs_pool_waitgroup_done(&wg);
  else
    H_CHECK(cacs_pool_rwlock_wrunlock(&rw) == 0);
  __atomic_store_n(&watching, 0, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&entered, __ATOMIC_RELAXED) < WAITERS)
    sched_yield();
  __atomic_store_n(&go_on, 1, __ATOMIC_RELEASE);
  while (__atomic_load_n(&left, __ATOMIC_ACQUIRE) < WAITERS)
    sched_yield();
  return asleep && __atomic_load_n(&wakes, __ATOMIC_RELAXED) > 0;
}

static int lined_up;

static void holder(void *arg) {
  int use_wg = (int)(intptr_t)arg;
  holder_worker = h_worker();
  holder_tid = gettid();
  lined_up = 0;
  for (int i = 0; i < ATTEMPTS && !lined_up; ++i)
    lined_up = attempt(use_wg);
}

static void run(int use_wg) {
  const char *name = use_wg ? "waitgroup" : "rwlock";
  others_worker = 1;
  __atomic_store_n(&under, 0, __ATOMIC_RELAXED);
  h_spawn(holder, (void *)(intptr_t)use_wg);
  h_join_all();
  printf("%s: set up: %s on the other worker %d, lined up %s\n", name,
         use_wg ? "waiters" : "readers", others_worker,
         lined_up ? "yes" : "no (the load)");
  printf("%s: futex wakes under the spin lock: %d\n", name, under);
  printf("%s: all %s: %d\n", name, use_wg ? "passed" : "read",
         __atomic_load_n(&entered, __ATOMIC_RELAXED) == WAITERS);
}

int main(void) {
  h_watchdog(60);
  H_CHECK(cacs_pool_rwlock_init(&rw, CACS_POOL_LOCK_CES) == 0);
  h_start(2);
  run(0);
  run(1);
  h_stop();
  return 0;
}
