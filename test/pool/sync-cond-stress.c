// Lost wake-ups on the pool condition variable: producers and consumers,
// pool tasks and a plain thread of each, share a bounded queue of SLOTS
// items behind one mutex and two condition variables (not-empty,
// not-full), on 2 workers. Every producer puts ITEMS distinct items, every
// consumer takes exactly ITEMS: each item must be taken once (a seen-table
// and a sum of hashes), every wait must return owning the mutex (relocking
// fails with EDEADLK), and the run must end (watchdog: a lost wake-up
// fails it instead of hanging).
//
// Phase 1 gives each producer-consumer pair a queue of one slot of its own
// (and two condition variables: one waiter each), all behind the one
// mutex, and only signals (one per put and per take, under the mutex or
// right after unlocking it, at random) with untimed waits: a signal lost
// there (a waiter not woken, or a signal that missed a waiter on its way
// to the queue) stops its pair for good, the producer waiting for room,
// the consumer for the item already there. Phase 2 shares one queue of
// SLOTS among all, signals only: the longest of several waiters is
// chosen, others barge. Phase 3 mixes in broadcasts (under the mutex and
// after it) and timed waits (0 to 200 us; a timed-out waiter re-checks),
// whose wakes race with the timers.
//
// The lock code on the mock pool (a task per OS thread) under TSan; the
// pool, CES and dispatch mutexes, with running coroutines migrating; the
// default pool, whose started coroutines never change workers (checked
// after every wait), with libcacs built with TSan on LLVM 19.
// RUN: %clang -O1 -g -fsanitize=thread -DPSYNC_MOCK -I%cacs_include -I%cacs_src_root/runtime/lib/pool -I%S/Inputs %s %cacs_src_root/runtime/lib/pool/pool_sync.c -lpthread -o %t.mock
// RUN: %t.mock ces 2>&1 | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t ces 2>&1 | FileCheck %s
// RUN: %t dispatch 2>&1 | FileCheck %s
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t.pinned
// RUN: %t.pinned ces 2>&1 | FileCheck %s --check-prefixes=CHECK,PINNED
// RUN: %if llvm-19 %{ %clang -O1 -g -fsanitize=thread -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include -I%S/Inputs %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -I%cacs_include) -lpthread -o %t.pinned-tsan %}
// RUN: %if llvm-19 %{ %t.pinned-tsan ces 2>&1 | FileCheck %s --check-prefixes=CHECK,PINNED %}
//
// CHECK-NOT: ThreadSanitizer
// CHECK-NOT: watchdog
// CHECK: pairs: items 14000, each once 1, sums equal 1, consumers done 1
// CHECK: signals: items 14000, each once 1, sums equal 1, consumers done 1
// CHECK: mixed: items 14000, each once 1, sums equal 1, consumers done 1
// PINNED: moved 0
#include "psync.h"

#include <string.h>

enum { SLOTS = 4, PAIRS = 7, TASK_PAIRS = 6, ITEMS = 2000 };

// A bounded queue and its two condition variables, all behind `mu`.
struct queue {
  uint64_t ring[SLOTS];
  unsigned head, count, slots;
  cacs_pool_cond not_empty, not_full;
};

static cacs_pool_mutex mu;
static struct queue shared, pair[PAIRS]; // guarded by mu, as the rest
static int pairs; // phase 1
static unsigned char seen[PAIRS][ITEMS];
static uint64_t sum_put, sum_taken;
static int consumers_done, moved;
static int mixed; // phase 2

static uint64_t item_of(unsigned producer, unsigned seq) {
  return (uint64_t)producer << 32 | seq;
}

