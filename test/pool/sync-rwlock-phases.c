// The pool reader-writer lock's phases (lib/pool/pool_sync.c, "Phases"):
//
//   batch  a writer's release grants every reader queued, those behind a
//          queued writer too, and they are in together: a writer holds
//          the lock, a reader, a writer and a reader queue in that order;
//          at its release both readers go in (the second without waiting
//          for the queued writer) and the writer last. Served first come
//          first served (before issue 37) the order was R W R.
//   bound  a queued writer is not starved: reader tasks that keep the
//          lock read-held between them (each yields inside; one is always
//          in) each pass a queued writer at most once (twice, counting an
//          entry that raced with its queuing), in every one of ROUNDS
//          writes. Readers that go in while any reader is in would pass it
//          until they stop (thousands of times).
//   wake   no lost wake: pool tasks and plain threads, readers and writers
//          at random, untimed mostly, some with short timeouts (a timed
//          out writer lets the readers behind it in), some yielding
//          inside; every one finishes (else the watchdog fails the test),
//          writes are not lost and a writer is alone inside.
//
// Default pool and migrating pool; the wake mode under ThreadSanitizer too,
// on the pool (libcacs built with it) and on the harness's threads.
//
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include \
// RUN:   -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t.pinned
// RUN: %t.pinned batch 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: %t.pinned bound 2>&1 | FileCheck %s --check-prefix=BOUND
// RUN: %t.pinned wake 2>&1 | FileCheck %s --check-prefix=WAKE
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s \
// RUN:   %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t batch 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: %t bound 2>&1 | FileCheck %s --check-prefix=BOUND
// RUN: %t wake 2>&1 | FileCheck %s --check-prefix=WAKE
// RUN: %clang -O1 -g -fsanitize=thread -fcoroutine-migration \
// RUN:   -I%cacs_include -I%S/Inputs %s $(%cacs_rt_objs %clang -O1 -g \
// RUN:   -fsanitize=thread -fcoroutine-migration -I%cacs_include) \
// RUN:   -lpthread -o %t.tsan
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t.tsan wake 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WAKE
// RUN: %clang -O1 -g -fsanitize=thread -DPSYNC_MOCK -I%cacs_include \
// RUN:   -I%cacs_src_root/runtime/lib/pool -I%S/Inputs %s \
// RUN:   %cacs_src_root/runtime/lib/pool/pool_sync.c -lpthread -o %t.mock
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t.mock wake 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WAKE
//
// BATCH: batch: order R R W, readers in together 1
// BOUND: bound: writes 20, reads passing a queued writer at most 2: 1
// WAKE-NOT: ThreadSanitizer
// WAKE: wake: all done 1, writes 1 of 1, writer not alone 0
#include "psync.h"

static cacs_pool_rwlock rw = CACS_POOL_RWLOCK_INIT;

// --- batch -------------------------------------------------------------------

static int seq, rank_of[3], readers_in, together;

static void b_reader(void *arg) {
  H_CHECK(cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER) == 0);
  rank_of[(intptr_t)arg] = __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
  // Stay in a while for the other reader (a bounded wait: served first
  // come first served it comes only after the writer, after this one).
  if (__atomic_add_fetch(&readers_in, 1, __ATOMIC_RELAXED) == 2)
    __atomic_store_n(&together, 1, __ATOMIC_RELAXED);
  for (int i = 0; i < 2000 && !__atomic_load_n(&together, __ATOMIC_RELAXED);
       ++i) {
    h_yield();
    sched_yield();
  }
  __atomic_sub_fetch(&readers_in, 1, __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_rwlock_rdunlock(&rw) == 0);
}

static void b_writer(void *arg) {
  H_CHECK(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER) == 0);
  rank_of[(intptr_t)arg] = __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_rwlock_wrunlock(&rw) == 0);
}

static void batch(void) {
  // The main thread (a plain thread) holds the lock while they queue.
  H_CHECK(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER) == 0);
  void (*fn[3])(void *) = {b_reader, b_writer, b_reader};
  for (intptr_t i = 0; i < 3; ++i) {
    h_spawn(fn[i], (void *)i);
    while (h_rwlock_waiters(&rw) < i + 1)
      sched_yield();
  }
  H_CHECK(cacs_pool_rwlock_wrunlock(&rw) == 0);
  h_join_all();
  char order[3];
  for (int i = 0; i < 3; ++i)
    order[rank_of[i] - 1] = i == 1 ? 'W' : 'R';
  printf("batch: order %c %c %c, readers in together %d\n", order[0], order[1],
         order[2], together);
}

// --- bound -------------------------------------------------------------------

enum { READERS = 4, READER_ITERS = 20000, ROUNDS = 20, BOUND = 2 };
static int want, stop, started, writes;
static int passed[READERS];

