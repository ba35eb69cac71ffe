// Cross-thread wake-ups while an I/O wait is open, so that the thread
// blocks in the I/O module's poll hook (lib/sched.h) rather than in the
// core: a hook that watches the wake-up eventfd (cacs__poll_wake_fd) is
// woken by the post itself; a hook blind to it is called with at most
// 1 ms, so the post is still seen. A stand-in for the I/O module plays
// the hook.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t watch | FileCheck --check-prefix=WATCH %s
// RUN: %t blind | FileCheck --check-prefix=BLIND %s
//
// WATCH: watching hook: woken by the post, few polls
// WATCH-NEXT: PASS
// BLIND: blind hook: woken, polled every millisecond meanwhile
// BLIND-NEXT: PASS

#define _GNU_SOURCE 1 // ppoll
#include "Inputs/sync-test.h"
#include "cacs/sync.h"
#include "../../runtime/lib/sched.h" // private: the I/O module's side

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>

static int watch, wake_fd = -1;
static _Atomic int polls;
static long long max_timeout_us;

// Block like an epoll loop would, on the wake-up eventfd or on nothing.
static void fake_poll(int64_t timeout_us) {
  polls++;
  if (timeout_us < 0 || timeout_us > max_timeout_us)
    max_timeout_us = timeout_us < 0 ? 1LL << 62 : timeout_us;
  struct pollfd p = {wake_fd, POLLIN, 0};
  struct timespec ts = {(time_t)(timeout_us / 1000000),
                        (long)(timeout_us % 1000000) * 1000};
  ppoll(watch ? &p : NULL, watch ? 1 : 0, timeout_us < 0 ? NULL : &ts, NULL);
}

static int io_done;
static void io_waiter(void *arg) {
  (void)arg;
  EXPECT(cacs__io_wait_begin() == 0); // as the I/O module does
  while (!io_done)
    cacs_park(); // "waiting for a descriptor"
  cacs__io_wait_end();
}

static cacs_xsem xs;
// A blind hook must be seen polling (at least five times) before the post:
// a fixed delay would let a loaded machine schedule the waiter too rarely.
static void *post_later(void *arg) {
  (void)arg;
  usleep(20000);
  for (int i = 0; !watch && polls < 5 && i < 2000; i++)
    usleep(1000);
  cacs_xsem_post(&xs);
  return NULL;
}

int main(int argc, char **argv) {
  test_start(10);
  watch = argc > 1 && strcmp(argv[1], "watch") == 0;
  cacs_xsem_init(&xs, 0);
  if (watch)
    wake_fd = cacs__poll_wake_fd();
  cacs__set_poll_hook(fake_poll);
  cacs_coro *io = cacs_create(io_waiter, NULL, 0);
  cacs_yield(); // the I/O wait is open
  polls = 0;
  max_timeout_us = 0;
  pthread_t t;
  pthread_create(&t, NULL, post_later, NULL);
  long long t0 = now_us();
  EXPECT(cacs_xsem_wait(&xs, CACS_FOREVER) == 0);
  long long took = now_us() - t0;
  int n = polls;
  pthread_join(t, NULL);
  EXPECT(took < 5 * 1000 * 1000);
  if (watch) {
    // Blocked in the hook without a timeout until the post.
    EXPECT(n <= 4);
    printf("watching hook: woken by the post, %s polls\n",
           n <= 4 ? "few" : "many");
  } else {
    EXPECT(max_timeout_us <= 1000 && n >= 5);
    printf("blind hook: woken, polled every millisecond meanwhile\n");
  }
  io_done = 1;
  cacs_wake(io);
  cacs_join(io);
  cacs_xsem_destroy(&xs);
  return test_end();
}
