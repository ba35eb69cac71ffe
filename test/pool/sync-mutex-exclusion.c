// Pool mutex, CES and dispatch: mutual exclusion under contention. Tasks
// and plain threads increment a plain counter under the lock, some yielding
// inside the critical section; the total must be exact and no two may be
// inside at once.
//
// The lock code on the mock pool (a task per OS thread), under TSan:
// RUN: %clang -O1 -g -fsanitize=thread -DPSYNC_MOCK -I%cacs_include -I%cacs_src_root/runtime/lib/pool -I%S/Inputs %s %cacs_src_root/runtime/lib/pool/pool_sync.c -lpthread -o %t.mock
// RUN: %t.mock ces 2>&1 | FileCheck %s --check-prefix=CES
// RUN: %t.mock dispatch 2>&1 | FileCheck %s --check-prefix=DISPATCH
// On the pool: cacs -O2, stock clang -O0, libcacs built with TSan.
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t ces 2>&1 | FileCheck %s --check-prefix=CES
// RUN: %t dispatch 2>&1 | FileCheck %s --check-prefix=DISPATCH
// RUN: %stock_clang -O0 -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t0
// RUN: %t0 ces 2>&1 | FileCheck %s --check-prefix=CES
// RUN: %clang -O1 -g -fsanitize=thread -fcoroutine-migration -I%cacs_include -I%S/Inputs %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -fcoroutine-migration -I%cacs_include) -lpthread -o %t.tsan
// RUN: %t.tsan ces 2>&1 | FileCheck %s --check-prefix=CES
// RUN: %t.tsan dispatch 2>&1 | FileCheck %s --check-prefix=DISPATCH
//
// CES-NOT: ThreadSanitizer
// CES: ces: counter 5400 of 5400, overlaps 0
// DISPATCH-NOT: ThreadSanitizer
// DISPATCH: dispatch: counter 5400 of 5400, overlaps 0
#include "psync.h"

enum { TASKS = 16, PLAIN = 2, ITERS = 300 };

static cacs_pool_mutex mu;
static long counter;
static int inside, overlaps;

static void body(void *arg) {
  uint64_t seed = (uintptr_t)arg * 0x9e3779b97f4a7c15u + 1;
  for (int i = 0; i < ITERS; ++i) {
    H_CHECK(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0);
    if (inside++)
      overlaps++;
    long c = counter;
    if (h_rand(&seed) % 16 == 0)
      h_yield(); // a critical section may yield (and migrate)
    counter = c + 1;
    inside--;
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  }
}

int main(int argc, char **argv) {
  int dispatch = argc > 1 && !strcmp(argv[1], "dispatch");
  H_CHECK(cacs_pool_mutex_init(&mu, dispatch ? CACS_POOL_LOCK_DISPATCH
                                              : CACS_POOL_LOCK_CES) == 0);
  h_start(2);
  h_run_all(body, TASKS, PLAIN);
  h_stop();
  printf("%s: counter %ld of %d, overlaps %d\n", dispatch ? "dispatch" : "ces",
         counter, (TASKS + PLAIN) * ITERS, overlaps);
  return 0;
}
