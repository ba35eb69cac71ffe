// Detached pool coroutines (cacs_pool_spawn_detached): nobody joins them,
// each is freed when it returns. On 1 and 2 workers: detached coroutines
// spawned from outside the pool and from pool coroutines (nested), some
// yielding (migrating) and sleeping, all run exactly once; one still
// asleep when cacs_pool_destroy is called is waited for. Under ASan with
// leak detection: a control block not freed is a leak, one freed before
// its coroutine's last switch a use after free.
//
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t 1 2>&1 | FileCheck %s --check-prefix=W1
// RUN: env ASAN_OPTIONS=detect_leaks=1 %t 2 2>&1 | FileCheck %s --check-prefix=W2
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t2
// RUN: %t2 2 2>&1 | FileCheck %s --check-prefix=W2
// W1-NOT: ERROR
// W1: workers 1: ran 1101 of 1101, late sleeper done before destroy returned: yes, EINVAL yes
// W1-NOT: ERROR
// W2-NOT: ERROR
// W2: workers 2: ran 1101 of 1101, late sleeper done before destroy returned: yes, EINVAL yes
// W2-NOT: ERROR

#include "cacs/pool.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

enum { OUTER = 100, INNER = 10 };

static cacs_pool *pool;
static _Atomic int ran, late_done;

static void leaf(void *arg) {
  long i = (long)arg;
  if (i % 3 == 0)
    cacs_pool_yield();
  if (i % 7 == 0)
    cacs_pool_sleep(100);
  atomic_fetch_add(&ran, 1);
}

// Spawns detached leaves from inside the pool and returns before they do.
static void outer(void *arg) {
  long i = (long)arg;
  for (long j = 0; j < INNER; ++j)
    if (cacs_pool_spawn_detached(pool, leaf, (void *)(i * INNER + j)) != 0)
      abort();
  if (i % 2)
    cacs_pool_yield();
  atomic_fetch_add(&ran, 1);
}

static void late(void *arg) {
  (void)arg;
  cacs_pool_sleep(50000); // 50 ms: still asleep when destroy starts
  atomic_store(&late_done, 1);
  atomic_fetch_add(&ran, 1);
}

int main(int argc, char **argv) {
  unsigned workers = argc > 1 ? (unsigned)atoi(argv[1]) : 2;
  pool = cacs_pool_create(workers);
  if (!pool)
    return 1;
  int einval = cacs_pool_spawn_detached(pool, NULL, NULL) == -1 &&
               errno == EINVAL;
  cacs_pool_spawn_detached(pool, late, NULL);
  for (long i = 0; i < OUTER; ++i)
    if (cacs_pool_spawn_detached(pool, outer, (void *)i) != 0)
      return 1;
  if (cacs_pool_destroy(pool) != 0)
    return 1;
  printf("workers %u: ran %d of %d, late sleeper done before destroy "
         "returned: %s, EINVAL %s\n",
         workers, atomic_load(&ran), OUTER * INNER + OUTER + 1,
         atomic_load(&late_done) ? "yes" : "no", einval ? "yes" : "no");
  return 0;
}
