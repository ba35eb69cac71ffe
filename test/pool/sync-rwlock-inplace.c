// The reader-writer lock runs a granted waiter in the releaser's place by
// the mutex's rule (lib/pool/pool_waiter.h, inplace_pays): in a default
// pool only one homed on the releasing worker. A writer holds the lock on
// its worker; a reader homed on the other worker queues, then one homed on
// the writer's. The writer's release grants both: the second runs in its
// place, before the release returns ("local reader ran in place: 1");
// the first is made runnable on its own worker. Taking the first granted,
// as before, the release tried to hand over to the other worker's reader
// (a wake, no switch) and returned before the local one ran.
// Where each starts is set up as sync-mutex-local-wake.c does: `far` is
// spawned while the writer polls without switching (the idle worker takes
// it), a busy coroutine (h_busy) then takes that worker, and `near`,
// spawned then, runs on the writer's.
//
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include \
// RUN:   -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
//
// CHECK: set up: far on the other worker 1, near on the writer's 1
// CHECK-NEXT: local reader ran in place: 1
#include "psync.h"

static cacs_pool_rwlock rw = CACS_POOL_RWLOCK_INIT;
static int where[2], ran[2], writer_worker, in_place;
enum { FAR, NEAR };

static void reader(void *arg) {
  int k = (int)(intptr_t)arg;
  __atomic_store_n(&where[k], h_worker(), __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_rwlock_rdlock(&rw, CACS_POOL_FOREVER) == 0);
  __atomic_store_n(&ran[k], 1, __ATOMIC_RELAXED);
  H_CHECK(cacs_pool_rwlock_rdunlock(&rw) == 0);
}

static void writer(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_rwlock_wrlock(&rw, CACS_POOL_FOREVER) == 0);
  writer_worker = h_worker();
  h_spawn(reader, (void *)(intptr_t)FAR);
  while (h_rwlock_waiters(&rw) < 1)
    sched_yield();
  h_spawn(h_busy, NULL);
  while (!__atomic_load_n(&h_busy_started, __ATOMIC_ACQUIRE))
    sched_yield();
  h_spawn(reader, (void *)(intptr_t)NEAR);
  while (h_rwlock_waiters(&rw) < 2)
    h_yield();
  H_CHECK(cacs_pool_rwlock_wrunlock(&rw) == 0);
  in_place = __atomic_load_n(&ran[NEAR], __ATOMIC_RELAXED);
  __atomic_store_n(&h_busy_done, 1, __ATOMIC_RELEASE);
}

int main(void) {
  h_watchdog(60);
  h_start(2);
  h_spawn(writer, NULL);
  h_join_all();
  h_stop();
  printf("set up: far on the other worker %d, near on the writer's %d\n",
         where[FAR] != writer_worker, where[NEAR] == writer_worker);
  printf("local reader ran in place: %d\n", in_place);
  return 0;
}
