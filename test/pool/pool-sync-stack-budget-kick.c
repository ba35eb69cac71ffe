// The wait budget (cacs/detail/contract.h) of cacs/pool_sync.h's waits
// when a CES hand-off resumes them while the other worker sleeps in the
// pool's poller (epoll_wait) or in its io_uring ring: resumed, the waiter
// queues the coroutine that handed off (pool_park.c's resumed()) and wakes
// an idle worker for it, which finds none on the futex and kicks the
// poller's or the ring's eventfd, a write(2) of libc's. As
// test/pool/pool-sync-stack-budget.c measures (its waits resumed with an
// idle worker on the futex, or none idle), for the deepest waits: a
// contended mutex_lock, a cond_wait whose relock queues behind the
// signaller, the same after a timeout, a write lock behind a writer (its
// writers' mutex), a semaphore's wait. Each waits for a holder that
// itself waits for the main thread, which lets it go once both workers
// have slept a while: one sleeps on the futex and is woken for the
// holder (it runs the hand-off), the other sleeps in the poller (the
// reader parked on a pipe made the pool's poller, or keeps its ring busy
// on io_uring) and is kicked. A migrating pool (a default pool's hand-off
// queues the releaser on its own worker, no wake); x86-64 on both engines,
// AArch64 on epoll under qemu (no io_uring there). And a release that
// wakes a timed waiter (never handed to: it cancels the waiter's timer).
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -Wl,-z,now -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: env CACS_IO_ENGINE=epoll %t/p | FileCheck %s
// RUN: %if io-uring %{ env CACS_IO_ENGINE=uring %t/p | FileCheck %s %}
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O2 -Wl,-z,now -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t/a64 && \
// RUN:   %run_aarch64 %t/a64 | FileCheck %s %}
//
// Breaking it: main before session 47, whose resume woke the idle worker
// on the waiter's stack (pool_ready.c's cacs__pool_notify, then libc's
// write(2) to the eventfd; on io_uring below kick_ring_sleepers too):
// x86-64 mutex_lock 632, cond_wait relock 648, a write lock behind a
// writer 680 (> 640) on either engine; AArch64 816, 848, 864 (> 784).
// The full deque's case was within the budgets then (624, AArch64 784).

// CHECK-NOT: OVER
// CHECK: mutex_lock handed, poller kicked: within the budget
// CHECK-NEXT: cond_wait relock handed, poller kicked: within the budget
// CHECK-NEXT: cond_wait timeout relock handed, poller kicked: within the budget
// CHECK-NEXT: rwlock_wrlock behind a writer handed, poller kicked: within the budget
// CHECK-NEXT: sem_wait handed, poller kicked: within the budget
// CHECK-NEXT: sem_post to a timed waiter: within the budget
// CHECK-NEXT: rwlock_wrlock behind a writer handed, deque full: within the budget
// CHECK-NEXT: PASS

#include "cacs/io.h"
#include "cacs/pool.h"
#include "cacs/pool_sync.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../runtime/Inputs/stack-budget.h"

#define WAIT CACS_CONTRACT_POOL_WAIT_STACK_BUDGET
#define ONCE 1
#define ASLEEP 20000 // us: the main thread's wait before it lets a holder go

static cacs_pool *pool;
static cacs_pool_mutex mx = CACS_POOL_MUTEX_INIT;
static cacs_pool_rwlock rw = CACS_POOL_RWLOCK_INIT;
static cacs_pool_cond cv = CACS_POOL_COND_INIT;
static cacs_pool_sem sem = CACS_POOL_SEM_INIT(0);
static cacs_pool_sem go = CACS_POOL_SEM_INIT(0); // posted by the main thread
static int pipefd[2];
static int flag, bad;
static volatile int stage;   // the holder holds
static volatile int want_go; // the prober is about to wait: let the holder go
static volatile int done;

enum op {
  HOLD_MUTEX,
  SIGNAL_HOLD,
  HOLD_COND_MUTEX,
  HOLD_WRITE,
  POST,
  WAIT_TIMED
};

// The other side: it takes what the prober will wait for, then waits for
// the main thread (`go`) before it lets it go, a hand-off to the prober.
static void holder(void *arg) {
  switch ((enum op)(intptr_t)arg) {
  case HOLD_MUTEX:
  case HOLD_COND_MUTEX: // the prober's cond_wait has released it
    cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
    stage = 1;
    cacs_pool_sem_wait(&go, CACS_POOL_FOREVER);
    cacs_pool_mutex_unlock(&mx);
    break;
  case SIGNAL_HOLD: // holds on: the waiter's relock queues, is handed it
    cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
    flag = 1;
    cacs_pool_cond_signal(&cv);
    stage = 1;
    cacs_pool_sem_wait(&go, CACS_POOL_FOREVER);
    cacs_pool_mutex_unlock(&mx);
    break;
  case HOLD_WRITE:
    cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER);
    stage = 1;
    cacs_pool_sem_wait(&go, CACS_POOL_FOREVER);
    cacs_pool_rwlock_wrunlock(&rw);
    break;
  case POST:
    stage = 1;
    cacs_pool_sem_wait(&go, CACS_POOL_FOREVER);
    cacs_pool_sem_post(&sem);
    break;
  case WAIT_TIMED: // woken by the prober's post, which cancels its timer
    stage = 1;
    if (cacs_pool_sem_wait(&sem, 10 * 1000 * 1000) != 0)
      bad = 1;
    break;
  }
}

