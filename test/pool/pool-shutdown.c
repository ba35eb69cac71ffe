// Graceful shutdown: cacs_pool_destroy waits for every coroutine spawned
// (joined or not, spawning more while it waits), then stops the workers;
// handles stay valid for cacs_pool_join. Destroying a pool from one of its
// own coroutines fails with EDEADLK.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t | FileCheck %s
// CHECK: inside: -1 EDEADLK
// CHECK-NEXT: destroy: 0 finished=120 of 120
// CHECK-NEXT: joins after destroy: 0

#include "cacs/pool.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>

enum { N = 40 };
static cacs_pool *p;
static _Atomic int finished;

static void leaf(void *arg) {
  (void)arg;
  cacs_pool_sleep(5000);
  atomic_fetch_add(&finished, 1);
}

static void parent(void *arg) {
  (void)arg;
  cacs_pool_sleep(10000);
  // Spawned while destroy waits; never joined.
  cacs_pool_spawn(p, leaf, NULL);
  cacs_pool_spawn(p, leaf, NULL);
  atomic_fetch_add(&finished, 1);
}

static void try_destroy(void *arg) {
  (void)arg;
  int r = cacs_pool_destroy(p);
  printf("inside: %d %s\n", r, errno == EDEADLK ? "EDEADLK" : "?");
}

int main(void) {
  p = cacs_pool_create(2);
  cacs_pool_join(cacs_pool_spawn(p, try_destroy, NULL));
  cacs_pool_task *t[N];
  for (int i = 0; i < N; ++i)
    t[i] = cacs_pool_spawn(p, parent, NULL);
  int r = cacs_pool_destroy(p);
  printf("destroy: %d finished=%d of %d\n", r, atomic_load(&finished), 3 * N);
  int bad = 0;
  for (int i = 0; i < N; ++i)
    bad |= cacs_pool_join(t[i]);
  printf("joins after destroy: %d\n", bad);
  return 0;
}
