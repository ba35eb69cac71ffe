//===- bench/locks/locks_uncontended.c - One locker, no contention --------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The cost of an uncontended lock + unlock pair: one locker, nobody else,
// N pairs back to back, for cacs_pool_mutex and cacs_pool_rwlock's read
// and write pairs (from a coroutine of a 1-worker pool), cacs_mutex
// (cacs/sync.h, from the main coroutine) and pthread_mutex_t (from the main
// thread). Prints, per kind, the best of 5 timed runs in ns per pair, of
// wall-clock time and of the process's CPU time:
//   UNCONTENDED impl=<i> pairs=<n> ns=<per pair> cpu_ns=<per pair>
// On a machine shared with other work the wall-clock figure is mostly the
// CPU share this process got (load 10 on 2 CPUs: 67 to 80 ns a pool pair,
// 14 ns quiet); the CPU time depends less on it (28 to 31 ns there: the
// others still evict the caches), so kinds run side by side compare
// better by it. Both include a kind's set-up (the pool's creation and
// destruction, microseconds against 10M pairs).
// Instructions per pair: run it under `valgrind --tool=callgrind` with a
// kind (argv[1]) and a count (argv[2]) and divide.
//
// Every kind runs in a process that has started a thread: glibc (2.34 on)
// skips the atomic instructions of a private pthread mutex while the
// process has never created a thread, a path no program that uses a pool
// (whose workers are threads) or contends a lock ever takes. Measured
// alone, `pthread` was 4x faster on this path (11 against 44 ns a pair
// on one shared machine; the pool mutex 38 to 45 ns).
//
//===----------------------------------------------------------------------===//

#include "cacs/coro.h"
#include "cacs/pool.h"
#include "cacs/pool_sync.h"
#include "cacs/sync.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t clock_ns(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

// Every thread of the process: the pool's worker runs its pairs.
static uint64_t cpu_ns(void) { return clock_ns(CLOCK_PROCESS_CPUTIME_ID); }

static long pairs = 10000000;
static uint64_t counter;
static cacs_pool_mutex pm = CACS_POOL_MUTEX_INIT;
static cacs_pool_rwlock prw = CACS_POOL_RWLOCK_INIT;
static cacs_mutex cm = CACS_MUTEX_INIT;
static pthread_mutex_t xm = PTHREAD_MUTEX_INITIALIZER;

// The loops: a plain counter under the lock, so the pair is not empty.
static void pool_loop(void *arg) {
  (void)arg;
  for (long i = 0; i < pairs; ++i) {
    cacs_pool_mutex_lock(&pm, CACS_POOL_FOREVER);
    counter++;
    cacs_pool_mutex_unlock(&pm);
  }
}

static void pool_rd_loop(void *arg) {
  (void)arg;
  for (long i = 0; i < pairs; ++i) {
    cacs_pool_rwlock_rdlock(&prw, CACS_POOL_FOREVER);
    counter += (uint64_t)i & 1;
    cacs_pool_rwlock_rdunlock(&prw);
  }
}

static void pool_wr_loop(void *arg) {
  (void)arg;
  for (long i = 0; i < pairs; ++i) {
    cacs_pool_rwlock_wrlock(&prw, CACS_POOL_FOREVER);
    counter++;
    cacs_pool_rwlock_wrunlock(&prw);
  }
}

static void sync_loop(void) {
  for (long i = 0; i < pairs; ++i) {
    cacs_mutex_lock(&cm, CACS_FOREVER);
    counter++;
    cacs_mutex_unlock(&cm);
  }
}

static void pthread_loop(void) {
  for (long i = 0; i < pairs; ++i) {
    pthread_mutex_lock(&xm);
    counter++;
    pthread_mutex_unlock(&xm);
  }
}

static void run_pool(void (*loop)(void *)) {
  cacs_pool *p = cacs_pool_create(1);
  cacs_pool_task *t = cacs_pool_spawn(p, loop, NULL);
  cacs_pool_join(t);
  cacs_pool_destroy(p);
}

static void run(const char *kind) {
  if (!strcmp(kind, "pool")) {
    run_pool(pool_loop);
  } else if (!strcmp(kind, "pool-rd")) {
    run_pool(pool_rd_loop);
  } else if (!strcmp(kind, "pool-wr")) {
    run_pool(pool_wr_loop);
  } else if (!strcmp(kind, "sync")) {
    sync_loop();
  } else if (!strcmp(kind, "pthread")) {
    pthread_loop();
  } else {
    fprintf(stderr, "locks_uncontended: unknown kind %s\n", kind);
    exit(64);
  }
}

static void *nothing(void *arg) { return arg; }

int main(int argc, char **argv) {
  static const char *kinds[] = {"pool", "pool-rd", "pool-wr", "sync",
                                "pthread"};
  enum { KINDS = sizeof kinds / sizeof *kinds };
  pthread_t th; // a multi-threaded process (see above)
  if (pthread_create(&th, NULL, nothing, NULL) != 0 ||
      pthread_join(th, NULL) != 0) {
    fprintf(stderr, "locks_uncontended: pthread_create failed\n");
    return 1;
  }
  if (argc > 2)
    pairs = atol(argv[2]);
  for (int k = 0; k < KINDS; ++k) {
    if (argc > 1 && strcmp(argv[1], kinds[k]))
      continue;
    double best = 1e30, best_cpu = 1e30;
    for (int r = 0; r < (argc > 2 ? 1 : 5); ++r) {
      uint64_t t0 = now_ns(), c0 = cpu_ns();
      run(kinds[k]);
      double ns = (double)(now_ns() - t0) / (double)pairs;
      double cns = (double)(cpu_ns() - c0) / (double)pairs;
      if (ns < best)
        best = ns;
      if (cns < best_cpu)
        best_cpu = cns;
    }
    printf("UNCONTENDED impl=%s pairs=%ld ns=%.2f cpu_ns=%.2f\n", kinds[k],
           pairs, best, best_cpu);
  }
  return counter == 0;
}
