// What park-address.c and park-address-cxx.cpp share: a trasher coroutine
// that feeds a pipe and a semaphore when the holder waits for them and fills
// every register with garbage before each switch back, and CALLS_BODY, which
// calls yield, sleep, read and sem_wait through four callables with
// LIVE_VALUES live across each call and prints what they returned.

#ifndef CACS_TEST_ADDRESS_TEST_H
#define CACS_TEST_ADDRESS_TEST_H

#include "cacs/sync.h"

#include <stdio.h>
#include <unistd.h>

#include "trash.h"

static int pipefd[2];
static cacs_sem sem = CACS_SEM_INIT(0);
static cacs_sem *post_to = &sem; // the semaphore the trasher posts
static volatile int stop, want_byte, want_unit;
static volatile char next_byte = 'a';

static void trasher(void *arg) {
  (void)arg;
  while (!stop) {
    if (want_byte) {
      want_byte = 0;
      char c = next_byte++;
      if (write(pipefd[1], &c, 1) != 1)
        perror("write");
    }
    if (want_unit) {
      want_unit = 0;
      cacs_sem_post(post_to);
    }
    trash();
    yield_bad_fp();
  }
}

// One call with LIVE_VALUES live across it; `after` prints what it returned.
#define THROUGH(way, what, call, after)                                        \
  do {                                                                         \
    LIVE_VALUES_DEFINE(seed + __LINE__, dseed + __LINE__);                     \
    call;                                                                      \
    LIVE_VALUES_CHECK(seed + __LINE__, dseed + __LINE__, check);               \
    printf("%s %s", way, what);                                                \
    after;                                                                     \
    printf("\n");                                                              \
  } while (0)

#define CALLS_BODY(way, y, s, r, w)                                            \
  int ri;                                                                      \
  ssize_t rn;                                                                  \
  char buf[8] = {0};                                                           \
  THROUGH(way, "yield", y(), (void)0);                                         \
  THROUGH(way, "sleep", ri = s(200), printf(" %d", ri));                       \
  want_byte = 1;                                                               \
  THROUGH(way, "read", rn = r(pipefd[0], buf, 1, 10000000),                    \
          printf(" %zd %s", rn, buf));                                         \
  want_unit = 1;                                                               \
  THROUGH(way, "sem_wait", ri = w(&sem, 10000000), printf(" %d", ri));

#endif // CACS_TEST_ADDRESS_TEST_H
