// What the test/runtime programs share: a failure counter that main turns
// into PASS/FAIL, EXPECT (prints the line and the condition that failed),
// a monotonic clock in microseconds and a watchdog. A test header may define
// its own EXPECT first (io-test.h adds errno to the message).

#ifndef CACS_TEST_CHECK_H
#define CACS_TEST_CHECK_H

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static int failures;
#ifndef EXPECT
#define EXPECT(c)                                                              \
  do {                                                                         \
    if (!(c)) {                                                                \
      printf("FAIL line %d: %s\n", __LINE__, #c);                              \
      ++failures;                                                              \
    }                                                                          \
  } while (0)
#endif

// The runtime's error convention (runtime/README.md, "Errors"): 0, or -1
// with errno. The error number of a result; anything else (an error number
// returned directly, as the sync calls once did) becomes -1000, which no
// comparison with an error number accepts.
static inline int err_of(int r) {
  return r == 0 ? 0 : r == -1 ? errno : -1000;
}

static inline long long now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void watchdog_fired(int sig) {
  (void)sig;
  static const char msg[] = "FAIL: watchdog: the test did not finish in time\n";
  ssize_t r = write(1, msg, sizeof msg - 1);
  (void)r;
  _exit(3);
}

// Kill the test after `seconds`, so that a lost wake-up fails it instead of
// hanging it (qemu-user and ASan are slow: be generous).
static inline void watchdog(unsigned seconds) {
  signal(SIGALRM, watchdog_fired);
  alarm(seconds);
}

#endif // CACS_TEST_CHECK_H
