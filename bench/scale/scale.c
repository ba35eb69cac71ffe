// Many idle coroutines (issue 24): memory per coroutine, creation time per
// coroutine and one full yield round, every coroutine suspended at a yield
// some frames deep with live locals (one that never ran would cost only its
// control block, which proves nothing).
//
//   scale N [private|noguard4k] [DEPTH]
//
//   private    default stacks (64 KiB, guard page): at most one mapping per
//              slab of stacks, so N is not bounded by vm.max_map_count
//   noguard4k  4 KiB stacks without guard page (the smallest private stack)
//   shared     CACS_STACK_SHARED: one shared execution stack, each coroutine
//              keeps its control block and the copy of the frames it used
//
// Prints one line of key=value pairs, times per coroutine in ns (wall and
// process CPU), and where the memory goes: saved_per_coro_B, the copies
// of shared-stack coroutines' frames; heap_per_coro_B, all malloc'd
// bytes (control blocks of shared-stack coroutines, saved copies, the
// runtime's tables, malloc's headers); exits non-zero unless every
// coroutine ran, was suspended, came back with its locals intact and
// finished.

#include "cacs/coro.h"

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
        cacs_yield();
        ++rounds_done;
      }
    }
  } else {
    r = deep(d - 1, seed + 1, wait);
  }
  return r + local[0] + local[1];
}

static void body(void *arg) {
  long id = (long)(intptr_t)arg;
  results[id] = deep(depth, id, 1);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  const char *mode = argc > 2 ? argv[2] : "private";
  if (argc > 3)
    depth = atol(argv[3]);
  cacs_coro_attr attr = {0, 0, 0, "s"};
  if (!strcmp(mode, "noguard4k")) {
    attr.stack_size = 4096;
    attr.stack_flags = CACS_STACK_NOGUARD | CACS_STACK_NORANDOM;
  } else if (!strcmp(mode, "shared")) {
    attr.stack_flags = CACS_STACK_SHARED;
  } else if (strcmp(mode, "private")) {
    fprintf(stderr, "scale: unknown mode '%s'\n", mode);
    return 2;
  }
  // The program's own arrays are in the baseline.
  results = calloc((size_t)n, sizeof *results);
  cacs_coro **co = calloc((size_t)n, sizeof *co);
  if (!results || !co)
    return 1;
  memset(results, 1, (size_t)n * sizeof *results);
  memset(co, 1, (size_t)n * sizeof *co);
  cacs_yield(); // the scheduler exists
  long rss0 = rss_bytes(), heap0 = heap_bytes();

  uint64_t c0 = cpu_ns(), t0 = now_ns();
  for (long i = 0; i < n; ++i) {
    co[i] = cacs_create_ex(body, (void *)(intptr_t)i, &attr);
    if (!co[i]) {
      perror("scale: cacs_create");
      return 1;
    }
  }
  uint64_t c1 = cpu_ns(), t1 = now_ns();
  cacs_yield(); // each runs down to its yield
  uint64_t c2 = cpu_ns(), t2 = now_ns();
  long rss1 = rss_bytes(), heap1 = heap_bytes();
  double saved = (double)cacs_stack_shared_saved(); // shared: copies kept
  cacs_yield(); // one full round: every coroutine resumed and yields again
  uint64_t c3 = cpu_ns(), t3 = now_ns();
  stop = 1;
  cacs_yield(); // all finish
  long ok = 0;
  for (long i = 0; i < n; ++i) {
    cacs_join(co[i]);
    ok += results[i] == deep(depth, i, 0);
  }
  uint64_t t4 = now_ns();
  int pass = reached == n && rounds_done == 2 * n && ok == n;
  double dn = (double)n;
  printf("mode=%s n=%ld depth=%ld rss_per_coro_B=%.0f create_ns=%.0f "
         "create_cpu_ns=%.0f first_run_ns=%.0f first_run_cpu_ns=%.0f "
         "round_ns=%.0f round_cpu_ns=%.0f finish_join_ns=%.0f suspended=%ld "
         "saved_per_coro_B=%.0f heap_per_coro_B=%.0f locals=%s\n",
         mode, n, depth, (double)(rss1 - rss0) / dn, (double)(t1 - t0) / dn,
         (double)(c1 - c0) / dn, (double)(t2 - t1) / dn, (double)(c2 - c1) / dn,
         (double)(t3 - t2) / dn, (double)(c3 - c2) / dn,
         (double)(t4 - t3) / dn, reached, saved / dn,
         (double)(heap1 - heap0) / dn, ok == n ? "ok" : "WRONG");
  free(co);
  free(results);
  return pass ? 0 : 1;
}
