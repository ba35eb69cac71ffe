// cacs_cond: broadcast wakes every waiter and each gets the mutex back in
// turn, signal wakes the longest waiter only, timeouts that fire and that
// do not (the mutex is held again either way), a signal that meets a
// waiter whose timeout expired in the same instant (it is not lost), and a
// bounded buffer on two condition variables.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
//
// CHECK: broadcast: 10 of 10 woke, each holding the mutex alone ok
// CHECK-NEXT: signal: one waiter per signal, in order 1 2 3 ok
// CHECK-NEXT: timeout fires: ETIMEDOUT, mutex held again ok
// CHECK-NEXT: timeout not needed: signalled in time ok
// CHECK-NEXT: timeout vs signal: 1 signal, 1 waiter saw it ok
// CHECK-NEXT: bounded buffer: 3000 items, sum 4498500 ok
// CHECK-NEXT: PASS

#include "Inputs/sync-test.h"
#include "cacs/sync.h"

#include <errno.h>

static cacs_mutex m = CACS_MUTEX_INIT;
static cacs_cond cv = CACS_COND_INIT;

// --- broadcast ----------------------------------------------------------------
enum { NWAIT = 10 };
static int generation, woke, inside;
static void bcast_entry(void *arg) {
  (void)arg;
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  int gen = generation;
  while (generation == gen)
    EXPECT(cacs_cond_wait(&cv, &m, CACS_FOREVER) == 0);
  EXPECT(m.owner == cacs_self() && inside == 0);
  inside = 1;
  cacs_yield(); // others woken by the broadcast queue on the mutex
  inside = 0;
  woke++;
  EXPECT(cacs_mutex_unlock(&m) == 0);
}

static void test_broadcast(void) {
  cacs_coro *c[NWAIT];
  for (int i = 0; i < NWAIT; i++)
    c[i] = cacs_create(bcast_entry, NULL, 0);
  cacs_yield(); // all wait
  EXPECT(woke == 0);
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  generation++;
  cacs_cond_broadcast(&cv);
  EXPECT(cacs_mutex_unlock(&m) == 0);
  for (int i = 0; i < NWAIT; i++)
    cacs_join(c[i]);
  printf("broadcast: %d of %d woke, each holding the mutex alone %s\n", woke,
         NWAIT, OK);
}

// --- signal: one at a time, FIFO ---------------------------------------------------
static int order[4], norder;
static void signal_entry(void *arg) {
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  EXPECT(cacs_cond_wait(&cv, &m, CACS_FOREVER) == 0);
  order[norder++] = (int)(long)arg;
  EXPECT(cacs_mutex_unlock(&m) == 0);
}

static void test_signal(void) {
  cacs_coro *c[3];
  for (long i = 0; i < 3; i++) {
    c[i] = cacs_create(signal_entry, (void *)(i + 1), 0);
    cacs_yield();
  }
  for (int k = 1; k <= 3; k++) {
    cacs_cond_signal(&cv);
    cacs_yield();
    cacs_yield();
    EXPECT(norder == k); // exactly one more
  }
  cacs_cond_signal(&cv); // nobody waits: no effect
  for (int i = 0; i < 3; i++)
    cacs_join(c[i]);
  printf("signal: one waiter per signal, in order");
  print_order(order, norder, 3);
  printf(" %s\n", OK);
}

// --- timeouts -------------------------------------------------------------------------
static void test_timeouts(void) {
  EXPECT(err_of(cacs_cond_wait(&cv, &m, 1000)) == EPERM); // not locked
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  long long t0 = now_us();
  EXPECT(err_of(cacs_cond_wait(&cv, &m, 3000)) == ETIMEDOUT);
  EXPECT(now_us() - t0 >= 3000);
  EXPECT(m.owner == cacs_self() && cv.waiters.head == NULL);
  EXPECT(err_of(cacs_cond_wait(&cv, &m, 0)) == ETIMEDOUT);
  EXPECT(m.owner == cacs_self());
  EXPECT(cacs_mutex_unlock(&m) == 0);
  printf("timeout fires: ETIMEDOUT, mutex held again %s\n", OK);
}

static int timed_result = -1;
static void timed_entry(void *arg) {
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  timed_result = err_of(cacs_cond_wait(&cv, &m, (int64_t)(long)arg));
  EXPECT(m.owner == cacs_self());
  EXPECT(cacs_mutex_unlock(&m) == 0);
}