// Parked in a read on the pipe until the end: the pool's poller exists
// (epoll), or its worker's ring has a request in flight (io_uring).
static void reader(void *arg) {
  (void)arg;
  char c;
  if (cacs_read(pipefd[0], &c, 1, -1) != 1)
    bad = 1;
}

// Spawn the holder for `op`; with `until`, wait until it holds.
static cacs_pool_task *other(enum op op, int until) {
  stage = 0;
  cacs_pool_task *t = cacs_pool_spawn(pool, holder, (void *)(intptr_t)op);
  while (stage < until)
    cacs_pool_yield();
  return t;
}

#define check(r) budget_check(r)

// The prober's wait, once the main thread knows to let the holder go.
#define GO(call) (__atomic_store_n(&want_go, 1, __ATOMIC_RELEASE), (call))

__attribute__((noinline)) static void probe(void) {
  cacs_pool_task *t;

  t = other(HOLD_MUTEX, 1);
  MEASURE("mutex_lock handed, poller kicked", WAIT, ONCE,
          check(GO(cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER))));
  cacs_pool_mutex_unlock(&mx);
  cacs_pool_join(t);

  flag = 0;
  cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
  t = other(SIGNAL_HOLD, 0);
  MEASURE("cond_wait relock handed, poller kicked", WAIT, ONCE,
          check(GO(cacs_pool_cond_wait(&cv, &mx, CACS_POOL_FOREVER))));
  check(!flag);
  cacs_pool_mutex_unlock(&mx);
  cacs_pool_join(t);

  cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
  t = other(HOLD_COND_MUTEX, 0);
  MEASURE("cond_wait timeout relock handed, poller kicked", WAIT, ONCE,
          check(!(GO(cacs_pool_cond_wait(&cv, &mx, 1000)) != 0 &&
                  errno == ETIMEDOUT)));
  cacs_pool_mutex_unlock(&mx);
  cacs_pool_join(t);

  t = other(HOLD_WRITE, 1);
  MEASURE("rwlock_wrlock behind a writer handed, poller kicked", WAIT, ONCE,
          check(GO(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER))));
  cacs_pool_rwlock_wrunlock(&rw);
  cacs_pool_join(t);

  t = other(POST, 1);
  MEASURE("sem_wait handed, poller kicked", WAIT, ONCE,
          check(GO(cacs_pool_sem_wait(&sem, CACS_POOL_FOREVER))));
  cacs_pool_join(t);

  // The other side: a release that wakes a timed waiter (never handed
  // to) cancels its timer (the worker's heap, its lock) and wakes an
  // idle worker for it.
  t = other(WAIT_TIMED, 1);
  cacs_pool_sleep(ASLEEP); // it has parked, both workers slept
  MEASURE("sem_post to a timed waiter", WAIT, ONCE, cacs_pool_sem_post(&sem));
  cacs_pool_join(t);
}

static void prober(void *arg) {
  (void)arg;
  probe();
  done = 1;
}

// A pool of one worker, where nothing steals from its deque: the holder
// fills it (more spawns than it holds: the rest go to the shared queue),
// then hands the lock over, and the resumed prober finds no room there
// for the holder (the shared queue's lock).
#define DEQUE_SLOTS 1024 // runtime/lib/pool/deque.h's CACS_DEQUE_CAP
#define OVERFILL (DEQUE_SLOTS + 64)
static cacs_pool *one;

static void nothing(void *arg) { (void)arg; }

static void filler(void *arg) {
  (void)arg;
  cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER);
  stage = 1;
  while (stage < 2) // the prober is about to wait behind it
    cacs_pool_yield();
  for (int i = 0; i < OVERFILL; ++i)
    if (cacs_pool_spawn_detached(one, nothing, NULL) != 0)
      bad = 1;
  cacs_pool_rwlock_wrunlock(&rw);
}

static void prober_full(void *arg) {
  (void)arg;
  stage = 0;
  cacs_pool_task *t = cacs_pool_spawn(one, filler, NULL);
  while (stage < 1)
    cacs_pool_yield();
  MEASURE("rwlock_wrlock behind a writer handed, deque full", WAIT, ONCE,
          check((stage = 2, cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER))));
  cacs_pool_rwlock_wrunlock(&rw);
  check(cacs_pool_join(t));
}

int main(void) {
  cacs_pool_attr a = {2, 0, CACS_POOL_MIGRATE_RUNNING, 0};
  if (pipe(pipefd) != 0 || !(pool = cacs_pool_create_ex(&a)))
    return 1;
  cacs_pool_task *r = cacs_pool_spawn(pool, reader, NULL);
  usleep(ASLEEP); // it has parked
  cacs_pool_task *t = r ? cacs_pool_spawn(pool, prober, NULL) : NULL;
  if (!t)
    return 1;
  while (!done) {
    if (__atomic_exchange_n(&want_go, 0, __ATOMIC_ACQUIRE)) {
      usleep(ASLEEP); // both workers asleep
      cacs_pool_sem_post(&go);
    }
    usleep(100);
  }
  char c = 'x';
  if (cacs_pool_join(t) != 0 || write(pipefd[1], &c, 1) != 1 ||
      cacs_pool_join(r) != 0 || cacs_pool_destroy(pool) != 0)
    return 1;
  a.workers = 1;
  if (!(one = cacs_pool_create_ex(&a)) ||
      !(t = cacs_pool_spawn(one, prober_full, NULL)) ||
      cacs_pool_join(t) != 0 || cacs_pool_destroy(one) != 0)
    return 1;
  bad |= budget_bad;
  puts(bad ? "FAIL" : "PASS");
  return bad;
}
