// Helpers shared by the sync-*.c tests: a failure counter, a monotonic clock
// in microseconds, and a watchdog so that a lost wake-up fails the test
// instead of hanging it.

#ifndef SYNC_TEST_H
#define SYNC_TEST_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

// Busy-wait (no yield): lets a timer expire while this coroutine runs.
static inline void spin_us(long long us) {
  long long t0 = now_us();
  while (now_us() - t0 < us) {
  }
}

// Print " 1 2 3 ..." from `order` and expect exactly 1..n in that order.
static inline void print_order(const int *order, int got, int n) {
  for (int i = 0; i < got; i++) {
    printf(" %d", order[i]);
    EXPECT(order[i] == i + 1);
  }
  EXPECT(got == n);
}

// Unbuffered output (the order of lines is the point) and a time limit.
static void test_start(unsigned seconds) {
  setvbuf(stdout, NULL, _IONBF, 0);
  watchdog(seconds);
}

static int test_end(void) {
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}

#define OK (failures ? "FAILED" : "ok")

#endif // SYNC_TEST_H
