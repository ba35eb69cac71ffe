// A fault-injection program (scripts/faults): the I/O module on one
// thread's scheduler: echo over a socketpair and a loopback TCP connection
// (cacs_accept, cacs_connect, cacs_read/cacs_write with timeouts), a read
// that times out, a sleeping coroutine beside them, a read without a
// timeout ended by cacs_close, and a wake from another
// thread while the loop waits; in poll mode on the
// main thread, then in epoll mode on a thread of its own, then on a thread
// of the io_uring engine. Every fallible call
// is checked; a failure is reported ("handled: WHAT: ERRNO") and the
// program closes what it opened, so a run with any one call failing ends
// with exit 0 and nothing leaked, or in a documented abort.

#define _GNU_SOURCE 1 // strerrorname_np
#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/sync.h"
#include "faults-check.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>


enum { TIMEOUT = 2 * 1000 * 1000 };

// Echo what arrives on fd until EOF or an error.
static void echo(void *arg) {
  int fd = (int)(intptr_t)arg;
  char buf[64];
  ssize_t n;
  while ((n = cacs_read(fd, buf, sizeof buf, TIMEOUT)) > 0)
    if (!check(cacs_write_all(fd, buf, (size_t)n, TIMEOUT) == n, "echo write"))
      break;
  if (n < 0)
    check(0, "echo read");
}

// Send three messages through fd and read each back.
static int talk(int fd) {
  for (int i = 0; i < 3; i++) {
    char out[16], in[16];
    int len = snprintf(out, sizeof out, "msg %d", i);
    if (!check(cacs_write_all(fd, out, (size_t)len, TIMEOUT) == len,
               "cacs_write_all"))
      return -1;
    ssize_t got = 0, n;
    while (got < len &&
           (n = cacs_read(fd, in + got, (size_t)(len - got), TIMEOUT)) > 0)
      got += n;
    if (!check(got == len, "cacs_read"))
      return -1;
  }
  return 0;
}

static void test_pair(void) {
  int sv[2];
  if (!check(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0,
             "socketpair"))
    return;
  cacs_coro *e = cacs_create(echo, (void *)(intptr_t)sv[1], 0);
  if (check(e != NULL, "cacs_create")) {
    int r = talk(sv[0]);
    shutdown(sv[0], SHUT_WR);
    check(cacs_join(e) == 0, "cacs_join");
    printf("pair: %s\n", r == 0 ? "echoed" : "failed");
  }
  cacs_close(sv[0]);
  cacs_close(sv[1]);
}

static int lfd = -1;
static void server(void *arg) {
  (void)arg;
  int c = cacs_accept(lfd, NULL, NULL, TIMEOUT);
  if (!check(c >= 0, "cacs_accept"))
    return;
  echo((void *)(intptr_t)c);
  cacs_close(c);
}

static void test_tcp(void) {
  struct sockaddr_in a = {.sin_family = AF_INET};
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (!check(lfd >= 0, "socket"))
    return;
  if (!check(bind(lfd, (struct sockaddr *)&a, sizeof a) == 0 &&
                 listen(lfd, 4) == 0 &&
                 getsockname(lfd, (struct sockaddr *)&a, &len) == 0,
             "listen")) {
    close(lfd);
    return;
  }
  cacs_coro *s = cacs_create(server, NULL, 0);
  if (check(s != NULL, "cacs_create")) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int r = -1;
    if (check(fd >= 0, "socket")) {
      if (check(cacs_connect(fd, (struct sockaddr *)&a, sizeof a, TIMEOUT) ==
                    0,
                "cacs_connect"))
        r = talk(fd);
      cacs_close(fd); // the server sees EOF (or times out)
    }
    check(cacs_join(s) == 0, "cacs_join");
    printf("tcp: %s\n", r == 0 ? "echoed" : "failed");
  }
  cacs_close(lfd);
}

static void sleeper(void *arg) {
  (void)arg;
  check(cacs_sleep(2000) == 0, "cacs_sleep");
}