static void test_timeout_not_needed(void) {
  long long t0 = now_us();
  cacs_coro *c = cacs_create(timed_entry, (void *)(10L * 1000 * 1000), 0);
  cacs_yield();
  cacs_sleep(2000);
  cacs_cond_signal(&cv);
  cacs_join(c);
  EXPECT(timed_result == 0 && now_us() - t0 < 1000000);
  printf("timeout not needed: signalled in time %s\n", OK);
}

// --- a signal meets a waiter whose timeout just expired --------------------
// A (1 ms) and B (forever) wait. A's timer fires while main spins; the
// signal then goes to A, still first in the queue. A must report it (0):
// if A said ETIMEDOUT the signal would be lost, B not woken either.
static int res_a = -1, res_b = -1;
static void race_entry(void *arg) {
  int *res = (int *)arg;
  EXPECT(cacs_mutex_lock(&m, CACS_FOREVER) == 0);
  *res = err_of(cacs_cond_wait(&cv, &m, res == &res_a ? 1000 : 200000));
  EXPECT(cacs_mutex_unlock(&m) == 0);
}

static void test_timeout_signal_race(void) {
  cacs_coro *a = cacs_create(race_entry, &res_a, 0);
  cacs_coro *b = cacs_create(race_entry, &res_b, 0);
  cacs_yield(); // both wait
  spin_us(3000);
  cacs_yield(); // the service coroutine expires A's timer
  EXPECT(res_a == -1);
  cacs_cond_signal(&cv);
  cacs_join(a);
  cacs_join(b); // B times out after 200 ms
  int saw = (res_a == 0) + (res_b == 0);
  EXPECT(res_a == 0 && res_b == ETIMEDOUT);
  printf("timeout vs signal: 1 signal, %d waiter saw it %s\n", saw, OK);
}

// --- a bounded buffer on two condition variables ------------------------------
enum { BUFCAP = 4, NPROD = 3, PER = 1000 };
static int buf[BUFCAP], head, count;
static cacs_cond not_full = CACS_COND_INIT, not_empty = CACS_COND_INIT;
static long sum;
static int received;

static void producer(void *arg) {
  int base = (int)(long)arg;
  for (int i = 0; i < PER; i++) {
    cacs_mutex_lock(&m, CACS_FOREVER);
    while (count == BUFCAP)
      cacs_cond_wait(&not_full, &m, CACS_FOREVER);
    buf[(head + count++) % BUFCAP] = base + i;
    cacs_cond_signal(&not_empty);
    cacs_mutex_unlock(&m);
  }
}

static void consumer(void *arg) {
  (void)arg;
  for (;;) {
    cacs_mutex_lock(&m, CACS_FOREVER);
    while (count == 0 && received < NPROD * PER)
      cacs_cond_wait(&not_empty, &m, CACS_FOREVER);
    if (count == 0) { // all received
      cacs_cond_broadcast(&not_empty);
      cacs_mutex_unlock(&m);
      return;
    }
    sum += buf[head];
    head = (head + 1) % BUFCAP;
    count--;
    received++;
    if (received == NPROD * PER)
      cacs_cond_broadcast(&not_empty);
    cacs_cond_signal(&not_full);
    cacs_mutex_unlock(&m);
    if (received % 3 == 0)
      cacs_yield();
  }
}

static void test_bounded_buffer(void) {
  cacs_coro *c[NPROD + 2];
  for (long i = 0; i < NPROD; i++)
    c[i] = cacs_create(producer, (void *)(i * PER), 0);
  c[NPROD] = cacs_create(consumer, NULL, 0);
  c[NPROD + 1] = cacs_create(consumer, NULL, 0);
  for (int i = 0; i < NPROD + 2; i++)
    cacs_join(c[i]);
  // Items 0 .. 2999, each once.
  long expect = (long)(NPROD * PER) * (NPROD * PER - 1) / 2;
  EXPECT(sum == expect && received == NPROD * PER);
  printf("bounded buffer: %d items, sum %ld %s\n", received, sum, OK);
}

int main(void) {
  test_start(30);
  test_broadcast();
  test_signal();
  test_timeouts();
  test_timeout_not_needed();
  test_timeout_signal_race();
  test_bounded_buffer();
  EXPECT(cacs_count() == 0);
  return test_end();
}
