//===- bench/lifecycle/lifecycle.h - One coroutine's whole life -*- C -*-===//
//
// The protocol of the lifecycle benchmark (issue 38): a coroutine per
// request costs its creation, its run to the end and its join. Each peer
// (libcacs, Boost.Context; Go in main.go) defines
//
//   lc_create(i)  make coroutine i (of at most LC_MAX at once); it must not
//                 run yet, and when it runs it adds i + 1 to lc_sum
//   lc_join(i)    run coroutine i to its end (if it has not run) and free it
//   lc_touch(n)   write the program's own storage for n coroutines (their
//                 handles), so that RSS before a burst counts it already
//                 and RSS after it is the runtime's alone
//
// and includes this file, which drives them:
//
//   <binary> steady ALIVE TOTAL   ALIVE created, then all joined, in rounds,
//                                 TOTAL coroutines per repetition (after
//                                 warm-up rounds): the steady state, stacks
//                                 reused; 5 repetitions
//   <binary> first N              N created at once in a fresh process (the
//                                 stacks' first use), then joined
//   <binary> burst N              a server's steady state (100 alive, 100
//                                 rounds), then N created at once and
//                                 joined: RSS before, at the peak, after
//
// and prints one line of key=value pairs: times are the thread's CPU time
// (user + system, which the stacks' system calls and page faults are part
// of) in ns per coroutine; rss_* in KiB. A wrong sum exits 2.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_LIFECYCLE_H
#define CACS_BENCH_LIFECYCLE_H

#include "bench.h"

#define LC_MAX 1000000L

static volatile uint64_t lc_sum;

static void lc_create(long i);
static void lc_join(long i);
static void lc_touch(long n);

static void lc_check(uint64_t expect) {
  if (lc_sum != expect) {
    fprintf(stderr, "lifecycle: WRONG SUM %" PRIu64 " (expected %" PRIu64
                    ")\n",
            (uint64_t)lc_sum, expect);
    exit(2);
  }
}

// `alive` created, then each joined (first created, first joined).
static void lc_round(long alive) {
  lc_sum = 0;
  for (long i = 0; i < alive; ++i)
    lc_create(i);
  for (long i = 0; i < alive; ++i)
    lc_join(i);
  lc_check((uint64_t)alive * (uint64_t)(alive + 1) / 2);
}

static int lc_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int lc_main(const char *peer, int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "steady";
  if (!strcmp(mode, "steady")) {
    long alive = argc > 2 ? atol(argv[2]) : 1;
    long total = argc > 3 ? atol(argv[3]) : 1000000;
    if (alive < 1 || alive > LC_MAX)
      return 64;
    long rounds = total / alive > 0 ? total / alive : 1;
    // Warm-up: the stacks carved and faulted in, caches filled.
    for (long w = 0; w < (alive >= 1000 ? 3 : 1000 / alive); ++w)
      lc_round(alive);
    enum { REPS = 5 };
    double ns[REPS];
    for (int r = 0; r < REPS; ++r) {
      uint64_t t0 = bench_cpu_ns();
      for (long k = 0; k < rounds; ++k)
        lc_round(alive);
      ns[r] = (double)(bench_cpu_ns() - t0) / (double)(rounds * alive);
    }
    double sorted[REPS];
    memcpy(sorted, ns, sizeof ns);
    qsort(sorted, REPS, sizeof *sorted, lc_cmp);
    printf("peer=%s mode=steady alive=%ld total=%ld ns_median=%.1f ns=", peer,
           alive, rounds * alive, sorted[REPS / 2]);
    for (int r = 0; r < REPS; ++r)
      printf("%s%.1f", r ? "," : "", ns[r]);
    printf(" rss_kib=%ld\n", vm_rss_kib());
    return 0;
  }
  if (!strcmp(mode, "first") || !strcmp(mode, "burst")) {
    long n = argc > 2 ? atol(argv[2]) : 100000;
    if (n < 1 || n > LC_MAX)
      return 64;
    int burst = !strcmp(mode, "burst");
    if (burst) // a server at work before the burst
      for (int w = 0; w < 100; ++w)
        lc_round(100);
    lc_touch(n);
    long rss0 = vm_rss_kib();
    lc_sum = 0;
    uint64_t t0 = bench_cpu_ns();
    for (long i = 0; i < n; ++i)
      lc_create(i);
    uint64_t t1 = bench_cpu_ns();
    long rss1 = vm_rss_kib();
    for (long i = 0; i < n; ++i)
      lc_join(i);
    uint64_t t2 = bench_cpu_ns();
    lc_check((uint64_t)n * (uint64_t)(n + 1) / 2);
    long rss2 = vm_rss_kib();
    printf("peer=%s mode=%s n=%ld create_ns=%.1f join_ns=%.1f total_ns=%.1f "
           "rss_before_kib=%ld rss_peak_kib=%ld rss_after_kib=%ld "
           "rss_after_pct=%.1f",
           peer, mode, n, (double)(t1 - t0) / (double)n,
           (double)(t2 - t1) / (double)n, (double)(t2 - t0) / (double)n, rss0,
           rss1, rss2, 100.0 * (double)(rss2 - rss0) / (double)rss0);
    if (burst) { // the same burst again: the stacks' second use
      uint64_t t3 = bench_cpu_ns();
      lc_round(n);
      printf(" again_ns=%.1f rss_again_kib=%ld",
             (double)(bench_cpu_ns() - t3) / (double)n, vm_rss_kib());
    }
    printf("\n");
    return 0;
  }
  fprintf(stderr, "usage: %s steady ALIVE TOTAL | first N | burst N\n",
          argv[0]);
  return 64;
}

#endif // CACS_BENCH_LIFECYCLE_H
