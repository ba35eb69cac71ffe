// Stress: pool tasks and plain threads hammer every primitive of
// cacs/pool_sync.h at once -- CES and dispatch mutexes, a reader-writer
// lock, a condition variable, a semaphore, a channel, a wait group -- with
// random yields and sleeps inside and outside the critical sections and
// random timeouts, so that coroutines migrate between the 2 workers in
// the middle of every kind of wait. Bounded in time: tasks start no new
// operation after the window (argv[1] ms), every wait that could outlive
// it has a timeout. At the end every count must balance.
//
// libcacs built with ThreadSanitizer (its fiber annotations follow the
// coroutines across workers): no report.
// RUN: %clang -O1 -g -fsanitize=thread -fcoroutine-migration -I%cacs_include -I%S/Inputs %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -fcoroutine-migration -I%cacs_include) -lpthread -o %t.tsan
// RUN: %t.tsan 1500 2>&1 | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 1000 2>&1 | FileCheck %s
// The default pool (CACS_POOL_MIGRATE_UNSTARTED), built without the flag:
// the same counts balance, started coroutines never change workers (wakes
// across workers go to the woken one's home), and TSan sees the inboxes'
// hand-offs.
// RUN: %clang -O1 -g -fsanitize=thread -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include -I%S/Inputs %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -I%cacs_include) -lpthread -o %t.pinned-tsan
// RUN: %t.pinned-tsan 1500 2>&1 | FileCheck %s --check-prefix=PINNED
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t.pinned
// RUN: %t.pinned 1000 2>&1 | FileCheck %s --check-prefix=PINNED
//
// CHECK-NOT: ThreadSanitizer
// CHECK: stress: ops > 0 1, mutex ok 1, rwlock ok 1, sem ok 1, cond ok 1, chan ok 1, wg ok 1, migrated 1
// PINNED-NOT: ThreadSanitizer
// PINNED: stress: ops > 0 1, mutex ok 1, rwlock ok 1, sem ok 1, cond ok 1, chan ok 1, wg ok 1, migrated 0
#include "psync.h"

enum { TASKS = 24, PLAIN = 2, SEM_UNITS = 3 };

static cacs_pool_mutex mu_ces = CACS_POOL_MUTEX_INIT;
static cacs_pool_mutex mu_disp;
static cacs_pool_rwlock rw = CACS_POOL_RWLOCK_INIT;
static cacs_pool_mutex cmu = CACS_POOL_MUTEX_INIT;
static cacs_pool_cond cv = CACS_POOL_COND_INIT;
static cacs_pool_sem sem = CACS_POOL_SEM_INIT(SEM_UNITS);
static cacs_pool_waitgroup wg = CACS_POOL_WAITGROUP_INIT;
static cacs_pool_chan *ch;

static long c_ces, c_disp, c_rw, items;
static int rw_readers, rw_bad, sem_in, sem_bad;
static uint64_t deadline;

struct tally {
  long ces, disp, rw, produced, consumed, sent, received, ops, migrated;
} tallies[TASKS + PLAIN];

static void delay(uint64_t *seed) {
  uint32_t r = h_rand(seed) % 64;
  if (r < 8)
    h_yield();
#ifndef PSYNC_MOCK
  else if (r == 9 && cacs_pool_current())
    H_CHECK(cacs_pool_sleep(h_rand(seed) % 200) == 0);
#endif
}

// A random timeout: mostly none, sometimes short.
static int64_t tmo(uint64_t *seed) {
  uint32_t r = h_rand(seed) % 4;
  return r == 0 ? (int64_t)(h_rand(seed) % 300) : CACS_POOL_FOREVER;
}

static void locked_inc(cacs_pool_mutex *m, long *c, long *mine, uint64_t *s) {
  if (cacs_pool_mutex_lock(m, tmo(s)) != 0) {
    H_CHECK(errno == ETIMEDOUT);
    return;
  }
  long v = *c;
  delay(s);
  *c = v + 1;
  ++*mine;
  H_CHECK(cacs_pool_mutex_unlock(m) == 0);
}

