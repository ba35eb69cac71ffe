// The internal contract of lib/pool/pool_park.h, as the synchronization
// module uses it: a semaphore of one token (a mutex) whose waiters park
// with `after` releasing the queue's spin lock. Pool coroutines on 2
// workers take it, check mutual exclusion inside, and give it back by
// cacs__pool_wake (mode "wake") or cacs__pool_handoff ("handoff"); in
// "timeout" mode waiters also time out after a few microseconds, so wakes
// and timeouts race: exactly one of them wins each park (a wake that
// loses hands the token to the next waiter, a timeout that wins takes
// its waiter off the queue), and no token is lost or doubled.
//
// RUN: %clang -O2 -I%cacs_include -I%S/../../runtime/lib/pool %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t wake | FileCheck %s
// RUN: %t handoff | FileCheck %s
// RUN: %t timeout 3 | FileCheck %s
// CHECK: overlaps=0 entries=[[N:[0-9]+]] expect=[[N]] tokens=1

#include "cacs/pool.h"
#include "pool_park.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { COROS = 40, ROUNDS = 300, QMAX = 64 };

static atomic_flag spin = ATOMIC_FLAG_INIT;
static int tokens = 1;
static cacs__ptask *q[QMAX];
static int qn;
static int mode; // 0 wake, 1 handoff, 2 timeout
static uint64_t timeout_ns;
static int inside, overlaps;
static _Atomic long entries;

static void lock(void) {
  while (atomic_flag_test_and_set_explicit(&spin, memory_order_acquire))
    ;
}
static void unlock(void *unused) {
  (void)unused;
  atomic_flag_clear_explicit(&spin, memory_order_release);
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

static void acquire(void) {
  cacs__ptask *self = cacs__pool_self();
  for (;;) {
    lock();
    if (tokens > 0) {
      tokens--;
      unlock(NULL);
      return;
    }
    q[qn++] = self;
    uint64_t d = mode == 2 ? now_ns() + timeout_ns : 0;
    if (cacs__pool_park(unlock, NULL, d) == 0)
      return; // the token was handed to us
    // Timed out: take ourselves off the queue (a waker that found us there
    // lost to the timeout and passed the token on instead), and try again.
    lock();
    for (int i = 0; i < qn; ++i)
      if (q[i] == self) {
        memmove(&q[i], &q[i + 1], (qn - i - 1) * sizeof *q);
        qn--;
        break;
      }
    unlock(NULL);
  }
}

static void release(void) {
  for (;;) {
    lock();
    if (qn == 0) {
      tokens++;
      unlock(NULL);
      return;
    }
    cacs__ptask *w = q[0];
    memmove(&q[0], &q[1], (qn - 1) * sizeof *q);
    qn--;
    unlock(NULL);
    if (mode == 1) { // no timeouts in this mode: the wake cannot lose
      cacs__pool_handoff(w);
      return;
    }
    if (cacs__pool_wake(w))
      return;
    // Lost to its timeout: the token goes to the next waiter.
  }
}

static void body(void *arg) {
  (void)arg;
  for (int i = 0; i < ROUNDS; ++i) {
    acquire();
    if (inside++)
      overlaps++;
    atomic_fetch_add(&entries, 1);
    if (i % 7 == 0)
      cacs_pool_yield();
    inside--;
    release();
  }
}

int main(int argc, char **argv) {
  mode = argc > 1 && !strcmp(argv[1], "handoff") ? 1
         : argc > 1 && !strcmp(argv[1], "timeout") ? 2
                                                   : 0;
  timeout_ns = (argc > 2 ? atoi(argv[2]) : 3) * 1000ull;
  cacs_pool *p = cacs_pool_create(2);
  cacs_pool_task *t[COROS];
  for (int i = 0; i < COROS; ++i)
    t[i] = cacs_pool_spawn(p, body, NULL);
  for (int i = 0; i < COROS; ++i)
    cacs_pool_join(t[i]);
  cacs_pool_destroy(p);
  printf("overlaps=%d entries=%ld expect=%d tokens=%d\n", overlaps,
         (long)entries, COROS * ROUNDS, tokens);
  return 0;
}
