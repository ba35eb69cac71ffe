// Small helpers the pool tests share: a check that exits with its place,
// a monotonic clock, a seeded generator, and a watchdog for tests whose
// failure mode is a wait that never ends.
#ifndef PTEST_H
#define PTEST_H

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define H_CHECK(c)                                                             \
  do {                                                                         \
    if (!(c)) {                                                                \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);    \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static inline uint64_t h_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

// Work for `ns` of wall-clock time without a call that could switch.
static inline void h_spin_ns(uint64_t ns) {
  uint64_t t0 = h_now_ns();
  while (h_now_ns() - t0 < ns)
    ;
}

static inline uint32_t h_rand(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *s = x;
  return (uint32_t)(x >> 32);
}

// SIGALRM: say so on stdout (what FileCheck reads) and fail.
static void h_on_alarm(int sig) {
  (void)sig;
  static const char m[] = "watchdog: a wait did not end\n";
  if (write(1, m, sizeof m - 1) < 0)
    _exit(2);
  _exit(1);
}

// Fail the test if it has not ended after `seconds`.
static inline void h_watchdog(unsigned seconds) {
  signal(SIGALRM, h_on_alarm);
  alarm(seconds);
}

#endif
