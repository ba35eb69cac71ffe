// Readiness caching (lib/io.c) and urgent data. A short read marks a TCP
// socket drained, so the next call that may wait waits for an event first.
// When only an urgent byte arrives after that, epoll reports EPOLLPRI
// without EPOLLIN (the byte is out of band); the mark must go and waiters
// must retry, or cacs_recv(MSG_OOB) times out with the byte there. A
// plain read after it still finds the data that follows.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t2 | FileCheck %s
//
// CHECK: read 2 'ab'
// CHECK-NEXT: slept 0
// CHECK-NEXT: oob 1 'Z'
// CHECK-NEXT: read 2 'cd'
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#include "cacs/coro.h"

#include "Inputs/io-test.h"

static int peer, sock;
static volatile int oob_done;

static void result(const char *what, ssize_t n, const char *b) {
  if (n < 0) {
    printf("%s: error %s\n", what, strerror(errno));
    ++failures;
  } else {
    printf("%s %zd '%.*s'\n", what, n, (int)n, b);
  }
}

static void reader(void *arg) {
  (void)arg;
  char b[64];
  // Waits for "ab", then reads it: fewer bytes than asked, drained.
  result("read", cacs_read(sock, b, sizeof b, 2000000), b);
  // The urgent byte arrives meanwhile.
  printf("slept %d\n", cacs_sleep(100000));
  result("oob", cacs_recv(sock, b, 1, MSG_OOB, 2000000), b);
  oob_done = 1;
  result("read", cacs_read(sock, b, sizeof b, 2000000), b);
}

static void writer(void *arg) {
  (void)arg;
  cacs_sleep(20000);
  send(peer, "ab", 2, 0);
  cacs_sleep(20000);
  send(peer, "Z", 1, MSG_OOB);
  // Nothing more until the reader has the urgent byte: data that follows
  // would wake it anyway.
  while (!oob_done)
    cacs_sleep(1000);
  send(peer, "cd", 2, 0);
}

int main(void) {
  int fds = test_begin(30);
  struct sockaddr_in sa;
  int l = listen_loopback(1, &sa);
  peer = socket(AF_INET, SOCK_STREAM, 0);
  if (l < 0 || connect(peer, (struct sockaddr *)&sa, sizeof sa) != 0)
    return 1;
  sock = accept(l, NULL, NULL);
  close(l);
  cacs_coro *r = cacs_create(reader, NULL, 0);
  cacs_coro *w = cacs_create(writer, NULL, 0);
  cacs_join(r);
  cacs_join(w);
  cacs_close(sock);
  close(peer);
  return test_end(fds);
}
