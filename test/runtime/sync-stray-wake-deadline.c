// A timed wait of cacs/sync.h woken by a stray cacs_wake (not served)
// after its deadline passed returns ETIMEDOUT at once: it does not park
// again (arming a timer on the passed deadline) for the service
// coroutine's next round to time it out. The main coroutine lets the
// waiter park, spins past its deadline without switching (the timer
// cannot fire: nothing else runs), wakes it and yields once: the waiter,
// just before main on the ring, has returned by the time main runs
// again. Each wait that parks on sync.c's record: a semaphore, a mutex,
// a condition variable, a channel's receive, a shared channel's.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t && %t | FileCheck %s
//
// Breaking it: without the clock's check after a stray wake-up in
// sync.c's wait_rec (the code before it), each wait parks once more and
// main finds it not returned: "FAIL line ...: returned".
//
// CHECK: sem: ETIMEDOUT at once ok
// CHECK-NEXT: mutex: ETIMEDOUT at once ok
// CHECK-NEXT: cond: ETIMEDOUT at once ok
// CHECK-NEXT: chan: ETIMEDOUT at once ok
// CHECK-NEXT: shared chan: ETIMEDOUT at once ok
// CHECK-NEXT: PASS

#include "Inputs/sync-test.h"
#include "cacs/coro.h"
#include "cacs/sync.h"

#include <errno.h>

#define TIMEOUT_US 2000

enum { SEM, MUTEX, COND, CHAN, SHARED_CHAN };
static const char *const names[] = {"sem", "mutex", "cond", "chan",
                                    "shared chan"};

static cacs_sem sem;
static cacs_mutex mu;
static cacs_cond cv;
static cacs_chan *ch, *sch;
static volatile int returned;
static int err;

static void waiter(void *arg) {
  int item, r = -2;
  switch ((int)(long)arg) {
  case SEM:
    r = cacs_sem_wait(&sem, TIMEOUT_US);
    break;
  case MUTEX: // main holds the lock
    r = cacs_mutex_lock(&mu, TIMEOUT_US);
    if (r == 0) // main unlocked it first (the wait parked again)
      cacs_mutex_unlock(&mu);
    break;
  case COND:
    cacs_mutex_lock(&mu, CACS_FOREVER);
    r = cacs_cond_wait(&cv, &mu, TIMEOUT_US); // relocks: nobody holds it
    cacs_mutex_unlock(&mu);
    break;
  case CHAN:
    r = cacs_chan_recv(ch, &item, TIMEOUT_US);
    break;
  case SHARED_CHAN:
    r = cacs_chan_recv(sch, &item, TIMEOUT_US);
    break;
  }
  err = err_of(r);
  returned = 1;
}

static void probe(int kind) {
  returned = 0;
  err = 0;
  if (kind == MUTEX)
    cacs_mutex_lock(&mu, CACS_FOREVER);
  cacs_coro *w = cacs_create(waiter, (void *)(long)kind, 0);
  cacs_yield(); // the waiter parks on its deadline
  EXPECT(!returned);
  // Past the deadline: fixed after this yield began, TIMEOUT_US from then.
  spin_us(2 * TIMEOUT_US);
  cacs_wake(w); // stray: nobody served it
  cacs_yield();
  EXPECT(returned);
  if (kind == MUTEX)
    cacs_mutex_unlock(&mu);
  cacs_join(w);
  EXPECT(err == ETIMEDOUT);
  printf("%s: %s at once %s\n", names[kind],
         err == ETIMEDOUT ? "ETIMEDOUT" : "not ETIMEDOUT", OK);
}

int main(void) {
  test_start(30);
  cacs_sem_init(&sem, 0);
  cacs_mutex_init(&mu);
  cacs_cond_init(&cv);
  ch = cacs_chan_create(sizeof(int), 1, 0);
  sch = cacs_chan_create(sizeof(int), 1, CACS_CHAN_SHARED);
  if (!ch || !sch)
    return 1;
  for (int k = SEM; k <= SHARED_CHAN; k++)
    probe(k);
  cacs_chan_destroy(ch);
  cacs_chan_destroy(sch);
  return test_end();
}
