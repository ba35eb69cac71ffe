// A pool coroutine's timed wait whose timer cannot be armed (the worker's
// timer heap cannot grow: realloc fails) does not park. The park switches
// out first and the worker's loop arms the timer (pool_park.c,
// cacs__pool_parked); when that fails, the wait returns ENOMEM still
// holding what the park's `after` would have released (a descriptor
// record's spin lock), so the loop must run the coroutine again before
// anything else. Here a second coroutine, made runnable on the one worker
// just before the failing wait (a condition variable's broadcast with a
// dispatch mutex: it is queued, not run in place), reads the same
// descriptor: run first, it would spin on that lock for ever (nothing else
// can run to release it), and the timeout ends the run.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: env CACS_IO_ENGINE=epoll timeout 30 %t | FileCheck %s
//
// Breaking it: in cacs__pool_parked, make the coroutine runnable through
// cacs__pool_ready_on instead of having the loop run it at once: the
// second reader spins for ever.

// CHECK: read, timed: ENOMEM
// CHECK-NEXT: sleep: ENOMEM
// CHECK-NEXT: other reader: 1
// CHECK-NEXT: PASS

#include "cacs/io.h"
#include "cacs/pool.h"
#include "cacs/pool_sync.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// The program's realloc, in front of libc's (libcacs is linked
// statically): fails while `fail_realloc` is set.
extern void *__libc_realloc(void *p, size_t n);
static volatile int fail_realloc;
void *realloc(void *p, size_t n) {
  if (__atomic_load_n(&fail_realloc, __ATOMIC_ACQUIRE)) {
    errno = ENOMEM;
    return NULL;
  }
  return __libc_realloc(p, n);
}

static cacs_pool *pool;
static int pfd[2];
static int bad;

static cacs_pool_mutex mu;
static cacs_pool_cond cv = CACS_POOL_COND_INIT;
static int waiting, go;

static void other_reader(void *arg) {
  (void)arg;
  char c;
  cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER);
  __atomic_store_n(&waiting, 1, __ATOMIC_RELEASE);
  while (!go)
    cacs_pool_cond_wait(&cv, &mu, CACS_POOL_FOREVER);
  cacs_pool_mutex_unlock(&mu);
  // Its descriptor record's lock is held by first() until first() runs
  // again.
  printf("other reader: %d\n", (int)cacs_read(pfd[0], &c, 1, -1));
}

static void first(void *arg) {
  (void)arg;
  char c = 'x';
  // Known to the pool (its record made) before the failing wait.
  if (cacs_write(pfd[1], &c, 1, -1) != 1 || cacs_read(pfd[0], &c, 1, -1) != 1)
    bad = 1;
  cacs_pool_task *o = cacs_pool_spawn(pool, other_reader, NULL);
  while (!__atomic_load_n(&waiting, __ATOMIC_ACQUIRE))
    cacs_pool_yield();
  cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER);
  go = 1;
  cacs_pool_cond_broadcast(&cv);
  cacs_pool_mutex_unlock(&mu); // other_reader: runnable, owning `mu`
  __atomic_store_n(&fail_realloc, 1, __ATOMIC_RELEASE);
  long n = cacs_read(pfd[0], &c, 1, 50 * 1000);
  int e = errno;
  printf("read, timed: %s\n", n < 0 && e == ENOMEM ? "ENOMEM" : "parked");
  int s = cacs_pool_sleep(1000);
  e = errno;
  __atomic_store_n(&fail_realloc, 0, __ATOMIC_RELEASE);
  printf("sleep: %s\n", s < 0 && e == ENOMEM ? "ENOMEM" : "slept");
  fflush(stdout);
  if (cacs_write(pfd[1], &c, 1, -1) != 1 || !o || cacs_pool_join(o) != 0)
    bad = 1;
}

int main(void) {
  if (pipe(pfd) != 0 || cacs_pool_mutex_init(&mu, CACS_POOL_LOCK_DISPATCH))
    return 1;
  cacs_pool_attr a = {1, 0, CACS_POOL_MIGRATE_UNSTARTED, 0};
  pool = cacs_pool_create_ex(&a);
  cacs_pool_task *t = pool ? cacs_pool_spawn(pool, first, NULL) : NULL;
  if (!t || cacs_pool_join(t) != 0 || cacs_pool_destroy(pool) != 0)
    return 1;
  puts(bad ? "FAIL" : "PASS");
  return bad;
}
