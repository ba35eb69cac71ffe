// Where a coroutine woken by a pool coroutine runs, in a pool whose running
// coroutines migrate (pool_ready.c, run_next): next on the waker's worker,
// which no other worker takes from it for a grace time; and once the waker
// runs on past that, an idle worker takes it (the bound).
//
// "cond": one producer and one consumer pass ITEMS items through a queue
// of one slot behind a mutex and two condition variables, on 2 workers:
// each item is a signal to the other side, which then waits, a chain of
// wakes with one coroutine ready at a time (bench/locks' cond shape at
// one slot). Under the mutex, the signaller writes its worker; a waiter
// back from its wait counts whether it runs on another one. On the
// waker's deque (before), an idle worker spinning for work took the woken
// one in the few hundred ns before its waker waited, and the chain
// crossed workers at about one wait in eight (5102 of 39985 waits, run
// under `chrt -f 1`, which gives the workers CPUs as idle as a quiet
// machine's: seen failing so); run next, it stays on the waker's worker
// unless the kernel stops the waker for the grace time. On a loaded
// machine the idle worker rarely runs (it yields its CPU while it spins),
// so the check cannot fail there.
// "hog": the signaller runs on after its signal, without switching, until
// the woken waiter has run (on the other worker), or for 5 s: it must run
// meanwhile.
//
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t cond | FileCheck %s --check-prefix=CHAIN
// RUN: %t hog | FileCheck %s --check-prefix=HOG
// RUN: %if llvm-19 %{ %clang -O1 -g -fsanitize=thread -I%cacs_include -I%S/Inputs %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -I%cacs_include) -lpthread -o %t.tsan %}
// RUN: %if llvm-19 %{ %t.tsan cond 2>&1 | FileCheck %s --check-prefixes=TSAN,ITEMS %}
// RUN: %if llvm-19 %{ %t.tsan hog 2>&1 | FileCheck %s --check-prefixes=TSAN,HOG %}
// (Under TSan the waker's path to its wait may outlast the grace time: only
// the items and the bound.)
//
// TSAN-NOT: ThreadSanitizer
// CHAIN: items {{[0-9]+}}, sums equal 1, waits {{[1-9][0-9]*}}, woken on another worker {{[0-9]+}}: at most 1 in 20 1
// ITEMS: items 20000, sums equal 1, waits
// HOG: woken ran while its waker ran 1, on another worker 1
#include "psync.h"

enum { ITEMS = 20000, HOG_NS = 5000000000 };

static cacs_pool_mutex mu = CACS_POOL_MUTEX_INIT;
static cacs_pool_cond not_empty = CACS_POOL_COND_INIT,
                      not_full = CACS_POOL_COND_INIT;
static int full, slot, signaller; // under mu
static long waits, cross, sent, got;

// Wait on `c` while the queue is `busy` (full or empty); counts the waits
// and those that resumed away from the signaller's worker.
static void wait_while(cacs_pool_cond *c, int busy) {
  while (full == busy) {
    H_CHECK(cacs_pool_cond_wait(c, &mu, CACS_POOL_FOREVER) == 0);
    if (full != busy) { // woken by the other side's signal
      ++waits;
      cross += h_worker() != signaller;
    }
  }
}

static void producer(void *arg) {
  (void)arg;
  for (int i = 1; i <= ITEMS; ++i) {
    H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
    wait_while(&not_full, 1);
    slot = i, full = 1, sent += i, signaller = h_worker();
    cacs_pool_cond_signal(&not_empty);
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  }
}

static void consumer(void *arg) {
  (void)arg;
  for (int i = 1; i <= ITEMS; ++i) {
    H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
    wait_while(&not_empty, 0);
    got += slot, full = 0, signaller = h_worker();
    cacs_pool_cond_signal(&not_full);
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  }
}

static int ready, go, ran, ran_on;
static int hog_ran, hog_on;

static void hog_waiter(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
  ready = 1; // released only inside the wait below
  while (!go)
    H_CHECK(cacs_pool_cond_wait(&not_empty, &mu, CACS_POOL_FOREVER) == 0);
  ran_on = h_worker();
  __atomic_store_n(&ran, 1, __ATOMIC_RELEASE);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

static void hog(void *arg) {
  (void)arg;
  for (;;) { // until the waiter waits
    H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
    if (ready)
      break;
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
    h_yield();
  }
  go = 1;
  // Signalled after the unlock: the woken waiter finds the mutex free (a
  // contended unlock would hand it over and run it in the hog's place).
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  cacs_pool_cond_signal(&not_empty);
  hog_on = h_worker();
  uint64_t t0 = h_now_ns();
  while (!__atomic_load_n(&ran, __ATOMIC_ACQUIRE) &&
         h_now_ns() - t0 < HOG_NS)
    ;
  hog_ran = __atomic_load_n(&ran, __ATOMIC_ACQUIRE);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s cond|hog\n", argv[0]);
    return 2;
  }
  h_watchdog(120);
  h_start(2);
  if (!strcmp(argv[1], "hog")) {
    h_spawn(hog_waiter, NULL);
    h_spawn(hog, NULL);
    h_join_all();
    h_stop();
    printf("woken ran while its waker ran %d, on another worker %d\n",
           hog_ran, ran_on != hog_on);
    return 0;
  }
  h_spawn(consumer, NULL);
  h_spawn(producer, NULL);
  h_join_all();
  h_stop();
  printf("items %d, sums equal %d, waits %ld, woken on another worker %ld: "
         "at most 1 in 20 %d\n",
         ITEMS, sent == got, waits, cross, cross * 20 <= waits);
  return 0;
}
