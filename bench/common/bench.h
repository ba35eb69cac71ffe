//===- bench/common/bench.h - Tiny benchmark harness ------------*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Every benchmark binary follows one protocol, so scripts/bench can drive all
// of them the same way:
//
//   <binary> [-n N] [-r REPS] [-v VARIANT] [-q]
//
// It runs the workload REPS times (each repetition from scratch), checks the
// result of every repetition against a value computed independently, and
// prints one line
//
//   RESULT workload=<w> variant=<v> n=<N> ops=<ops> checksum=<c> ok=<0|1>
//          ns=<t1>,<t2>,...   (nanoseconds of each repetition: the thread's
//                              CPU time, bench_cpu_ns)
//
// A wrong checksum makes the binary exit with status 2, so a broken variant
// never posts a number. Instructions per operation are measured from the
// outside (scripts/bench runs the binary under callgrind with two sizes and
// divides the difference of the totals by the difference of the op counts,
// which cancels the set-up and the harness).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_H
#define CACS_BENCH_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bench_args {
  uint64_t n;          ///< workload size (-n)
  int reps;            ///< repetitions (-r)
  const char *variant; ///< variant selector (-v), NULL if not given
} bench_args;

#define BENCH_MAX_REPS 64

/// Resident memory of this process in KiB (VmRSS), or -1.
static inline long vm_rss_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6))
      kib = strtol(line + 6, NULL, 10);
  if (f)
    fclose(f);
  return kib;
}

static inline uint64_t bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/// CPU time of the calling thread: on a shared machine it leaves out the
/// time the scheduler gives to other processes (wall-clock counts it), but
/// still counts everything the thread itself waits for (cache and TLB
/// misses, mispredictions) and the system calls it makes. Every benchmark
/// of bench/ times with it (issue 22: with 2 cores shared by many jobs,
/// wall-clock medians measured the load, not the code).
static inline uint64_t bench_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline bench_args bench_parse(int argc, char **argv,
                                     uint64_t default_n) {
  bench_args a = {default_n, 5, NULL};
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-n") && i + 1 < argc)
      a.n = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "-r") && i + 1 < argc)
      a.reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-v") && i + 1 < argc)
      a.variant = argv[++i];
    else {
      fprintf(stderr, "usage: %s [-n N] [-r REPS] [-v VARIANT]\n", argv[0]);
      exit(64);
    }
  }
  if (a.reps < 1)
    a.reps = 1;
  if (a.reps > BENCH_MAX_REPS)
    a.reps = BENCH_MAX_REPS;
  return a;
}

/// Collects the repetitions of one variant and prints its RESULT line.
typedef struct bench_run {
  const char *workload, *variant;
  uint64_t n, ops, checksum;
  int ok, count;
  uint64_t ns[BENCH_MAX_REPS];
} bench_run;

static inline bench_run bench_begin(const char *workload, const char *variant,
                                    uint64_t n) {
  bench_run r;
  memset(&r, 0, sizeof r);
  r.workload = workload;
  r.variant = variant;
  r.n = n;
  r.ok = 1;
  return r;
}

/// Record one repetition: its duration, operation count and result.
static inline void bench_record(bench_run *r, uint64_t ns, uint64_t ops,
                                uint64_t got, uint64_t expected) {
  if (got != expected) {
    fprintf(stderr, "%s/%s: WRONG RESULT %" PRIu64 " (expected %" PRIu64 ")\n",
            r->workload, r->variant, got, expected);
    r->ok = 0;
  }
  if (r->count < BENCH_MAX_REPS)
    r->ns[r->count++] = ns;
  r->ops = ops;
  r->checksum = got;
}

/// Print the RESULT line; returns the exit status the binary should use.
static inline int bench_end(const bench_run *r) {
  printf("RESULT workload=%s variant=%s n=%" PRIu64 " ops=%" PRIu64
         " checksum=%" PRIu64 " ok=%d ns=",
         r->workload, r->variant, r->n, r->ops, r->checksum, r->ok);
  for (int i = 0; i < r->count; ++i)
    printf("%s%" PRIu64, i ? "," : "", r->ns[i]);
  printf("\n");
  fflush(stdout);
  return r->ok ? 0 : 2;
}

/// Keep the optimizer from deleting or folding a value.
#define BENCH_KEEP(x) __asm__ volatile("" : "+r"(x))

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_BENCH_H
