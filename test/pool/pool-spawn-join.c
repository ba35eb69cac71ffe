// Spawn, yield and join on a pool of 1 and of 2 workers: every coroutine
// runs every step exactly once (a per-coroutine counter of steps and a
// checksum of (id, step) pairs that a lost or doubled step would change),
// and every join returns 0. Joined from the main thread (a plain thread).
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 1 200 50 | FileCheck %s
// RUN: %t 2 200 50 | FileCheck %s
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t0
// RUN: %t0 2 100 20 | FileCheck %s
// CHECK: ok steps=[[N:[0-9]+]] sum=[[S:[0-9]+]] expect=[[S]]
// CHECK-NEXT: joins ok
// CHECK-NEXT: destroy 0

#include "cacs/pool.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  unsigned id, steps;
  unsigned done; // steps this coroutine ran
} job;

static _Atomic uint64_t sum;

static void body(void *arg) {
  job *j = arg;
  for (unsigned s = 0; s < j->steps; ++s) {
    j->done++;
    atomic_fetch_add(&sum, (uint64_t)j->id * 1000003u + s);
    cacs_pool_yield();
  }
}

int main(int argc, char **argv) {
  unsigned workers = argc > 1 ? atoi(argv[1]) : 2;
  unsigned n = argc > 2 ? atoi(argv[2]) : 200;
  unsigned steps = argc > 3 ? atoi(argv[3]) : 50;
  cacs_pool *p = cacs_pool_create(workers);
  if (!p || cacs_pool_workers(p) != workers)
    return 1;
  job *jobs = calloc(n, sizeof *jobs);
  cacs_pool_task **t = calloc(n, sizeof *t);
  uint64_t expect = 0;
  for (unsigned i = 0; i < n; ++i) {
    jobs[i].id = i;
    jobs[i].steps = steps;
    for (unsigned s = 0; s < steps; ++s)
      expect += (uint64_t)i * 1000003u + s;
    t[i] = cacs_pool_spawn(p, body, &jobs[i]);
    if (!t[i])
      return 2;
  }
  int bad = 0;
  for (unsigned i = 0; i < n; ++i)
    bad |= cacs_pool_join(t[i]) != 0;
  unsigned total = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (jobs[i].done != steps)
      printf("coroutine %u ran %u of %u steps\n", i, jobs[i].done, steps);
    total += jobs[i].done;
  }
  printf("%s steps=%u sum=%llu expect=%llu\n", total == n * steps ? "ok" : "BAD",
         total, (unsigned long long)atomic_load(&sum),
         (unsigned long long)expect);
  printf("joins %s\n", bad ? "BAD" : "ok");
  printf("destroy %d\n", cacs_pool_destroy(p));
  return 0;
}
