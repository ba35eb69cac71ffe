// The pool reader-writer lock's spins (lib/pool/pool_sync.c, "reader-
// writer lock"): a locker that finds the lock held by someone running
// spins for it, a bounded while, and takes it without parking, rather than
// queue and be woken across workers by the release (issue 37):
//
//   reader  a writer holds the lock; a reader comes: it spins (seen in the
//           lock's spinner count, nobody queued), and once the writer
//           releases it goes in without a park.
//   writer  a reader holds the lock; a writer comes: it takes the
//           writers' mutex, marks the lock and spins (seen as above);
//           meanwhile a new reader is kept out (tryrdlock fails with
//           EBUSY: a writer is not starved by readers that keep coming);
//           once the reader leaves, the writer goes in without a park.
//
// On the mock pool (every task a thread, pool_sync.c alone), where the
// holder always may run and spinning needs no second worker. A round
// counts when the holder saw the spin before it released; a spin runs out
// after 2 us, which a loaded machine's scheduler may take from either
// thread, and a spin run out is then tried one time in 8: up to ROUNDS
// rounds, until one counts. The spin removed, no round ever does (the
// locker queues and the holder sees it queued).
//
// RUN: %clang -O2 -DPSYNC_MOCK -I%cacs_include \
// RUN:   -I%cacs_src_root/runtime/lib/pool -I%S/Inputs %s \
// RUN:   %cacs_src_root/runtime/lib/pool/pool_sync.c -lpthread -o %t
// RUN: %t reader 2>&1 | FileCheck %s --check-prefix=READER
// RUN: %t writer 2>&1 | FileCheck %s --check-prefix=WRITER
//
// READER: reader: spun for the writer and went in without a park: 1
// WRITER: writer: pending, kept a new reader out, went in without a park: 1
#include "psync.h"

enum { ROUNDS = 400 };

static cacs_pool_rwlock rw = CACS_POOL_RWLOCK_INIT;
static int go, spun, held, kept_out, parks;

static int spinning(void) {
  return __atomic_load_n(&rw.spinners, __ATOMIC_RELAXED) > 0;
}

// The holder's side: hold until the locker spins or queues; 1 if it spun.
static int hold_for_locker(void) {
  __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
  for (unsigned i = 1;; ++i) {
    if (spinning())
      return 1;
    // Rarely: the look takes the spin lock the locker queues under.
    if (!(i % 64) && h_rwlock_waiters(&rw))
      return 0;
  }
}

// --- reader ------------------------------------------------------------------

static void r_writer(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER) == 0);
  __atomic_store_n(&spun, hold_for_locker(), __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_rwlock_wrunlock(&rw) == 0);
}

static void r_reader(void *arg) {
  (void)arg;
  while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
    sched_yield();
  int p0 = __atomic_load_n(&h_parks, __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER) == 0);
  parks = __atomic_load_n(&h_parks, __ATOMIC_RELAXED) - p0;
  H_CHECK(cacs_pool_rwlock_rdunlock(&rw) == 0);
}

// --- writer ------------------------------------------------------------------

static void w_reader(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER) == 0);
  __atomic_store_n(&held, 1, __ATOMIC_RELEASE);
  int s = hold_for_locker();
  // Pending (spinning with readers in): a new reader stays out.
  int out = cacs_pool_rwlock_tryrdlock(&rw) != 0 && errno == EBUSY;
  if (!out)
    H_CHECK(cacs_pool_rwlock_rdunlock(&rw) == 0);
  __atomic_store_n(&spun, s, __ATOMIC_RELAXED);
  __atomic_store_n(&kept_out, out, __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_rwlock_rdunlock(&rw) == 0);
}

static void w_writer(void *arg) {
  (void)arg;
  while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
    sched_yield();
  int p0 = __atomic_load_n(&h_parks, __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER) == 0);
  parks = __atomic_load_n(&h_parks, __ATOMIC_RELAXED) - p0;
  H_CHECK(cacs_pool_rwlock_wrunlock(&rw) == 0);
}

int main(int argc, char **argv) {
  H_CHECK(argc > 1);
  h_watchdog(60);
  h_start(2);
  int reader = !strcmp(argv[1], "reader");
  H_CHECK(reader || !strcmp(argv[1], "writer"));
  int ok = 0;
  for (int r = 0; r < ROUNDS && !ok; ++r) {
    go = held = spun = kept_out = 0;
    parks = -1;
    if (reader) {
      h_spawn(r_writer, NULL);
      h_spawn(r_reader, NULL);
    } else {
      h_spawn(w_reader, NULL);
      h_spawn(w_writer, NULL);
    }
    h_join_all();
    ok = spun && parks == 0 && (reader || kept_out);
  }
  h_stop();
  if (reader)
    printf("reader: spun for the writer and went in without a park: %d\n", ok);
  else
    printf("writer: pending, kept a new reader out, went in without a park: "
           "%d\n",
           ok);
  return 0;
}
