// Copy cost of shared stacks by depth (issue 24): two coroutines on one
// shared stack take turns (cacs_yield), each with BYTES of live locals at
// its yield, so every switch saves one and puts back the other. Beside it
// the same pair on private stacks (same switch path: with a shared-stack
// coroutine alive, every switch takes the slow path), so the difference is
// the copying. libaco's README: 8 B 33 ns ... 4 KiB 596 ns (its machine).
//
//   copy_cost [SWITCHES]
//
// Prints one line per size: bytes, saved bytes per switch, ns per switch
// (shared, private), ns of copying (the difference); medians of 5.

#include "cacs/coro.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long switches = 200000;
static size_t live;
static uint64_t sink;

static uint64_t now_ns(void) {
  struct timespec ts;
  // Process CPU time: on a shared machine, others' turns are not ours.
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void body(void *arg) {
  (void)arg;
  // `live` bytes of locals that must survive every switch.
  volatile unsigned char *buf = __builtin_alloca(live + 1);
  for (size_t i = 0; i < live; ++i)
    buf[i] = (unsigned char)i;
  for (long i = 0; i < switches / 2; ++i)
    cacs_yield();
  for (size_t i = 0; i < live; ++i)
    sink += buf[i] != (unsigned char)i; // must stay 0
}

static void keeper(void *arg) {
  (void)arg;
  cacs_park();
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

// ns per switch of a pair with `flags`; main waits in cacs_join.
static double run(unsigned flags) {
  double t[5];
  for (int r = 0; r < 5; ++r) {
    cacs_coro_attr a = {0, flags, 0, NULL};
    cacs_coro *x = cacs_create_ex(body, NULL, &a);
    cacs_coro *y = cacs_create_ex(body, NULL, &a);
    uint64_t t0 = now_ns();
    cacs_join(x); // main parks: only x and y are on the ring
    cacs_join(y);
    t[r] = (double)(now_ns() - t0) / (double)switches;
  }
  qsort(t, 5, sizeof *t, cmp);
  return t[2];
}

int main(int argc, char **argv) {
  if (argc > 1)
    switches = atol(argv[1]);
  // A parked coroutine with its own FP environment stays alive throughout,
  // so the private pair takes the same (slow) switch path as the shared one
  // (it does not switch FP environments: neither of the pair has its own).
  cacs_coro_attr other = {0, 0, CACS_CORO_SAVE_FPENV, NULL};
  cacs_coro *keep = cacs_create_ex(keeper, NULL, &other);
  cacs_yield(); // it parks
  static const size_t sizes[] = {0, 8, 64, 256, 1024, 4096, 16384};
  printf("%-8s %10s %10s %10s\n", "bytes", "shared_ns", "private_ns",
         "copy_ns");
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
    live = sizes[i];
    double s = run(CACS_STACK_SHARED), p = run(0);
    printf("%-8zu %10.1f %10.1f %10.1f\n", live, s, p, s - p);
  }
  cacs_wake(keep);
  cacs_join(keep);
  if (sink) {
    printf("locals WRONG\n");
    return 1;
  }
  printf("locals ok\n");
  return 0;
}
