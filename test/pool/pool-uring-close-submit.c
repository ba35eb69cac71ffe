// On the pool's io_uring engine (a ring per worker) a request is queued by
// its coroutine and sent to the kernel later, by its worker's pass. A
// cacs_close from another thread marks the descriptor's requests closed,
// and the pass turns a closed request not sent yet into a no-op: once the
// close(2) is done the number may be another file's, and a read sent then
// would take that file's bytes. The pass looks at the marks, then submits:
// a close that lands between the two (a preemption of the worker there)
// must still not let the request reach the new file.
//
// The test holds the worker there: io_uring_submit_and_get_events, the
// pass's submit, is wrapped at link time. A pool coroutine reads a socket
// (no timeout); when its worker's pass is about to submit that read, the
// main thread cacs_closes the socket, makes a new socketpair (which takes
// the closed number, the lowest free) and writes a byte into it, then lets
// the submit go on (or the submit goes on by itself after a bound, if the
// close cannot proceed meanwhile). The byte must still be in the new socket
// for the main thread's read, and the coroutine's read ends with ECANCELED.
//
// REQUIRES: io-uring
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 \
// RUN:   -lpthread -Wl,--wrap=io_uring_submit_and_get_events -o %t
// RUN: %t | FileCheck %s
//
// CHECK: engine: uring
// CHECK-NEXT: the new socket took the closed number: 1
// CHECK-NEXT: new file's byte: still there
// CHECK-NEXT: old read: ECANCELED
// CHECK-NEXT: PASS

#define _GNU_SOURCE 1
#include "cacs/io.h"
#include "cacs/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct io_uring;

#define CHECK(c)                                                               \
  do {                                                                         \
    if (!(c)) {                                                                \
      printf("FAIL: %s:%d: %s\n", __FILE__, __LINE__, #c);                     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int armed, held, released;

static struct timespec in_ms(int ms) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ts.tv_sec += ms / 1000;
  ts.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  return ts;
}

// The pass's submit: while armed, the first one waits (a bounded time:
// a fixed engine may hold the close off until the submit is done) for the
// main thread to have closed and reused the number.
int __real_io_uring_submit_and_get_events(struct io_uring *ring);
int __wrap_io_uring_submit_and_get_events(struct io_uring *ring) {
  pthread_mutex_lock(&mu);
  if (armed) {
    armed = 0;
    held = 1;
    pthread_cond_broadcast(&cv);
    struct timespec until = in_ms(1000);
    while (!released && pthread_cond_timedwait(&cv, &mu, &until) != ETIMEDOUT)
      ;
  }
  pthread_mutex_unlock(&mu);
  return __real_io_uring_submit_and_get_events(ring);
}

static int old_fd;
static atomic_int read_errno = -1;

static void reader(void *arg) {
  (void)arg;
  char c;
  pthread_mutex_lock(&mu);
  armed = 1; // the read's request is the next thing this worker submits
  pthread_mutex_unlock(&mu);
  ssize_t n = cacs_read(old_fd, &c, 1, CACS_FOREVER);
  atomic_store(&read_errno, n < 0 ? errno : 0);
}

static void engine_of(void *arg) { *(int *)arg = cacs_io_engine(); }

int main(void) {
  CHECK(cacs_io_set_engine(CACS_IO_ENGINE_URING) == 0);
  cacs_pool *p = cacs_pool_create(1);
  CHECK(p);
  int e = 0;
  cacs_pool_join(cacs_pool_spawn(p, engine_of, &e));
  printf("engine: %s\n", e == CACS_IO_ENGINE_URING ? "uring" : "epoll");
  CHECK(e == CACS_IO_ENGINE_URING);

  int a[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, a) == 0);
  old_fd = a[0];
  cacs_pool_task *t = cacs_pool_spawn(p, reader, NULL);
  CHECK(t);

  // The worker is about to submit the read: close, reuse, write.
  pthread_mutex_lock(&mu);
  struct timespec until = in_ms(10000);
  while (!held && pthread_cond_timedwait(&cv, &mu, &until) != ETIMEDOUT)
    ;
  int was_held = held;
  pthread_mutex_unlock(&mu);
  CHECK(was_held);
  CHECK(cacs_close(old_fd) == 0);
  int b[2];
  CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, b) == 0);
  printf("the new socket took the closed number: %d\n", b[0] == old_fd);
  CHECK(write(b[1], "y", 1) == 1);
  pthread_mutex_lock(&mu);
  released = 1;
  pthread_cond_broadcast(&cv);
  pthread_mutex_unlock(&mu);

  CHECK(cacs_pool_join(t) == 0);
  // The byte is the new file's: still there once the old read has ended.
  char c = 0;
  CHECK(fcntl(b[0], F_SETFL, O_NONBLOCK) == 0);
  ssize_t n = read(b[0], &c, 1);
  printf("new file's byte: %s\n", n == 1 && c == 'y' ? "still there"
                                  : n == 0           ? "end of file"
                                                     : "taken");
  int re = atomic_load(&read_errno);
  printf("old read: %s\n", re == ECANCELED ? "ECANCELED" : strerror(re));
  CHECK(cacs_pool_destroy(p) == 0);
  close(a[1]);
  close(b[0]);
  close(b[1]);
  printf("PASS\n");
  return 0;
}
