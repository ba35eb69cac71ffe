// The calls of cacs/pool_sync.h and cacs_pool_spawn carry the wait stack
// budget (cacs/detail/contract.h), so that a pool coroutine's entry that
// locks, waits, sends or spawns keeps its bound and may run on an exact
// stack: each uses no more of the caller's stack, below the stack pointer
// at the call, than that budget, on its slow paths. In a pool coroutine:
// a contended lock of each kind (untimed, timed, timing out), an unlock
// that hands the lock to a waiter (CES: the waiter runs in the caller's
// place), a condition wait and a signal, a condition wait whose relock
// finds the signaller still holding the mutex (it queues and parks again,
// and the unlock hands the mutex over: resumed, it queues the releaser
// below its park), a write lock behind a writer (the same, on the
// writers' mutex), a semaphore's wait and post, a wait group's wait and
// done, a rendezvous channel's blocked send and receive and a close that
// wakes a receiver, a spawn; and a contended lock and a wait outside a
// pool coroutine (they block the thread). As
// test/pool/pool-stack-budget.c (its measuring macro: each call made once
// on a filled stack, the lowest byte written); a helper coroutine makes
// the other side of each call (it holds, waits or wakes after a sleep).
// Both pool modes; x86-64, and AArch64 under qemu.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -Wl,-z,now -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: %t/p unstarted | FileCheck %s
// RUN: %t/p running | FileCheck %s
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O2 -Wl,-z,now -I%cacs_include %s %cacs_rt_aarch64 -lpthread -o %t/a64 && \
// RUN:   %run_aarch64 %t/a64 running | FileCheck %s %}
//
// Breaking it: a wait budget of 256 bytes (contract.h) makes a contended
// lock exceed it; cacs_pool_cond_wait relocking below its own wait's frame
// (as before cond_park) makes "cond_wait relock" exceed it (x86-64 688 >
// 640, AArch64 848 > 784, as a loaded run did once); a budget of 720 makes
// "rwlock_wrlock behind a writer" exceed it on AArch64 (736).

// CHECK-NOT: OVER
// CHECK: mutex_lock: within the budget
// CHECK-NEXT: mutex_lock timed: within the budget
// CHECK-NEXT: mutex_lock timeout: within the budget
// CHECK-NEXT: mutex_unlock to a waiter: within the budget
// CHECK-NEXT: rwlock_wrlock: within the budget
// CHECK-NEXT: rwlock_rdlock: within the budget
// CHECK-NEXT: rwlock_wrlock behind a writer: within the budget
// CHECK-NEXT: rwlock_wrunlock to a reader: within the budget
// CHECK-NEXT: rwlock_rdunlock to a writer: within the budget
// CHECK-NEXT: cond_wait: within the budget
// CHECK-NEXT: cond_wait timeout: within the budget
// CHECK-NEXT: cond_wait relock: within the budget
// CHECK-NEXT: cond_signal: within the budget
// CHECK-NEXT: cond_broadcast: within the budget
// CHECK-NEXT: sem_wait: within the budget
// CHECK-NEXT: sem_post to a waiter: within the budget
// CHECK-NEXT: waitgroup_wait: within the budget
// CHECK-NEXT: waitgroup_done to a waiter: within the budget
// CHECK-NEXT: chan_recv: within the budget
// CHECK-NEXT: chan_send: within the budget
// CHECK-NEXT: chan_close to a receiver: within the budget
// CHECK-NEXT: spawn: within the budget
// CHECK-NEXT: spawn_detached: within the budget
// CHECK-NEXT: outside: mutex_lock: within the budget
// CHECK-NEXT: outside: sem_wait: within the budget
// CHECK-NEXT: PASS

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
#define NAP 3000 // us: the other side's wait, long enough to park in

