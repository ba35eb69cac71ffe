// The pool reader-writer lock's release with both readers queued and a
// writer waiting for the writers' mutex (lib/pool/pool_sync.c, "reader-
// writer lock"): it grants the readers and may keep one to run in its own
// place, and it unlocks the writers' mutex. That unlock must not run the
// waiting writer in its place while the granted reader is still held by
// the releaser (not yet runnable, to run only once the releaser runs
// again): the writer marks the lock and waits for that reader, counted in,
// which waits for the releaser, queued behind the writer (issue 37).
//
// On the mock pool (every task a thread, pool_sync.c alone; a hand-off a
// wake): a writer holds the lock, a reader queues, a second writer queues
// for the writers' mutex; the first writer releases. At every hand-off to
// the second writer the reader must be runnable already. Before the fix
// the mutex's unlock handed over to the second writer, the reader still
// parked ("held behind a writer run in place: 1").
//
// RUN: %clang -O2 -DPSYNC_MOCK -I%cacs_include \
// RUN:   -I%cacs_src_root/runtime/lib/pool -I%S/Inputs %s \
// RUN:   %cacs_src_root/runtime/lib/pool/pool_sync.c -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
//
// CHECK: granted reader held behind a writer run in place: 0, all in: 1
#include "psync.h"

static cacs_pool_rwlock rw = CACS_POOL_RWLOCK_INIT;
static cacs__ptask *reader_task, *writer2_task;
static int held, ran;

static int parked(cacs__ptask *t) {
  pthread_mutex_lock(&t->mu);
  int p = t->parked;
  pthread_mutex_unlock(&t->mu);
  return p;
}

static void on_handoff(cacs__ptask *t) {
  cacs__ptask *r = __atomic_load_n(&reader_task, __ATOMIC_ACQUIRE);
  if (t == __atomic_load_n(&writer2_task, __ATOMIC_ACQUIRE) && r && parked(r))
    __atomic_store_n(&held, 1, __ATOMIC_RELAXED);
}

// The reader (arg 0) and the second writer (arg 1).
static void locker(void *arg) {
  int w = (int)(intptr_t)arg;
  __atomic_store_n(w ? &writer2_task : &reader_task, h_cur, __ATOMIC_RELEASE);
  H_CHECK((w ? cacs_pool_rwlock_wrlock
             : cacs_pool_rwlock_rdlock)(&rw, CACS_POOL_FOREVER) == 0);
  __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
  H_CHECK((w ? cacs_pool_rwlock_wrunlock : cacs_pool_rwlock_rdunlock)(&rw) ==
          0);
}

static void writer(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER) == 0);
  h_spawn(locker, (void *)0);
  while (h_rwlock_waiters(&rw) < 1)
    sched_yield();
  h_spawn(locker, (void *)1);
  while (h_rwlock_waiters(&rw) < 2)
    sched_yield();
  H_CHECK(cacs_pool_rwlock_wrunlock(&rw) == 0);
}

int main(void) {
  h_watchdog(60);
  h_on_handoff = on_handoff;
  h_start(2);
  h_spawn(writer, NULL);
  h_join_all();
  h_stop();
  printf("granted reader held behind a writer run in place: %d, all in: %d\n",
         held, ran == 2);
  return 0;
}
