// The CES paper's condition-variable rule: a signal while the notifier
// holds the mutex moves the waiter straight onto the mutex's queue (it is
// not woken to find the mutex taken); when the mutex is free, the waiter
// becomes its owner during the signal. Then the usual guarantees: the
// waiter returns owning the mutex, broadcast serves every waiter in order.
//
// On the pool, x86-64: cacs -O2 with -fcoroutine-migration (the test reads
// errno after waits that may migrate), stock clang -O0.
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: %stock_clang -O0 -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t0
// RUN: %t0 2>&1 | FileCheck %s
//
// CHECK: held: cond queue empty 1, on mutex queue 1, mutex owner notifier 1
// CHECK-NEXT: held: waiter resumed owning the mutex, saw 1
// CHECK-NEXT: free: mutex owned by the waiter during the signal 1
// CHECK-NEXT: free: waiter resumed owning the mutex, saw 2
// CHECK-NEXT: broadcast: 3 waiters, order 0 1 2
#include "psync.h"

static cacs_pool_mutex mu = CACS_POOL_MUTEX_INIT;
static cacs_pool_cond cv = CACS_POOL_COND_INIT;
static int ready, value, order[3], norder;
static int done_free, owned_free, saw[2];

static void waiter_body(void *arg) {
  intptr_t id = (intptr_t)arg;
  H_CHECK(cacs_pool_mutex_lock(&mu, -1) == 0);
  int want = value + 1;
  ready++;
  while (value < want)
    H_CHECK(cacs_pool_cond_wait(&cv, &mu, -1) == 0);
  if (id < 0) {
    // Owning the mutex now: relocking fails, unlocking works.
    H_CHECK(cacs_pool_mutex_lock(&mu, 0) == -1 && errno == EDEADLK);
    saw[value - 1] = value;
    done_free = value == 2;
  } else {
    order[norder++] = (int)id;
  }
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

// Wait (yielding) until `n` waiters are inside cond_wait: each set `ready`
// under the mutex, and released it only inside cond_wait, after queueing.
static void wait_ready(int n) {
  for (;;) {
    H_CHECK(cacs_pool_mutex_lock(&mu, -1) == 0);
    if (ready == n)
      return; // mutex held
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
    h_yield();
  }
}

static void notifier(void *arg) {
  (void)arg;
  // 1. Signal under the lock.
  h_spawn(waiter_body, (void *)-1);
  wait_ready(1);
  value = 1;
  cacs_pool_cond_signal(&cv);
  printf("held: cond queue empty %d, on mutex queue %d, mutex owner notifier %d\n",
         cv.waiters.head == NULL, mu.waiters.head != NULL,
         cacs_pool_mutex_trylock(&mu) == -1);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  // 2. Signal with the mutex free: the signal makes the waiter the owner,
  // so a trylock right after it fails unless the waiter already ran its
  // critical section (the CES signal may run it in the notifier's place).
  while (cacs_pool_mutex_lock(&mu, -1) != 0 || ready != 1) {
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
    h_yield();
  }
  ready = 0;
  h_spawn(waiter_body, (void *)-1);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  wait_ready(1);
  value = 2;
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  cacs_pool_cond_signal(&cv);
  if (cacs_pool_mutex_trylock(&mu) == -1) {
    owned_free = 1;
  } else {
    owned_free = done_free;
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  }
}

static void broadcaster(void *arg) {
  (void)arg;
  ready = 0;
  for (intptr_t i = 0; i < 3; ++i) {
    h_spawn(waiter_body, (void *)i);
    wait_ready((int)i + 1); // queue them in order
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  }
  H_CHECK(cacs_pool_mutex_lock(&mu, -1) == 0);
  value = 3;
  cacs_pool_cond_broadcast(&cv);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

int main(void) {
  h_start(2);
  h_spawn(notifier, NULL);
  h_join_all();
  printf("held: waiter resumed owning the mutex, saw %d\n", saw[0]);
  printf("free: mutex owned by the waiter during the signal %d\n", owned_free);
  printf("free: waiter resumed owning the mutex, saw %d\n", saw[1]);
  h_spawn(broadcaster, NULL);
  h_join_all();
  h_stop();
  printf("broadcast: %d waiters, order %d %d %d\n", norder, order[0], order[1],
         order[2]);
  return 0;
}
