// Exact stacks for pool coroutines (issue 34, part 2) against the pool's
// guarded stacks (64 KiB, CACS_STACK_NOBOUND): N pool coroutines of one
// server-shaped entry (parse, handle, wait for a descriptor three calls
// deep, format the answer), all parked in their wait at once, then
// released by one write (or, built with -DPOOL_WAIT_SEM, parked on a pool
// semaphore, released by N posts). Built with -fcacs-stack-bounds, so the
// entry has a proven bound (its wait counts by its budget).
//
//   pool MODE N [WORKERS]     MODE: exact | guarded; WORKERS: 2
//
// Prints one line: the mode, whether the entry's coroutines get exact
// stacks (cacs_stack_exact, the rule the pool follows), RSS per coroutine
// while all N are parked (their control blocks, stacks and the pool's
// records; measured first, so no stack freed before is reused), then per
// coroutine: spawn until all are parked, the release and joins, and a
// spawn + join of the same entry without the wait (each started and
// finished, N at a time); the process's CPU time, not wall
// time, as bench/stackbound/exact.c. `bench/stackbound/run.sh pool` runs it.

#include "cacs/pool.h"
#include "cacs/io.h"
#include "cacs/pool_sync.h"
#include "cacs/stack.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

static int wake_fd = -1; // read end of a pipe every coroutine waits on
static uint32_t parked;  // coroutines at their wait

#ifdef POOL_WAIT_SEM
// Built with -DPOOL_WAIT_SEM: the wait is a pool semaphore's (cacs/pool_sync.h,
// whose calls carry the pool's smaller wait budget), released by N posts.
static cacs_pool_sem gate = CACS_POOL_SEM_INIT(0);
#define WAIT_KIND "sem"
#else
#define WAIT_KIND "fd"
#endif

__attribute__((noinline)) static uint32_t wait_input(uint32_t key) {
  if (wake_fd >= 0) {
    __atomic_fetch_add(&parked, 1, __ATOMIC_RELEASE);
#ifdef POOL_WAIT_SEM
    cacs_pool_sem_wait(&gate, CACS_POOL_FOREVER);
#else
    cacs_wait_fd(wake_fd, EPOLLIN, -1);
#endif
  }
  return key;
}
#define SHAPE_WAIT(key) wait_input(key)
#include "shape.h"

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "exact";
  long n = argc > 2 ? atol(argv[2]) : 100000;
  unsigned workers = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
  cacs_pool_attr a = {workers, 0, CACS_POOL_MIGRATE_UNSTARTED, 0};
  if (!strcmp(mode, "guarded"))
    a.stack_flags = CACS_STACK_NOBOUND;
  else if (strcmp(mode, "exact"))
    return fprintf(stderr, "pool: unknown mode %s\n", mode), 2;
  size_t bytes = 0;
  int exact = !strcmp(mode, "exact") && cacs_stack_exact(serve, &bytes);
  if (exact) // a coroutine's size; a pool coroutine has no 32-byte start
    bytes -= 32; // frame (docs/runtime.md, "Exact stacks")
  req *rs = calloc((size_t)n, sizeof *rs);
  cacs_pool_task **ts = calloc((size_t)n, sizeof *ts);
  int pfd[2];
  if (!rs || !ts || pipe(pfd) != 0)
    return 1;
  for (long i = 0; i < n; ++i) // in the baseline
    rs[i].id = (uint32_t)i, ts[i] = NULL;
  cacs_pool *p = cacs_pool_create_ex(&a);
  if (!p)
    return 1;
  // Warm: each worker has run coroutines (its first stacks, its slabs).
  wake_fd = -1;
  for (int i = 0; i < 64; ++i)
    ts[i] = cacs_pool_spawn(p, serve, &rs[i]);
  for (int i = 0; i < 64; ++i)
    cacs_pool_join(ts[i]);

  // All parked at once.
  wake_fd = pfd[0];
  long rss0 = rss();
  double t0 = now();
  for (long i = 0; i < n; ++i)
    if (!(ts[i] = cacs_pool_spawn(p, serve, &rs[i])))
      return fprintf(stderr, "spawn %ld failed\n", i), 1;
  while (__atomic_load_n(&parked, __ATOMIC_ACQUIRE) < (uint32_t)n)
    usleep(1000);
  usleep(20000); // the last ones switch out
  double t1 = now();
  long rss1 = rss();
#ifdef POOL_WAIT_SEM
  for (long i = 0; i < n; ++i)
    cacs_pool_sem_post(&gate);
#else
  if (write(pfd[1], "x", 1) != 1)
    return 1;
#endif
  for (long i = 0; i < n; ++i)
    cacs_pool_join(ts[i]);
  double t2 = now();
  // Spawn + join, no wait: each runs to its end (on stacks freed above).
  wake_fd = -1;
  double s0 = now();
  for (long i = 0; i < n; ++i)
    if (!(ts[i] = cacs_pool_spawn(p, serve, &rs[i])))
      return fprintf(stderr, "spawn %ld failed\n", i), 1;
  for (long i = 0; i < n; ++i)
    cacs_pool_join(ts[i]);
  double s1 = now();

  long ok = 0;
  for (long i = 0; i < n; ++i)
    ok += rs[i].answer == parse((uint32_t)i);
  printf("mode=%s wait=" WAIT_KIND " n=%ld workers=%u exact=%d stack=%zu "
         "rss_per_coro=%.0f "
         "spawn_park_ns=%.1f release_join_ns=%.1f spawn_join_ns=%.1f "
         "ok=%ld\n",
         mode, n, workers, exact, bytes, (double)(rss1 - rss0) / (double)n,
         (t1 - t0) * 1e9 / (double)n, (t2 - t1) * 1e9 / (double)n,
         (s1 - s0) * 1e9 / (double)n, ok);
  cacs_pool_destroy(p);
  return ok != n;
}
