// The pool condition variable's rule (cacs/pool_sync.h): a signal makes
// the waiter runnable and neither gives it the mutex nor switches to it,
// whether the notifier holds the mutex or not; the waiter then takes the
// mutex as any locker. A broadcast under the mutex moves its waiters onto
// the mutex's queue, in order (the CES paper's rule, kept for broadcast:
// no herd); with the mutex free, the first becomes its owner during the
// broadcast, made runnable. Then the usual guarantees: the waiter returns
// owning the mutex, a broadcast serves every waiter in order. One worker:
// a woken waiter cannot run before the notifier lets it, so what a signal
// did is seen before anyone else acts (and a switch to the waiter would
// show as its critical section having run).
//
// On the pool, x86-64: cacs -O2 with -fcoroutine-migration (the test reads
// errno after waits that may migrate), stock clang -O0.
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: %stock_clang -O0 -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t0
// RUN: %t0 2>&1 | FileCheck %s
//
// CHECK: held: cond queue empty 1, on mutex queue 0, mutex owner notifier 1, waiter ran 0
// CHECK-NEXT: free: mutex free after the signal 1, waiter ran 0
// CHECK-NEXT: held: waiter resumed owning the mutex, saw 1
// CHECK-NEXT: free: waiter resumed owning the mutex, saw 2
// CHECK-NEXT: broadcast held: on mutex queue 3, waiter ran 0
// CHECK-NEXT: broadcast held: 3 waiters, order 0 1 2
// CHECK-NEXT: broadcast free: mutex taken 1, on mutex queue 2, waiter ran 0
// CHECK-NEXT: broadcast free: 3 waiters, order 0 1 2
#include "psync.h"

static cacs_pool_mutex mu = CACS_POOL_MUTEX_INIT;
static cacs_pool_cond cv = CACS_POOL_COND_INIT;
static int ready, value, ran, order[3], norder, saw[2];

static void waiter_body(void *arg) {
  intptr_t id = (intptr_t)arg;
  H_CHECK(cacs_pool_mutex_lock(&mu, -1) == 0);
  int want = value + 1;
  ready++;
  while (value < want)
    H_CHECK(cacs_pool_cond_wait(&cv, &mu, -1) == 0);
  // Owning the mutex now: relocking fails, unlocking works.
  H_CHECK(cacs_pool_mutex_lock(&mu, 0) == -1 && errno == EDEADLK);
  if (id < 0)
    saw[value - 1] = value;
  else
    order[norder++] = (int)id;
  ran++;
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

// Wait (yielding) until `n` waiters are inside cond_wait (each set `ready`
// under the mutex, and released it only inside cond_wait, after queueing),
// or until `n` waiters ran after their wait: returns holding the mutex.
static void wait_for(int *count, int n) {
  for (;;) {
    H_CHECK(cacs_pool_mutex_lock(&mu, -1) == 0);
    if (*count == n)
      return;
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
    h_yield();
  }
}

static int mutex_waiters(void) {
  return h_waiters(&mu.spin, &mu.waiters, INT32_MAX);
}

// Queue `n` waiters on cv in order, ids 0 ..; returns holding the mutex.
static void queue_waiters(int n) {
  ready = 0;
  norder = 0;
  for (intptr_t i = 0; i < n; ++i) {
    h_spawn(waiter_body, (void *)i);
    wait_for(&ready, (int)i + 1);
    if (i + 1 < n)
      H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  }
}

static void notifier(void *arg) {
  (void)arg;
  // 1. Signal under the lock: the waiter is runnable, not queued on the
  // mutex, and cannot run before the notifier unlocks and lets it.
  h_spawn(waiter_body, (void *)-1);
  wait_for(&ready, 1);
  value = 1;
  int before = ran;
  cacs_pool_cond_signal(&cv);
  int empty = cv.waiters.head == NULL, queued = mutex_waiters();
  int owner = cacs_pool_mutex_lock(&mu, 0) == -1 && errno == EDEADLK;
  printf("held: cond queue empty %d, on mutex queue %d, mutex owner notifier "
         "%d, waiter ran %d\n",
         empty, queued, owner, ran != before);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  wait_for(&ran, 1);
  // 2. Signal with the mutex free: it stays free (the waiter takes it when
  // it runs), and the notifier is not switched out.
  ready = 0;
  h_spawn(waiter_body, (void *)-1);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  wait_for(&ready, 1);
  value = 2;
  before = ran;
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  cacs_pool_cond_signal(&cv);
  int free_after = cacs_pool_mutex_trylock(&mu) == 0;
  printf("free: mutex free after the signal %d, waiter ran %d\n", free_after,
         ran != before);
  if (free_after)
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  wait_for(&ran, 2);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

static void broadcaster(void *arg) {
  (void)arg;
  // 3. Under the lock: all three join the mutex's queue, in order.
  queue_waiters(3);
  value = 3;
  int before = ran;
  cacs_pool_cond_broadcast(&cv);
  printf("broadcast held: on mutex queue %d, waiter ran %d\n", mutex_waiters(),
         ran != before);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  wait_for(&norder, 3);
  printf("broadcast held: %d waiters, order %d %d %d\n", norder, order[0],
         order[1], order[2]);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  // 4. The mutex free: the first owns it, the others queue behind it, and
  // the broadcaster goes on.
  queue_waiters(3);
  value = 4;
  before = ran;
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  cacs_pool_cond_broadcast(&cv);
  int taken = cacs_pool_mutex_trylock(&mu) == -1;
  printf("broadcast free: mutex taken %d, on mutex queue %d, waiter ran %d\n",
         taken, mutex_waiters(), ran != before);
  if (!taken)
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  wait_for(&norder, 3);
  printf("broadcast free: %d waiters, order %d %d %d\n", norder, order[0],
         order[1], order[2]);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

int main(void) {
  h_start(1);
  h_spawn(notifier, NULL);
  h_join_all();
  printf("held: waiter resumed owning the mutex, saw %d\n", saw[0]);
  printf("free: waiter resumed owning the mutex, saw %d\n", saw[1]);
  h_spawn(broadcaster, NULL);
  h_join_all();
  h_stop();
  return 0;
}