static cacs_pool *pool;
static cacs_pool_mutex mx = CACS_POOL_MUTEX_INIT;
static cacs_pool_rwlock rw = CACS_POOL_RWLOCK_INIT;
static cacs_pool_cond cv = CACS_POOL_COND_INIT;
static cacs_pool_sem sem = CACS_POOL_SEM_INIT(0);
static cacs_pool_waitgroup wg = CACS_POOL_WAITGROUP_INIT;
static cacs_pool_chan *ch;
static int flag, bad;
static volatile int stage; // the helper is about to wait or holds
static volatile int release; // HOLD_MUTEX_UNTIL holds until this is set

enum op {
  HOLD_MUTEX,
  HOLD_MUTEX_UNTIL,
  WAIT_MUTEX,
  HOLD_READ,
  HOLD_WRITE,
  WAIT_READ,
  WAIT_WRITE,
  SIGNAL,
  SIGNAL_HOLD,
  WAIT_COND,
  POST,
  WAIT_SEM,
  DONE,
  WAIT_GROUP,
  SEND,
  RECV,
  RECV_CLOSED,
};

static void helper(void *arg) {
  int item = 7;
  stage = 1;
  switch ((enum op)(intptr_t)arg) {
  case HOLD_MUTEX:
    cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
    stage = 2;
    cacs_pool_sleep(NAP);
    cacs_pool_mutex_unlock(&mx);
    break;
  case HOLD_MUTEX_UNTIL: // for a lock that must time out, however slow
    cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
    stage = 2;
    while (!release)
      cacs_pool_sleep(1000);
    cacs_pool_mutex_unlock(&mx);
    break;
  case WAIT_MUTEX:
    cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
    cacs_pool_mutex_unlock(&mx);
    break;
  case HOLD_READ:
  case HOLD_WRITE: {
    int read = (intptr_t)arg == HOLD_READ;
    if (read)
      cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER);
    else
      cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER);
    stage = 2;
    cacs_pool_sleep(NAP);
    if (read)
      cacs_pool_rwlock_rdunlock(&rw);
    else
      cacs_pool_rwlock_wrunlock(&rw);
    break;
  }
  case WAIT_READ:
    cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER);
    cacs_pool_rwlock_rdunlock(&rw);
    break;
  case WAIT_WRITE:
    cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER);
    cacs_pool_rwlock_wrunlock(&rw);
    break;
  case SIGNAL:
    cacs_pool_sleep(NAP);
    cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
    flag = 1;
    cacs_pool_cond_signal(&cv);
    cacs_pool_mutex_unlock(&mx);
    break;
  case SIGNAL_HOLD: // holds on: the waiter's relock queues, is handed it
    cacs_pool_sleep(NAP);
    cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
    flag = 1;
    cacs_pool_cond_signal(&cv);
    cacs_pool_sleep(NAP);
    cacs_pool_mutex_unlock(&mx);
    break;
  case WAIT_COND:
    cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
    stage = 2;
    while (!flag)
      cacs_pool_cond_wait(&cv, &mx, CACS_POOL_FOREVER);
    cacs_pool_mutex_unlock(&mx);
    break;
  case POST:
    cacs_pool_sleep(NAP);
    cacs_pool_sem_post(&sem);
    break;
  case WAIT_SEM:
    cacs_pool_sem_wait(&sem, CACS_POOL_FOREVER);
    break;
  case DONE:
    cacs_pool_sleep(NAP);
    cacs_pool_waitgroup_done(&wg);
    break;
  case WAIT_GROUP:
    cacs_pool_waitgroup_wait(&wg, CACS_POOL_FOREVER);
    break;
  case SEND:
    cacs_pool_sleep(NAP);
    cacs_pool_chan_send(ch, &item, CACS_POOL_FOREVER);
    break;
  case RECV:
    cacs_pool_sleep(NAP);
    cacs_pool_chan_recv(ch, &item, CACS_POOL_FOREVER);
    break;
  case RECV_CLOSED:
    if (cacs_pool_chan_recv(ch, &item, CACS_POOL_FOREVER) == 0)
      bad = 1;
    break;
  }
}

