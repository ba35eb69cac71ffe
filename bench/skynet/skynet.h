//===- bench/skynet/skynet.h - What the skynet variants share ----*- C -*-===//
//
// The time of a multi-threaded run: the process's CPU time (all threads),
// the figure `ns` of the RESULT line; and its wall-clock time, printed on
// a line of its own, `WALL ns=<t1>,<t2>,...`, which bench/tools/run.py
// reads beside it.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_SKYNET_H
#define CACS_BENCH_SKYNET_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

static inline uint64_t bench_process_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/// Coroutines in the tree of `n` leaves (n a power of 10).
static inline uint64_t skynet_coroutines(uint64_t n) {
  uint64_t c = 0;
  for (uint64_t s = n; s >= 1; s /= 10)
    c += n / s;
  return c;
}

static inline void bench_print_wall(const uint64_t *wall, int reps) {
  printf("WALL ns=");
  for (int i = 0; i < reps; ++i)
    printf("%s%llu", i ? "," : "", (unsigned long long)wall[i]);
  printf("\n");
}

#endif // CACS_BENCH_SKYNET_H
