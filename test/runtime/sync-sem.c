// cacs_sem: at most N coroutines inside, units handed to waiters in arrival
// order (a newcomer cannot take a unit a waiter was given), timeouts that
// fire and that do not, and a post meeting a waiter whose timeout expired
// in the same instant (the unit is neither lost nor duplicated).
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
//
// CHECK: limit: 20 coroutines, at most 3 inside ok
// CHECK-NEXT: fifo: 1 2 3 4, no overtaking ok
// CHECK-NEXT: timeouts: try EAGAIN, ETIMEDOUT after the deadline, posted in time ok
// CHECK-NEXT: timeout vs post: the waiter took the unit, 0 left ok
// CHECK-NEXT: PASS

#include "Inputs/sync-test.h"
#include "cacs/sync.h"

#include <errno.h>

static cacs_sem sem;

// --- at most 3 inside -------------------------------------------------------------
static int inside, max_inside;
static void limit_entry(void *arg) {
  long k = (long)arg;
  for (int i = 0; i < 20; i++) {
    EXPECT(cacs_sem_wait(&sem, CACS_FOREVER) == 0);
    if (++inside > max_inside)
      max_inside = inside;
    for (long j = 0; j <= k % 3; j++)
      cacs_yield();
    if (i % 5 == 0)
      cacs_sleep(20);
    inside--;
    cacs_sem_post(&sem);
  }
}

static void test_limit(void) {
  cacs_sem_init(&sem, 3);
  cacs_coro *c[20];
  for (long i = 0; i < 20; i++)
    c[i] = cacs_create(limit_entry, (void *)i, 0);
  for (int i = 0; i < 20; i++)
    cacs_join(c[i]);
  EXPECT(max_inside == 3 && sem.count == 3);
  printf("limit: 20 coroutines, at most %d inside %s\n", max_inside, OK);
}

// --- FIFO ------------------------------------------------------------------------------
static int order[8], norder;
static void fifo_entry(void *arg) {
  EXPECT(cacs_sem_wait(&sem, CACS_FOREVER) == 0);
  order[norder++] = (int)(long)arg;
}

static void test_fifo(void) {
  cacs_sem_init(&sem, 0);
  cacs_coro *c[4];
  for (long i = 0; i < 4; i++) {
    c[i] = cacs_create(fifo_entry, (void *)(i + 1), 0);
    cacs_yield();
  }
  for (int i = 0; i < 4; i++) {
    cacs_sem_post(&sem);
    EXPECT(err_of(cacs_sem_trywait(&sem)) == EAGAIN); // given to the waiter
  }
  for (int i = 0; i < 4; i++)
    cacs_join(c[i]);
  printf("fifo:");
  print_order(order, norder, 4);
  EXPECT(sem.count == 0);
  printf(", no overtaking %s\n", OK);
}

// --- timeouts ------------------------------------------------------------------------
static int wait_result = -1;
static void timed_entry(void *arg) {
  wait_result = err_of(cacs_sem_wait(&sem, (int64_t)(long)arg));
}

static void test_timeouts(void) {
  cacs_sem_init(&sem, 0);
  EXPECT(err_of(cacs_sem_trywait(&sem)) == EAGAIN);
  EXPECT(err_of(cacs_sem_wait(&sem, 0)) == ETIMEDOUT);
  long long t0 = now_us();
  EXPECT(err_of(cacs_sem_wait(&sem, 3000)) == ETIMEDOUT);
  EXPECT(now_us() - t0 >= 3000 && sem.waiters.head == NULL);
  cacs_coro *c = cacs_create(timed_entry, (void *)(10L * 1000 * 1000), 0);
  cacs_yield();
  t0 = now_us();
  cacs_sleep(2000);
  cacs_sem_post(&sem);
  cacs_join(c);
  EXPECT(wait_result == 0 && now_us() - t0 < 1000000 && sem.count == 0);
  cacs_sem_post(&sem);
  EXPECT(cacs_sem_trywait(&sem) == 0 && sem.count == 0);
  printf("timeouts: try EAGAIN, ETIMEDOUT after the deadline, posted in time "
         "%s\n",
         OK);
}

// --- a post meets a waiter whose timeout just expired ---------------------
static void test_timeout_post_race(void) {
  cacs_sem_init(&sem, 0);
  wait_result = -1;
  cacs_coro *c = cacs_create(timed_entry, (void *)1000L, 0);
  cacs_yield(); // it waits, 1 ms
  spin_us(3000);
  cacs_yield(); // the service coroutine expires its timer
  EXPECT(wait_result == -1);
  cacs_sem_post(&sem); // handed to the waiter still in the queue
  cacs_join(c);
  // One unit posted: either the waiter has it (0) and none is left, or it
  // timed out and the unit is still there. Both at once is a duplicate;
  // neither is a lost unit. Hand-off wins: 0.
  EXPECT(wait_result == 0 && sem.count == 0);
  printf("timeout vs post: the waiter took the unit, %llu left %s\n",
         (unsigned long long)sem.count, OK);
}

int main(void) {
  test_start(30);
  test_limit();
  test_fifo();
  test_timeouts();
  test_timeout_post_race();
  EXPECT(cacs_count() == 0);
  return test_end();
}