static void r_loop(void *arg) {
  int k = (int)(intptr_t)arg;
  for (int i = 0; i < READER_ITERS && !__atomic_load_n(&stop, __ATOMIC_RELAXED);
       ++i) {
    H_CHECK(cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER) == 0);
    __atomic_add_fetch(&started, 1, __ATOMIC_RELAXED);
    // In while the writer waits queued (it is the only waiter, or readers
    // queue behind it): a reader that passed it.
    if (__atomic_load_n(&want, __ATOMIC_RELAXED) && h_rwlock_waiters(&rw))
      __atomic_add_fetch(&passed[k], 1, __ATOMIC_RELAXED);
    h_yield();
    h_yield();
    H_CHECK(cacs_pool_rwlock_rdunlock(&rw) == 0);
  }
}

static void w_rounds(void *arg) {
  (void)arg;
  while (__atomic_load_n(&started, __ATOMIC_RELAXED) < 100)
    h_yield();
  int worst = 0;
  for (int r = 0; r < ROUNDS; ++r) {
    for (int k = 0; k < READERS; ++k)
      __atomic_store_n(&passed[k], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&want, 1, __ATOMIC_RELAXED);
    H_CHECK(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER) == 0);
    __atomic_store_n(&want, 0, __ATOMIC_RELAXED);
    for (int k = 0; k < READERS; ++k) {
      int p = __atomic_load_n(&passed[k], __ATOMIC_RELAXED);
      worst = p > worst ? p : worst;
    }
    writes++;
    H_CHECK(cacs_pool_rwlock_wrunlock(&rw) == 0);
    for (int i = 0; i < 10; ++i)
      h_yield();
  }
  __atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
  printf("bound: writes %d, reads passing a queued writer at most %d: %d\n",
         writes, BOUND, worst <= BOUND);
  if (worst > BOUND)
    printf("bound: a reader passed it %d times\n", worst);
}

static void bound(void) {
  for (intptr_t k = 0; k < READERS; ++k)
    h_spawn(r_loop, (void *)k);
  h_spawn(w_rounds, NULL);
  h_join_all();
}

// --- wake --------------------------------------------------------------------

enum { TASKS = 16, PLAIN = 2, ITERS = 400 };
static long w_writes, w_expected;
static int w_readers_in, w_writers_in, not_alone, done_tasks;

static void body(void *arg) {
  uint64_t seed = (uintptr_t)arg * 0x9e3779b97f4a7c15u + 7;
  for (int i = 0; i < ITERS; ++i) {
    uint32_t r = h_rand(&seed);
    // One wait in 4 with a timeout of 0-200 us, the others untimed.
    int64_t to = r % 4 == 0 ? (int64_t)(r >> 8) % 200 : CACS_POOL_FOREVER;
    if (r % 5 == 0) {
      if (cacs_pool_rwlock_wrlock(&rw, to) != 0) {
        H_CHECK(to >= 0 && errno == ETIMEDOUT);
        continue;
      }
      if (__atomic_load_n(&w_readers_in, __ATOMIC_RELAXED) || w_writers_in++)
        not_alone++;
      long w = w_writes;
      if (r % 7 == 0)
        h_yield();
      w_writes = w + 1;
      w_writers_in--;
      __atomic_add_fetch(&w_expected, 1, __ATOMIC_RELAXED);
      H_CHECK(cacs_pool_rwlock_wrunlock(&rw) == 0);
    } else {
      if (cacs_pool_rwlock_rdlock(&rw, to) != 0) {
        H_CHECK(to >= 0 && errno == ETIMEDOUT);
        continue;
      }
      __atomic_add_fetch(&w_readers_in, 1, __ATOMIC_RELAXED);
      long seen = w_writes; // read under the lock: no race
      (void)seen;
      if (r % 7 == 0)
        h_yield();
      __atomic_sub_fetch(&w_readers_in, 1, __ATOMIC_RELAXED);
      H_CHECK(cacs_pool_rwlock_rdunlock(&rw) == 0);
    }
  }
  __atomic_add_fetch(&done_tasks, 1, __ATOMIC_RELAXED);
}

static void wake(void) {
  h_run_all(body, TASKS, PLAIN);
  printf("wake: all done %d, writes %d of 1, writer not alone %d\n",
         done_tasks == TASKS + PLAIN, w_writes == w_expected && w_writes > 0,
         not_alone);
}

int main(int argc, char **argv) {
  H_CHECK(argc > 1);
  h_watchdog(60);
  h_start(2);
  if (!strcmp(argv[1], "batch"))
    batch();
  else if (!strcmp(argv[1], "bound"))
    bound();
  else if (!strcmp(argv[1], "wake"))
    wake();
  else
    H_CHECK(0);
  h_stop();
  return 0;
}
