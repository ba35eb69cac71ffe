// What bench/scale/scale.c (libcacs) and aco_scale.c (libaco, the peer)
// share: the clocks, the memory figures, the body every coroutine runs
// down to its yield (SCALE_YIELD(), which the includer defines as its
// runtime's yield) and the output line, so that both measure alike.

#ifndef CACS_BENCH_SCALE_COMMON_H
#define CACS_BENCH_SCALE_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static long depth = 4;
static long reached, rounds_done;
static int stop;
static long *results;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// User + system CPU time of the process: on a loaded machine wall time
// includes other programs' turns; CPU time does not.
static uint64_t cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static long rss_bytes(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, rss = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
      rss = 0;
    fclose(f);
  }
  return rss * sysconf(_SC_PAGESIZE);
}

// Bytes malloc has handed out and not taken back (headers included; what
// it mapped for large blocks too): the part of the RSS growth that is
// control blocks, saved stacks and the runtime's tables.
static long heap_bytes(void) {
#if defined(__GLIBC__)
  struct mallinfo2 mi = mallinfo2();
  return (long)(mi.uordblks + mi.hblkhd);
#else
  return 0;
#endif
}

// `d` frames down, each with live locals, then suspended until `stop`.
__attribute__((noinline)) static long deep(long d, long seed, int wait) {
  volatile long local[2] = {seed * 7, d};
  long r = 0;
  if (d == 0) {
    if (wait) {
      ++reached;
      while (!stop) {
        SCALE_YIELD();
        ++rounds_done;
      }
    }
  } else {
    r = deep(d - 1, seed + 1, wait);
  }
  return r + local[0] + local[1];
}

// An array of the program's own, touched so that it is in the baseline;
// exits if there is no memory for it.
static void *scale_array(long n, size_t size) {
  void *p = calloc((size_t)n, size);
  if (!p) {
    perror("scale: calloc");
    exit(1);
  }
  memset(p, 1, (size_t)n * size);
  return p;
}

// The times taken along a run and the memory before and after creating
// and suspending the coroutines.
typedef struct {
  uint64_t t[5], c[4]; // wall / CPU: start, created, suspended, round, end
  long rss0, heap0, rss1, heap1;
} scale_marks;

// The one output line (keys documented in scale.c), after `head`
// (mode=... or peer=...); whether every coroutine was suspended, resumed
// twice and came back with its locals intact (`ok` of them).
static int scale_report(const char *head, long n, const scale_marks *m,
                        double saved, long ok) {
  double dn = (double)n;
  printf("%s n=%ld depth=%ld rss_per_coro_B=%.0f create_ns=%.0f "
         "create_cpu_ns=%.0f first_run_ns=%.0f first_run_cpu_ns=%.0f "
         "round_ns=%.0f round_cpu_ns=%.0f finish_join_ns=%.0f suspended=%ld "
         "saved_per_coro_B=%.0f heap_per_coro_B=%.0f locals=%s\n",
         head, n, depth, (double)(m->rss1 - m->rss0) / dn,
         (double)(m->t[1] - m->t[0]) / dn, (double)(m->c[1] - m->c[0]) / dn,
         (double)(m->t[2] - m->t[1]) / dn, (double)(m->c[2] - m->c[1]) / dn,
         (double)(m->t[3] - m->t[2]) / dn, (double)(m->c[3] - m->c[2]) / dn,
         (double)(m->t[4] - m->t[3]) / dn, reached, saved / dn,
         (double)(m->heap1 - m->heap0) / dn, ok == n ? "ok" : "WRONG");
  return reached == n && rounds_done == 2 * n && ok == n;
}

#endif // CACS_BENCH_SCALE_COMMON_H
