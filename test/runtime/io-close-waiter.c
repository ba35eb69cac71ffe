// cacs_close on a descriptor other coroutines wait on: a reader, a writer
// (full buffer), two acceptors and a cacs_wait_fd waiter all wake at once
// with ECANCELED instead of hanging; the number, reused by a new socket, then
// works normally (the woken waiters did not touch it). cacs_io_forget wakes
// waiters the same way and leaves the descriptor open. Nothing leaks.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: close under a reader and a writer: ECANCELED, ECANCELED ok
// CHECK-NEXT: close under 2 acceptors and a wait_fd: ECANCELED x3 ok
// CHECK-NEXT: the reused number works ok
// CHECK-NEXT: forget: ECANCELED, descriptor still open ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"

#include <fcntl.h>
#include <sys/epoll.h>

struct waiter {
  int fd, kind;
  ssize_t result;
  int err;
  long long woke;
};
enum { W_READ, W_WRITE, W_ACCEPT, W_WAIT_FD };

static void waiter_entry(void *p) {
  struct waiter *w = (struct waiter *)p;
  static char big[4 << 20];
  switch (w->kind) {
  case W_READ:
    w->result = cacs_read(w->fd, big, 1, 10 * 1000000);
    break;
  case W_WRITE:
    w->result = cacs_write_all(w->fd, big, sizeof big, 10 * 1000000);
    break;
  case W_ACCEPT:
    w->result = cacs_accept(w->fd, NULL, NULL, 10 * 1000000);
    break;
  case W_WAIT_FD:
    w->result = cacs_wait_fd(w->fd, EPOLLIN, 10 * 1000000);
    break;
  }
  w->err = errno;
  w->woke = now_us();
}

// Start the waiters, let them all park, close `fd`, join them; each must
// have failed with ECANCELED within a second.
static int close_under(int fd, struct waiter *w, int n, int forget) {
  cacs_coro *co[4];
  for (int i = 0; i < n; i++) {
    w[i].fd = fd;
    co[i] = cacs_create(waiter_entry, &w[i], 0);
  }
  cacs_yield(); // every waiter parks
  long long t0 = now_us();
  if (forget)
    cacs_io_forget(fd);
  else
    EXPECT(cacs_close(fd) == 0);
  int cancelled = 0;
  for (int i = 0; i < n; i++) {
    cacs_join(co[i]);
    EXPECT(w[i].result == -1 && w[i].err == ECANCELED);
    EXPECT(w[i].woke - t0 < 1000000);
    cancelled += w[i].result == -1 && w[i].err == ECANCELED;
  }
  return cancelled;
}

static void test_reader_writer(int *peer) {
  int sv[2];
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  struct waiter w[2] = {{.kind = W_READ}, {.kind = W_WRITE}};
  int n = close_under(sv[0], w, 2, 0);
  EXPECT(n == 2);
  *peer = sv[1];
  printf("close under a reader and a writer: %s, %s %s\n",
         w[0].err == ECANCELED ? "ECANCELED" : strerror(w[0].err),
         w[1].err == ECANCELED ? "ECANCELED" : strerror(w[1].err),
         failures ? "FAILED" : "ok");
}

static void test_acceptors(void) {
  struct sockaddr_in a;
  int l = listen_loopback(4, &a);
  EXPECT(l >= 0);
  struct waiter w[3] = {
      {.kind = W_ACCEPT}, {.kind = W_ACCEPT}, {.kind = W_WAIT_FD}};
  int n = close_under(l, w, 3, 0);
  printf("close under 2 acceptors and a wait_fd: ECANCELED x%d %s\n", n,
         failures ? "FAILED" : "ok");
}

// The lowest free number is the one just closed: a new socketpair takes it.
// Its first read must wait for data sent later and get it.
static int reuse_fd;
static void late_sender(void *arg) {
  (void)arg;
  cacs_sleep(2000);
  EXPECT(cacs_write(reuse_fd, "hello", 5, 1000000) == 5);
}

static void test_reuse(int closed) {
  int sv[2];
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  EXPECT(sv[0] == closed); // the number closed above, reused
  // A plain blocking socket: the module must make it non-blocking again.
  EXPECT((fcntl(sv[0], F_GETFL) & O_NONBLOCK) == 0);
  reuse_fd = sv[1];
  cacs_coro *s = cacs_create(late_sender, NULL, 0);
  char buf[8] = {0};
  EXPECT(cacs_read(sv[0], buf, sizeof buf, 2000000) == 5);
  EXPECT(memcmp(buf, "hello", 5) == 0);
  cacs_join(s);
  cacs_close(sv[0]);
  cacs_close(sv[1]);
  printf("the reused number works %s\n", failures ? "FAILED" : "ok");
}

static void test_forget(void) {
  int sv[2];
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  struct waiter w[1] = {{.kind = W_READ}};
  close_under(sv[0], w, 1, 1);
  EXPECT(fcntl(sv[0], F_GETFD) >= 0); // still open
  // Still usable through the module.
  EXPECT(cacs_write(sv[1], "x", 1, 0) == 1);
  char c;
  EXPECT(cacs_read(sv[0], &c, 1, 1000000) == 1 && c == 'x');
  cacs_close(sv[0]);
  cacs_close(sv[1]);
  printf("forget: %s, descriptor still open %s\n",
         w[0].err == ECANCELED ? "ECANCELED" : strerror(w[0].err),
         failures ? "FAILED" : "ok");
}

int main(void) {
  int fds = test_begin(60);
  int peer;
  test_reader_writer(&peer);
  int closed = peer - 1; // socketpair returns ascending numbers
  test_acceptors();
  cacs_close(peer);
  // Close the peer first: the lowest free number is then `closed`.
  test_reuse(closed);
  test_forget();
  return test_end(fds);
}