static void test_timeout(void) {
  int p[2];
  if (!check(pipe(p) == 0, "pipe"))
    return;
  cacs_coro *s = cacs_create(sleeper, NULL, 0);
  char c;
  check(cacs_read(p[0], &c, 1, 1000) == -1 && errno == ETIMEDOUT,
        "cacs_read timeout");
  if (check(s != NULL, "cacs_create"))
    check(cacs_join(s) == 0, "cacs_join");
  cacs_close(p[0]);
  cacs_close(p[1]);
  printf("timeout: done\n");
}

// A read without a timeout of a quiet pipe, ended by cacs_close from
// another coroutine of the thread once the read waits (in the kernel, on
// io_uring): -1 with ECANCELED (cacs/io.h). On io_uring the close cancels
// the request; a cancel with no room in the queue is tried again (a
// request left to end by itself would wait for ever).
static int cw_fd;
static void cw_closer(void *arg) {
  (void)arg;
  check(cacs_sleep(2000) == 0, "cacs_sleep");
  cacs_close(cw_fd);
}

static void test_close_waiting(void) {
  int p[2];
  if (!check(pipe(p) == 0, "pipe"))
    return;
  cw_fd = p[0];
  cacs_coro *c = cacs_create(cw_closer, NULL, 0);
  if (check(c != NULL, "cacs_create")) {
    char ch;
    check(cacs_read(p[0], &ch, 1, CACS_FOREVER) == -1 && errno == ECANCELED,
          "cacs_read closed");
    check(cacs_join(c) == 0, "cacs_join");
  } else {
    cacs_close(p[0]);
  }
  cacs_close(p[1]);
  printf("close waiting: done\n");
}

// A coroutine waiting for a cross-thread semaphore while the thread blocks
// in its I/O loop: the post (from another thread) must wake the loop.
static cacs_xsem xs;
static int xp[2];
static void xwaiter(void *arg) {
  (void)arg;
  check(cacs_xsem_wait(&xs, CACS_FOREVER) == 0, "cacs_xsem_wait");
  check(write(xp[1], "x", 1) == 1, "write");
}
static void *poster(void *arg) {
  (void)arg;
  usleep(20 * 1000);
  cacs_xsem_post(&xs);
  return NULL;
}

static void test_xwake(void) {
  if (!check(cacs_xsem_init(&xs, 0) == 0, "cacs_xsem_init"))
    return;
  if (check(pipe(xp) == 0, "pipe")) {
    cacs_coro *w = cacs_create(xwaiter, NULL, 0);
    pthread_t t;
    if (check(w != NULL, "cacs_create")) {
      if (check(pthread_create(&t, NULL, poster, NULL) == 0,
                "pthread_create")) {
        char c;
        check(cacs_read(xp[0], &c, 1, CACS_FOREVER) == 1, "cacs_read");
        pthread_join(t, NULL);
      } else {
        cacs_xsem_post(&xs);
      }
      check(cacs_join(w) == 0, "cacs_join");
    }
    cacs_close(xp[0]);
    cacs_close(xp[1]);
  }
  cacs_xsem_destroy(&xs);
  printf("xwake: done\n");
}

static void *run_all(void *arg) {
  (void)arg;
  test_pair();
  test_tcp();
  test_timeout();
  test_close_waiting();
  test_xwake();
  return NULL;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  // The epoll loop first, whatever the default engine and CACS_IO_ENGINE.
  cacs_io_set_engine(CACS_IO_ENGINE_EPOLL);
  run_all(NULL); // poll mode (few descriptors)
  // Again on a thread of its own, whose loop is in epoll mode from the
  // start and is freed when the thread exits.
  setenv("CACS_IO_POLL_MAX", "0", 1);
  pthread_t t;
  if (check(pthread_create(&t, NULL, run_all, NULL) == 0, "pthread_create"))
    pthread_join(t, NULL);
  // And on a thread of the io_uring engine (epoll where the runtime was
  // built without liburing or the kernel has none).
  unsetenv("CACS_IO_POLL_MAX");
  cacs_io_set_engine(CACS_IO_ENGINE_URING);
  if (check(pthread_create(&t, NULL, run_all, NULL) == 0, "pthread_create"))
    pthread_join(t, NULL);
  printf("done: %d handled\n", handled);
  return 0;
}
