// cacs_mutex between coroutines of one thread: mutual exclusion while the
// critical section yields and sleeps, FIFO hand-off, the error returns,
// timeouts that fire and that do not, a waiter whose timeout expires in the
// instant the mutex is handed to it, and stray cacs_wake() calls.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
//
// CHECK: counter: 40 coroutines x 100 = 4000, never two inside ok
// CHECK-NEXT: fifo: 1 2 3 4 5 ok
// CHECK-NEXT: errors: trylock EBUSY, relock EDEADLK, foreign unlock EPERM ok
// CHECK-NEXT: timeout fires: ETIMEDOUT after the deadline, queue left clean ok
// CHECK-NEXT: timeout not needed: locked in time ok
// CHECK-NEXT: timeout vs hand-off: the timed-out waiter owns the mutex ok
// CHECK-NEXT: stray wake: the waiter kept waiting ok
// CHECK-NEXT: PASS

#include "Inputs/sync-test.h"
#include "cacs/sync.h"

#include <errno.h>

static cacs_mutex m = CACS_MUTEX_INIT;

// --- a counter whose critical section yields and sleeps ---------------------
enum { NCORO = 40, NITER = 100 };
static long counter;
static int inside;

static void count_entry(void *arg) {
  long k = (long)arg;
  for (int i = 0; i < NITER; i++) {
    EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
    EXPECT(inside == 0);
    inside = 1;
    long v = counter;
    if ((i + k) % 7 == 0)
      cacs_sleep(50); // wait on a timer while holding the mutex
    else
      cacs_yield();
    counter = v + 1;
    inside = 0;
    EXPECT(cacs_mutex_unlock(&m) == 0);
    cacs_yield();
  }
}

static void test_counter(void) {
  cacs_coro *c[NCORO];
  for (long i = 0; i < NCORO; i++)
    c[i] = cacs_create(count_entry, (void *)i, 0);
  for (int i = 0; i < NCORO; i++)
    cacs_join(c[i]);
  EXPECT(counter == NCORO * NITER);
  printf("counter: %d coroutines x %d = %ld, never two inside %s\n", NCORO,
         NITER, counter, OK);
}

// --- FIFO: waiters get the mutex in arrival order ---------------------------
static int order[8], norder;
static void fifo_entry(void *arg) {
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  order[norder++] = (int)(long)arg;
  cacs_yield(); // a newcomer must not overtake the queue meanwhile
  EXPECT(cacs_mutex_unlock(&m) == 0);
}

static void test_fifo(void) {
  cacs_coro *c[5];
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  for (long i = 0; i < 5; i++) {
    c[i] = cacs_create(fifo_entry, (void *)(i + 1), 0);
    cacs_yield(); // c[i] queues behind c[0..i-1]
  }
  EXPECT(cacs_mutex_unlock(&m) == 0);
  for (int i = 0; i < 5; i++)
    cacs_join(c[i]);
  printf("fifo:");
  print_order(order, norder, 5);
  printf(" %s\n", OK);
}

// --- error returns ------------------------------------------------------------
static int try_result, unlock_result;
static void foreign_entry(void *arg) {
  (void)arg;
  try_result = err_of(cacs_mutex_trylock(&m));
  unlock_result = err_of(cacs_mutex_unlock(&m));
}

static void test_errors(void) {
  EXPECT(cacs_mutex_trylock(&m) == 0);
  EXPECT(err_of(cacs_mutex_lock(&m, CACS_FOREVER)) == EDEADLK);
  cacs_join(cacs_create(foreign_entry, NULL, 0));
  EXPECT(try_result == EBUSY && unlock_result == EPERM);
  EXPECT(cacs_mutex_unlock(&m) == 0);
  EXPECT(err_of(cacs_mutex_unlock(&m)) == EPERM); // not locked at all
  printf("errors: trylock EBUSY, relock EDEADLK, foreign unlock EPERM %s\n",
         OK);
}

// --- timeouts -------------------------------------------------------------------
static int lock_result;
static long long waited;
static void timed_entry(void *arg) {
  long long t0 = now_us();
  lock_result = err_of(cacs_mutex_lock(&m, (int64_t)(long)arg));
  waited = now_us() - t0;
  if (lock_result == 0)
    cacs_mutex_unlock(&m);
}

