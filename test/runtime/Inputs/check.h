// What the test/runtime programs share: a failure counter that main turns
// into PASS/FAIL, EXPECT (prints the line and the condition that failed)
// and a monotonic clock in microseconds. A test header may define its own
// EXPECT first (io-test.h adds errno to the message).

#ifndef CACS_TEST_CHECK_H
#define CACS_TEST_CHECK_H

#include <stdio.h>
#include <time.h>

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

static inline long long now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

#endif // CACS_TEST_CHECK_H