static void body(void *arg) {
  intptr_t id = (intptr_t)arg;
  struct tally *t = &tallies[id];
  uint64_t seed = (uint64_t)id * 0x9e3779b97f4a7c15u + 7;
  while (h_now_ns() < deadline) {
    int w0 = h_worker();
    switch (h_rand(&seed) % 7) {
    case 0:
      locked_inc(&mu_ces, &c_ces, &t->ces, &seed);
      break;
    case 1:
      locked_inc(&mu_disp, &c_disp, &t->disp, &seed);
      break;
    case 2:
      if (h_rand(&seed) % 4 == 0) {
        if (cacs_pool_rwlock_wrlock(&rw, tmo(&seed)) != 0)
          break;
        if (__atomic_load_n(&rw_readers, __ATOMIC_RELAXED))
          rw_bad++;
        long v = c_rw;
        delay(&seed);
        c_rw = v + 1;
        t->rw++;
        H_CHECK(cacs_pool_rwlock_wrunlock(&rw) == 0);
      } else {
        if (cacs_pool_rwlock_rdlock(&rw, tmo(&seed)) != 0)
          break;
        __atomic_add_fetch(&rw_readers, 1, __ATOMIC_RELAXED);
        long v = c_rw;
        (void)v;
        delay(&seed);
        __atomic_sub_fetch(&rw_readers, 1, __ATOMIC_RELAXED);
        H_CHECK(cacs_pool_rwlock_rdunlock(&rw) == 0);
      }
      break;
    case 3:
      if (cacs_pool_sem_wait(&sem, tmo(&seed)) != 0)
        break;
      if (__atomic_add_fetch(&sem_in, 1, __ATOMIC_RELAXED) > SEM_UNITS)
        __atomic_store_n(&sem_bad, 1, __ATOMIC_RELAXED);
      delay(&seed);
      __atomic_sub_fetch(&sem_in, 1, __ATOMIC_RELAXED);
      cacs_pool_sem_post(&sem);
      break;
    case 4: // producer / consumer on a condition variable
      H_CHECK(cacs_pool_mutex_lock(&cmu, -1) == 0);
      if (h_rand(&seed) % 2) {
        items++;
        t->produced++;
        cacs_pool_cond_signal(&cv); // under the lock: the paper's rule
      } else {
        int r = 0;
        while (items == 0 && r == 0)
          r = cacs_pool_cond_wait(&cv, &cmu, 1000 + h_rand(&seed) % 1000);
        if (items > 0) {
          items--;
          t->consumed++;
        }
      }
      delay(&seed);
      H_CHECK(cacs_pool_mutex_unlock(&cmu) == 0);
      break;
    case 5: {
      long v = id;
      if (h_rand(&seed) % 2) {
        if (cacs_pool_chan_send(ch, &v, h_rand(&seed) % 500) == 0)
          t->sent++;
      } else if (cacs_pool_chan_recv(ch, &v, h_rand(&seed) % 500) == 0) {
        t->received++;
      }
      break;
    }
    case 6:
      delay(&seed);
      break;
    }
    t->ops++;
    if (w0 >= 0 && h_worker() != w0)
      t->migrated++;
  }
  cacs_pool_waitgroup_done(&wg);
}

int main(int argc, char **argv) {
  uint64_t ms = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000;
  H_CHECK(cacs_pool_mutex_init(&mu_disp, CACS_POOL_LOCK_DISPATCH) == 0);
  ch = cacs_pool_chan_create(sizeof(long), 2);
  H_CHECK(ch);
  h_start(2);
  deadline = h_now_ns() + ms * 1000000u;
  cacs_pool_waitgroup_add(&wg, TASKS + PLAIN);
  for (intptr_t i = 0; i < TASKS; ++i)
    h_spawn(body, (void *)i);
  for (intptr_t i = 0; i < PLAIN; ++i)
    h_plain(body, (void *)(TASKS + i));
  // The wait group from a plain thread: every task has finished its loop.
  H_CHECK(cacs_pool_waitgroup_wait(&wg, 60 * 1000 * 1000) == 0);
  h_join_all();
  h_stop();
  struct tally s = {0};
  for (int i = 0; i < TASKS + PLAIN; ++i) {
    s.ces += tallies[i].ces;
    s.disp += tallies[i].disp;
    s.rw += tallies[i].rw;
    s.produced += tallies[i].produced;
    s.consumed += tallies[i].consumed;
    s.sent += tallies[i].sent;
    s.received += tallies[i].received;
    s.ops += tallies[i].ops;
    s.migrated += tallies[i].migrated;
  }
  long left = 0, v;
  while (cacs_pool_chan_recv(ch, &v, 0) == 0)
    left++;
  H_CHECK(cacs_pool_chan_destroy(ch) == 0);
  fprintf(stderr, "ops %ld migrated %ld ces %ld disp %ld rw %ld prod %ld sent %ld\n",
          s.ops, s.migrated, s.ces, s.disp, s.rw, s.produced, s.sent);
  printf("stress: ops > 0 %d, mutex ok %d, rwlock ok %d, sem ok %d, cond ok %d, "
         "chan ok %d, wg ok %d, migrated %d\n",
         s.ops > 0, c_ces == s.ces && c_disp == s.disp,
         c_rw == s.rw && rw_bad == 0, sem_bad == 0 && sem.count == SEM_UNITS,
         s.produced - s.consumed == items, s.sent == s.received + left,
         wg.count == 0,
#ifdef PSYNC_MOCK
         1
#else
         s.migrated > 0
#endif
  );
  return 0;
}
