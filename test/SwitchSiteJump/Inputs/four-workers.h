// The driver the run tests of this folder share: three coroutines and the
// main thread each run the includer's work(who, rounds), then main prints
// the four results, which the tests compare with stock clang -O0's. Include
// it after work() and cacs/coro.h; the includer prints its own totals.
#include <stdio.h>

static long results[4];

static void worker(void *arg) {
  int who = (int)(long)arg;
  results[who] = work(who, 100 + who * 13);
}

static void run_four_workers(void) {
  cacs_coro *c[3];
  for (long i = 1; i <= 3; ++i)
    c[i - 1] = cacs_create(worker, (void *)i, 0);
  results[0] = work(0, 90);
  for (int i = 0; i < 3; ++i)
    cacs_join(c[i]);
  for (int i = 0; i < 4; ++i)
    printf("worker %d: %ld\n", i, results[i]);
}
