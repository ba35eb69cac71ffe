// Perform + resume of cacs/effect.h, with the handler 1 and 10 handlers up
// (9 handlers of another effect between performer and handler), and the
// cost of an empty CACS_SYNC block. Prints nanoseconds per operation, the
// best of `reps` repetitions (argument 1, default 5) of N operations each; argument 2 runs one of them.
// Not yet run by scripts/bench (bench/README.md is being split): built and
// run by hand, see docs/runtime.md "Effects".

#include "cacs/effect.h"
#include "cacs/syncblock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

CACS_EFFECT(tick, long, long);
CACS_EFFECT(other, int, int);

#ifndef BENCH_N
#define BENCH_N 2000000
#endif
enum { N = BENCH_N };

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *performer(void *arg) {
  (void)arg;
  long acc = 0;
  for (long i = 0; i < N; ++i)
    acc += CACS_PERFORM(tick, i);
  return (void *)acc;
}

// A handler of `other` around the next level down: `tick` passes over it.
static void *level(void *arg) {
  int depth = (int)(intptr_t)arg;
  cacs_effect_coro *k = depth == 0
                            ? cacs_effect_create(performer, NULL, 0)
                            : cacs_effect_create(level, (void *)(intptr_t)(depth - 1), 0);
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(other), NULL);
  cacs_effect_destroy(k);
  return q.payload;
}

static double run(int up) {
  cacs_effect_coro *k =
      up == 1 ? cacs_effect_create(performer, NULL, 0)
              : cacs_effect_create(level, (void *)(intptr_t)(up - 2), 0);
  double t0 = now_ns();
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(tick), NULL);
  while (q.effect) {
    long r = *(long *)q.payload + 1;
    q = cacs_effect_resume(k, CACS_HANDLES(tick), &r);
  }
  double t = (now_ns() - t0) / N;
  cacs_effect_destroy(k);
  return t;
}

static volatile int sink;
static double sync_block(void) {
  double t0 = now_ns();
  for (long i = 0; i < N * 10L; ++i)
    CACS_SYNC { sink = (int)i; }
  double t1 = now_ns();
  for (long i = 0; i < N * 10L; ++i)
    sink = (int)i;
  return ((now_ns() - t1) > 0 ? (t1 - t0) - (now_ns() - t1) : (t1 - t0)) /
         (N * 10.0);
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  // Argument 2 (for callgrind): only "1", "10" or "sync".
  const char *only = argc > 2 ? argv[2] : "";
  double best1 = 1e9, best10 = 1e9, bestsync = 1e9;
  for (int r = 0; r < reps; ++r) {
    double a = !*only || !strcmp(only, "1") ? run(1) : 0;
    double b = !*only || !strcmp(only, "10") ? run(10) : 0;
    double c = !*only || !strcmp(only, "sync") ? sync_block() : 0;
    best1 = a < best1 ? a : best1;
    best10 = b < best10 ? b : best10;
    bestsync = c < bestsync ? c : bestsync;
  }
  printf("perform+resume, handler 1 up: %.2f ns\n", best1);
  printf("perform+resume, handler 10 up: %.2f ns (%.2fx)\n", best10,
         best10 / best1);
  printf("empty sync block: %.2f ns\n", bestsync);
  return 0;
}