// Spawn the helper for `op`; with `until`, wait until it reached that
// stage, then let it park in its wait (`park`).
static cacs_pool_task *other(enum op op, int until, int park) {
  stage = 0;
  cacs_pool_task *t = cacs_pool_spawn(pool, helper, (void *)(intptr_t)op);
  while (stage < until)
    cacs_pool_yield();
  if (park)
    cacs_pool_sleep(NAP);
  return t;
}

#define check(r) budget_check(r)

static void nothing(void *arg) { (void)arg; }

__attribute__((noinline)) static void probe(void) {
  int item = 0;
  cacs_pool_task *t;

  t = other(HOLD_MUTEX, 2, 0);
  MEASURE("mutex_lock", WAIT, ONCE,
          check(cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER)));
  cacs_pool_mutex_unlock(&mx);
  cacs_pool_join(t);
  t = other(HOLD_MUTEX, 2, 0);
  MEASURE("mutex_lock timed", WAIT, ONCE,
          check(cacs_pool_mutex_lock(&mx, 10 * 1000 * 1000)));
  cacs_pool_mutex_unlock(&mx);
  cacs_pool_join(t);
  release = 0;
  t = other(HOLD_MUTEX_UNTIL, 2, 0);
  MEASURE("mutex_lock timeout", WAIT, ONCE,
          check(!(cacs_pool_mutex_lock(&mx, 500) != 0 && errno == ETIMEDOUT)));
  release = 1;
  cacs_pool_join(t);
  cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
  t = other(WAIT_MUTEX, 1, 1);
  MEASURE("mutex_unlock to a waiter", WAIT, ONCE,
          check(cacs_pool_mutex_unlock(&mx)));
  cacs_pool_join(t);

  t = other(HOLD_READ, 2, 0);
  MEASURE("rwlock_wrlock", WAIT, ONCE,
          check(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER)));
  cacs_pool_rwlock_wrunlock(&rw);
  cacs_pool_join(t);
  t = other(HOLD_WRITE, 2, 0);
  MEASURE("rwlock_rdlock", WAIT, ONCE,
          check(cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER)));
  cacs_pool_rwlock_rdunlock(&rw);
  cacs_pool_join(t);
  t = other(HOLD_WRITE, 2, 0);
  MEASURE("rwlock_wrlock behind a writer", WAIT, ONCE,
          check(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER)));
  cacs_pool_rwlock_wrunlock(&rw);
  cacs_pool_join(t);
  cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER);
  t = other(WAIT_READ, 1, 1);
  MEASURE("rwlock_wrunlock to a reader", WAIT, ONCE,
          check(cacs_pool_rwlock_wrunlock(&rw)));
  cacs_pool_join(t);
  cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER);
  t = other(WAIT_WRITE, 1, 1);
  MEASURE("rwlock_rdunlock to a writer", WAIT, ONCE,
          check(cacs_pool_rwlock_rdunlock(&rw)));
  cacs_pool_join(t);

  flag = 0;
  cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
  t = other(SIGNAL, 1, 0);
  MEASURE("cond_wait", WAIT, ONCE,
          while (!flag)
              check(cacs_pool_cond_wait(&cv, &mx, CACS_POOL_FOREVER)));
  MEASURE(
      "cond_wait timeout", WAIT, ONCE,
      check(!(cacs_pool_cond_wait(&cv, &mx, 500) != 0 && errno == ETIMEDOUT)));
  cacs_pool_mutex_unlock(&mx);
  cacs_pool_join(t);
  flag = 0;
  cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
  t = other(SIGNAL_HOLD, 1, 0);
  MEASURE("cond_wait relock", WAIT, ONCE,
          while (!flag)
              check(cacs_pool_cond_wait(&cv, &mx, CACS_POOL_FOREVER)));
  cacs_pool_mutex_unlock(&mx);
  cacs_pool_join(t);
  flag = 0;
  t = other(WAIT_COND, 2, 1);
  cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER);
  flag = 1;
  MEASURE("cond_signal", WAIT, ONCE, cacs_pool_cond_signal(&cv));
  cacs_pool_mutex_unlock(&mx);
  cacs_pool_join(t);
  flag = 0;
  t = other(WAIT_COND, 2, 1);
  MEASURE("cond_broadcast", WAIT, ONCE,
          (cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER), flag = 1,
           cacs_pool_cond_broadcast(&cv), cacs_pool_mutex_unlock(&mx)));
  cacs_pool_join(t);

  t = other(POST, 1, 0);
  MEASURE("sem_wait", WAIT, ONCE,
          check(cacs_pool_sem_wait(&sem, CACS_POOL_FOREVER)));
  cacs_pool_join(t);
  t = other(WAIT_SEM, 1, 1);
  MEASURE("sem_post to a waiter", WAIT, ONCE, cacs_pool_sem_post(&sem));
  cacs_pool_join(t);

  cacs_pool_waitgroup_add(&wg, 1);
  t = other(DONE, 1, 0);
  MEASURE("waitgroup_wait", WAIT, ONCE,
          check(cacs_pool_waitgroup_wait(&wg, CACS_POOL_FOREVER)));
  cacs_pool_join(t);
  cacs_pool_waitgroup_add(&wg, 1);
  t = other(WAIT_GROUP, 1, 1);
  MEASURE("waitgroup_done to a waiter", WAIT, ONCE,
          cacs_pool_waitgroup_done(&wg));
  cacs_pool_join(t);

  t = other(SEND, 1, 0);
  MEASURE("chan_recv", WAIT, ONCE,
          check(cacs_pool_chan_recv(ch, &item, CACS_POOL_FOREVER)));
  cacs_pool_join(t);
  t = other(RECV, 1, 0);
  MEASURE("chan_send", WAIT, ONCE,
          check(cacs_pool_chan_send(ch, &item, CACS_POOL_FOREVER)));
  cacs_pool_join(t);
  t = other(RECV_CLOSED, 1, 1);
  MEASURE("chan_close to a receiver", WAIT, ONCE,
          check(cacs_pool_chan_close(ch)));
  cacs_pool_join(t);

  MEASURE("spawn", WAIT, 0, (t = cacs_pool_spawn(pool, nothing, NULL)));
  cacs_pool_join(t);
  MEASURE("spawn_detached", WAIT, 0,
          check(cacs_pool_spawn_detached(pool, nothing, NULL)));
}