static uint64_t hash(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

// Owning the mutex after a wait (whatever it returned): relocking fails.
static void check_owner(void) {
  H_CHECK(cacs_pool_mutex_lock(&mu, 0) == -1 && errno == EDEADLK);
}

// Wait on `c` for the predicate the caller re-checks; phase 2 waits with
// a timeout now and then.
static void wait_on(cacs_pool_cond *c, uint64_t *rng, int worker) {
  int64_t timeout = CACS_POOL_FOREVER;
  if (mixed && h_rand(rng) % 4 == 0)
    timeout = h_rand(rng) % 201;
  int r = cacs_pool_cond_wait(c, &mu, timeout);
  H_CHECK(r == 0 || (r == -1 && errno == ETIMEDOUT && timeout >= 0));
  check_owner();
  if (worker >= 0 && h_worker() != worker)
    moved++;
}

// Wake after a put or a take: a signal, in phase 2 sometimes a broadcast,
// under the mutex or right after unlocking it.
static void notify_unlock(cacs_pool_cond *c, uint64_t *rng) {
  unsigned r = h_rand(rng);
  int all = mixed && r % 4 == 0, held = (r >> 8) & 1;
  if (held)
    all ? cacs_pool_cond_broadcast(c) : cacs_pool_cond_signal(c);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  if (!held)
    all ? cacs_pool_cond_broadcast(c) : cacs_pool_cond_signal(c);
}

static void body(void *arg) {
  intptr_t i = (intptr_t)arg;
  // Tasks 0 .. 2*TASK_PAIRS-1 alternate; the plain threads come after.
  int producer = i < 2 * TASK_PAIRS ? i % 2 == 0 : i == 2 * TASK_PAIRS;
  unsigned id = i < 2 * TASK_PAIRS ? (unsigned)i / 2 : TASK_PAIRS;
  uint64_t rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1 + 100 * mixed);
  rng += pairs;
  int worker = i < 2 * TASK_PAIRS ? h_worker() : -1;
  for (unsigned n = 0; n < ITEMS; ++n) {
    struct queue *q = pairs ? &pair[id] : &shared;
    H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
    if (producer) {
      while (q->count == q->slots)
        wait_on(&q->not_full, &rng, worker);
      uint64_t v = item_of(id, n);
      q->ring[(q->head + q->count++) % q->slots] = v;
      sum_put += hash(v);
      notify_unlock(&q->not_empty, &rng);
    } else {
      while (q->count == 0)
        wait_on(&q->not_empty, &rng, worker);
      uint64_t v = q->ring[q->head];
      q->head = (q->head + 1) % q->slots;
      q->count--;
      seen[v >> 32][(uint32_t)v]++;
      sum_taken += hash(v);
      consumers_done += n == ITEMS - 1;
      notify_unlock(&q->not_full, &rng);
    }
    if (h_rand(&rng) % 8 == 0)
      h_yield();
  }
}

static void queue_init(struct queue *q, unsigned slots) {
  memset(q, 0, sizeof *q);
  q->slots = slots;
  cacs_pool_cond_init(&q->not_empty);
  cacs_pool_cond_init(&q->not_full);
}

static void phase(const char *name) {
  memset(seen, 0, sizeof seen);
  sum_put = sum_taken = 0;
  consumers_done = 0;
  h_run_all(body, 2 * TASK_PAIRS, 2);
  int once = 1;
  for (int p = 0; p < PAIRS; ++p)
    for (int s = 0; s < ITEMS; ++s)
      once &= seen[p][s] == 1;
  printf("%s: items %d, each once %d, sums equal %d, consumers done %d\n",
         name, PAIRS * ITEMS, once, sum_put == sum_taken,
         consumers_done == PAIRS);
  fflush(stdout);
}

int main(int argc, char **argv) {
  H_CHECK(argc == 2);
  h_watchdog(30);
  int dispatch = strcmp(argv[1], "dispatch") == 0;
  H_CHECK(cacs_pool_mutex_init(&mu, dispatch ? CACS_POOL_LOCK_DISPATCH
                                             : CACS_POOL_LOCK_CES) == 0);
  queue_init(&shared, SLOTS);
  for (int p = 0; p < PAIRS; ++p)
    queue_init(&pair[p], 1);
  h_start(2);
  pairs = 1;
  phase("pairs");
  pairs = 0;
  phase("signals");
  mixed = 1;
  phase("mixed");
  h_stop();
  printf("moved %d\n", moved);
  return 0;
}
