// Pool wait group: waiters (a pool task and a plain thread) return only
// once every worker task has called done, however long each takes, and a
// wait on a counter of 0 returns at once.
//
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t | FileCheck %s
// RUN: %stock_clang -O0 -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t0
// RUN: %t0 | FileCheck %s
//
// CHECK: task waiter: saw 64 of 64 done
// CHECK-NEXT: plain waiter: saw 64 of 64 done
// CHECK-NEXT: zero: 0
#include "psync.h"

enum { WORKERS_N = 64 };

static cacs_pool_waitgroup wg = CACS_POOL_WAITGROUP_INIT;
static int done_flags[WORKERS_N];
static int seen[2];

static void worker(void *arg) {
  intptr_t i = (intptr_t)arg;
  uint64_t seed = (uint64_t)i * 7919 + 1;
  for (uint32_t n = h_rand(&seed) % 20; n; --n)
    h_yield();
  __atomic_store_n(&done_flags[i], 1, __ATOMIC_RELAXED);
  cacs_pool_waitgroup_done(&wg);
}

static void waiter(void *arg) {
  intptr_t who = (intptr_t)arg;
  H_CHECK(cacs_pool_waitgroup_wait(&wg, -1) == 0);
  for (int i = 0; i < WORKERS_N; ++i)
    seen[who] += __atomic_load_n(&done_flags[i], __ATOMIC_RELAXED);
}

int main(void) {
  h_start(2);
  cacs_pool_waitgroup_add(&wg, WORKERS_N);
  h_spawn(waiter, (void *)0);
  h_plain(waiter, (void *)1);
  for (intptr_t i = 0; i < WORKERS_N; ++i)
    h_spawn(worker, (void *)i);
  h_join_all();
  printf("task waiter: saw %d of %d done\n", seen[0], WORKERS_N);
  printf("plain waiter: saw %d of %d done\n", seen[1], WORKERS_N);
  printf("zero: %d\n", cacs_pool_waitgroup_wait(&wg, 0));
  h_stop();
  return 0;
}