static volatile int done;

static void prober(void *arg) {
  (void)arg;
  probe();
  done = 1;
}

int main(int argc, char **argv) {
  int running = argc > 1 && !strcmp(argv[1], "running");
  cacs_pool_attr a = {
      2, 0, running ? CACS_POOL_MIGRATE_RUNNING : CACS_POOL_MIGRATE_UNSTARTED,
      0};
  ch = cacs_pool_chan_create(sizeof(int), 0);
  pool = cacs_pool_create_ex(&a);
  cacs_pool_task *t = pool && ch ? cacs_pool_spawn(pool, prober, NULL) : NULL;
  if (!t || cacs_pool_join(t) != 0 || !done)
    return 1;
  // Outside a pool coroutine (a plain thread here): the calls block it.
  t = other(HOLD_MUTEX, 2, 0);
  MEASURE("outside: mutex_lock", WAIT, ONCE,
          check(cacs_pool_mutex_lock(&mx, CACS_POOL_FOREVER)));
  cacs_pool_mutex_unlock(&mx);
  cacs_pool_join(t);
  t = other(POST, 1, 0);
  MEASURE("outside: sem_wait", WAIT, ONCE,
          check(cacs_pool_sem_wait(&sem, CACS_POOL_FOREVER)));
  cacs_pool_join(t);
  if (cacs_pool_destroy(pool) != 0)
    return 1;
  bad |= budget_bad;
  puts(bad ? "FAIL" : "PASS");
  return bad;
}
