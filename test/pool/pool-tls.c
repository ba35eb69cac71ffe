// Thread-local storage in a pool coroutine that migrates between workers
// (docs/tls-migration.md): after each cacs_pool_yield that moved it to
// another worker, the coroutine's &errno and &tls must be the new
// thread's. Built by cacs with -fcoroutine-migration they are, at -O2,
// with -fPIC and with LTO. Built without it (stock clang's behaviour), -O2
// reuses the first thread's addresses: the check sees stale ones.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/O2
// RUN: %t/O2 | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -fPIC -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/pic
// RUN: %t/pic | FileCheck %s
// RUN: %clang -O2 -fcoroutine-migration -flto -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/lto
// RUN: %t/lto | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/stale
// RUN: %t/stale | FileCheck %s --check-prefix=STALE
// CHECK: migrated=yes errno-stale=0 tls-stale=0 value-stale=0
// STALE: migrated=yes errno-stale={{[1-9]}}

#include "Inputs/pool-tls-fresh.h"
#include "cacs/pool.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static _Atomic int migrations, errno_stale, tls_stale, value_stale;

static void body(void *arg) {
  (void)arg;
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  // Until enough moves were seen, or 5 s: a count of yields is not enough
  // on a loaded machine, where the other worker may not run at all while
  // this one does thousands of rounds.
  while (atomic_load(&migrations) < 200) {
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (t.tv_sec - t0.tv_sec > 5)
      break;
    int w = cacs_pool_worker_index();
    // Use both addresses before the yield, as code does: a compiler that
    // keeps them across it uses this thread's afterwards.
    errno = 0;
    tls = 100 + w; // a thread's tls is 0 or 100 + its index, always
    cacs_pool_yield();
    int now = cacs_pool_worker_index();
    if (now == w)
      continue;
    atomic_fetch_add(&migrations, 1);
    errno_stale += &errno != fresh_errno();
    tls_stale += &tls != fresh_tls();
    value_stale += tls != 0 && tls != 100 + now;
  }
}

int main(void) {
  // Its running coroutines must move: it opts in.
  cacs_pool_attr attr = {2, 0, CACS_POOL_MIGRATE_RUNNING};
  cacs_pool *p = cacs_pool_create_ex(&attr);
  cacs_pool_task *t[8];
  for (int i = 0; i < 8; ++i)
    t[i] = cacs_pool_spawn(p, body, NULL);
  for (int i = 0; i < 8; ++i)
    cacs_pool_join(t[i]);
  cacs_pool_destroy(p);
  printf("migrated=%s errno-stale=%d tls-stale=%d value-stale=%d\n",
         migrations ? "yes" : "no", errno_stale, tls_stale, value_stale);
  return 0;
}