static void test_timeout_fires(void) {
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  cacs_join(cacs_create(timed_entry, (void *)3000L, 0));
  EXPECT(lock_result == ETIMEDOUT && waited >= 3000);
  EXPECT(err_of(cacs_mutex_lock(&m, 0)) == EDEADLK);
  EXPECT(cacs_mutex_unlock(&m) == 0);
  // The timed-out waiter left the queue: nobody got the mutex.
  EXPECT(m.owner == NULL && m.waiters.head == NULL);
  printf("timeout fires: ETIMEDOUT after the deadline, queue left clean %s\n",
         OK);
}

static void test_timeout_not_needed(void) {
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  cacs_coro *c = cacs_create(timed_entry, (void *)(10L * 1000 * 1000), 0);
  cacs_yield(); // it queues with a 10 s timeout
  cacs_sleep(2000);
  EXPECT(cacs_mutex_unlock(&m) == 0);
  cacs_join(c);
  EXPECT(lock_result == 0 && waited < 1000000);
  printf("timeout not needed: locked in time %s\n", OK);
}

// --- the timeout expires in the instant the mutex is handed over ------------
// The waiter's timer fires (the service coroutine readies it with ETIMEDOUT)
// while the holder runs; the holder then unlocks before the waiter runs
// again. The waiter was handed the mutex, so it must own it and return 0.
static int race_result = -1;
static cacs_coro *race_waiter;
static int holder_saw_busy;
static void race_waiter_entry(void *arg) {
  (void)arg;
  race_result = err_of(cacs_mutex_lock(&m, 1000));
  EXPECT(m.owner == cacs_self());
  if (race_result == 0)
    cacs_mutex_unlock(&m);
}
static void race_holder_entry(void *arg) {
  (void)arg;
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  race_waiter = cacs_create(race_waiter_entry, NULL, 0);
  cacs_yield();  // the waiter queues with a 1 ms timeout
  spin_us(3000); // its deadline passes while we run
  cacs_yield();  // the service coroutine expires its timer
  EXPECT(race_result == -1); // it has not run yet
  EXPECT(cacs_mutex_unlock(&m) == 0);
  // Handed over: nobody else can take it, whatever the waiter's timer said.
  holder_saw_busy = err_of(cacs_mutex_trylock(&m)) == EBUSY;
  if (!holder_saw_busy)
    cacs_mutex_unlock(&m);
}

static void test_timeout_handoff_race(void) {
  cacs_coro *h = cacs_create(race_holder_entry, NULL, 0);
  cacs_join(h);
  cacs_join(race_waiter);
  EXPECT(race_result == 0 && holder_saw_busy);
  EXPECT(m.owner == NULL);
  printf("timeout vs hand-off: the timed-out waiter owns the mutex %s\n", OK);
}

// --- a stray cacs_wake does not end a wait ------------------------------------
static int stray_done;
static void stray_entry(void *arg) {
  (void)arg;
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  stray_done = 1;
  EXPECT(cacs_mutex_unlock(&m) == 0);
}

static void test_stray_wake(void) {
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  cacs_coro *c = cacs_create(stray_entry, NULL, 0);
  cacs_yield();
  cacs_wake(c); // not an unlock
  cacs_yield();
  cacs_yield();
  EXPECT(stray_done == 0);
  // A timed wait woken early keeps waiting for the rest of its time.
  cacs_coro *t = cacs_create(timed_entry, (void *)20000L, 0);
  cacs_yield();
  cacs_wake(t);
  cacs_join(t);
  EXPECT(lock_result == ETIMEDOUT && waited >= 20000);
  EXPECT(stray_done == 0);
  EXPECT(cacs_mutex_unlock(&m) == 0);
  cacs_join(c);
  EXPECT(stray_done == 1);
  printf("stray wake: the waiter kept waiting %s\n", OK);
}

int main(void) {
  test_start(30);
  test_counter();
  test_fifo();
  test_errors();
  test_timeout_fires();
  test_timeout_not_needed();
  test_timeout_handoff_race();
  test_stray_wake();
  EXPECT(cacs_count() == 0);
  return test_end();
}
