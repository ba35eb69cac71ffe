// Work stealing happens, and coroutines migrate. A pool coroutine spawns
// children, which go on its own worker's deque: the other worker can only
// get one by stealing. Each child waits (bounded: 5 s) until children have
// started on both workers, then yields until it has run on two workers
// (bounded too). A pool that never steals prints stolen=0; one that never
// moves a coroutine prints migrated=0.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t | FileCheck %s
// CHECK: stolen=yes migrated=yes runs=64

#include "cacs/pool.h"

#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { CHILDREN = 64 };

static _Atomic int root_worker = -1;
static _Atomic int stolen, migrated, runs;
static _Atomic unsigned seen; // bit i: a child started on worker i

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void child(void *arg) {
  (void)arg;
  atomic_fetch_add(&runs, 1);
  int w0 = cacs_pool_worker_index();
  atomic_fetch_or(&seen, 1u << w0);
  if (w0 != atomic_load(&root_worker))
    atomic_fetch_add(&stolen, 1);
  double until = now() + 5;
  while (atomic_load(&seen) != 3 && now() < until)
    ; // keep this worker busy: the other must steal
  for (int i = 0; i < 10000 && now() < until; ++i) {
    cacs_pool_yield();
    if (cacs_pool_worker_index() != w0) {
      atomic_fetch_add(&migrated, 1);
      break;
    }
  }
}

static void root(void *arg) {
  cacs_pool *p = arg;
  atomic_store(&root_worker, cacs_pool_worker_index());
  cacs_pool_task *t[CHILDREN];
  for (int i = 0; i < CHILDREN; ++i)
    t[i] = cacs_pool_spawn(p, child, NULL);
  for (int i = 0; i < CHILDREN; ++i)
    cacs_pool_join(t[i]);
}

int main(void) {
  // Its running coroutines must move: it opts in.
  cacs_pool_attr attr = {2, 0, CACS_POOL_MIGRATE_RUNNING};
  cacs_pool *p = cacs_pool_create_ex(&attr);
  cacs_pool_join(cacs_pool_spawn(p, root, p));
  cacs_pool_destroy(p);
  printf("stolen=%s migrated=%s runs=%d\n", stolen ? "yes" : "no",
         migrated ? "yes" : "no", runs);
  return 0;
}
