// Readiness caching on TCP sockets: after a read that got fewer bytes than
// asked (or a write that sent fewer), the next call in that direction waits
// for the next event instead of trying and meeting EAGAIN; a state that a
// read does not consume (end of file, urgent data) makes the descriptor
// tried again, so no read waits for an event that already came; a call with
// a zero timeout always tries.
// read() and send() are interposed to count the calls that fail with EAGAIN.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: ping-pong: no EAGAIN after a short read; a zero timeout tries ok
// CHECK-NEXT: streaming: no send meets EAGAIN after a short one ok
// CHECK-NEXT: data and end of file in one event: the data, then 0 ok
// CHECK-NEXT: urgent byte stops a read short: the rest still comes ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#define _GNU_SOURCE 1
#define IO_TEST_OWN_ENGINE 1 // it asks for its engine itself
#include "Inputs/io-test.h"

#include <netinet/tcp.h>
#include <sys/syscall.h>

static int eagain_reads, sends, eagain_sends;

ssize_t read(int fd, void *buf, size_t n) {
  ssize_t r = syscall(SYS_read, fd, buf, n);
  if (r < 0 && errno == EAGAIN)
    ++eagain_reads;
  return r;
}

ssize_t send(int fd, const void *buf, size_t n, int flags) {
  ssize_t r = syscall(SYS_sendto, fd, buf, n, flags, NULL, 0);
  ++sends;
  if (r < 0 && errno == EAGAIN)
    ++eagain_sends;
  return r;
}

// A connected TCP pair over loopback, without Nagle's delay.
static void tcp_pair(int c[2]) {
  tcp_pair_loopback(c);
  int one = 1;
  setsockopt(c[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  setsockopt(c[1], IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

enum { ROUNDS = 200, MSG = 100 };
static int conn[2];

// Echoes every message back, reading into a buffer ten times larger.
static void echo_server(void *arg) {
  (void)arg;
  char buf[10 * MSG];
  ssize_t r;
  while ((r = cacs_read(conn[1], buf, sizeof buf, 2000000)) > 0)
    if (cacs_write_all(conn[1], buf, (size_t)r, 2000000) != r)
      break;
}

static void test_ping_pong(void) {
  tcp_pair(conn);
  cacs_coro *s = cacs_create(echo_server, NULL, 0);
  eagain_reads = 0;
  char msg[MSG], back[10 * MSG];
  memset(msg, 'p', sizeof msg);
  int ok = 1;
  for (int i = 0; i < ROUNDS && ok; i++) {
    ok = cacs_write_all(conn[0], msg, MSG, 2000000) == MSG;
    size_t got = 0;
    while (ok && got < MSG) {
      ssize_t r = cacs_read(conn[0], back + got, sizeof back - got, 2000000);
      ok = r > 0;
      got += ok ? (size_t)r : 0;
    }
  }
  EXPECT(ok);
  // The client's socket is known drained; data that has arrived since
  // (its event not collected yet) is read by a call with a zero timeout,
  // which never waits.
  EXPECT(write(conn[1], "x", 1) == 1);
  EXPECT(cacs_read(conn[0], back, sizeof back, 0) == 1);
  // Each end's first read tries once before its socket is known drained;
  // without the cache every round costs each end one EAGAIN.
  EXPECT(eagain_reads <= 4);
  if (eagain_reads > 4)
    printf("EAGAIN reads: %d in %d rounds\n", eagain_reads, ROUNDS);
  cacs_close(conn[0]);
  cacs_join(s);
  cacs_close(conn[1]);
  printf("ping-pong: no EAGAIN after a short read; a zero timeout tries %s\n",
         failures ? "FAILED" : "ok");
}

enum { STREAM = 1 << 20 };

// Reads slowly, so that the writer fills the socket again and again.
static void slow_reader(void *arg) {
  size_t *total = (size_t *)arg;
  static char buf[64 << 10];
  ssize_t r;
  while ((r = cacs_read(conn[1], buf, sizeof buf, 2000000)) > 0) {
    *total += (size_t)r;
    cacs_sleep(200);
  }
}

static void test_streaming(void) {
  tcp_pair(conn);
  // Small buffers: the writer fills them many times.
  int small = 16 << 10;
  EXPECT(setsockopt(conn[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof small) == 0);
  EXPECT(setsockopt(conn[1], SOL_SOCKET, SO_RCVBUF, &small, sizeof small) == 0);
  size_t total = 0;
  cacs_coro *r = cacs_create(slow_reader, &total, 0);
  static char big[STREAM];
  sends = eagain_sends = 0;
  EXPECT(cacs_write_all(conn[0], big, sizeof big, 5000000) == STREAM);
  // A full socket is found by a short send, after which the writer waits;
  // without the cache each wait costs one send that meets EAGAIN.
  EXPECT(sends > 20); // it did fill up
  EXPECT(eagain_sends <= 2);
  if (eagain_sends > 2)
    printf("EAGAIN sends: %d of %d\n", eagain_sends, sends);
  cacs_close(conn[0]);
  cacs_join(r);
  EXPECT(total == STREAM);
  cacs_close(conn[1]);
  printf("streaming: no send meets EAGAIN after a short one %s\n",
         failures ? "FAILED" : "ok");
}

static ssize_t got_data, got_eof;
static char rbuf[64];

// Parks on an empty socket; reads what comes, then reads again.
static void reader_twice(void *arg) {
  (void)arg;
  got_data = cacs_read(conn[1], rbuf, sizeof rbuf, 2000000);
  got_eof = cacs_read(conn[1], rbuf + 3, sizeof rbuf - 3, 1000000);
}

static void test_data_and_eof(void) {
  tcp_pair(conn);
  cacs_coro *r = cacs_create(reader_twice, NULL, 0);
  cacs_yield(); // r tried, met EAGAIN and waits
  // Data and FIN reach the server end before its event is collected: the
  // event reports both, and the short read does not consume the FIN.
  EXPECT(write(conn[0], "abc", 3) == 3);
  EXPECT(shutdown(conn[0], SHUT_WR) == 0);
  cacs_join(r);
  EXPECT(got_data == 3 && memcmp(rbuf, "abc", 3) == 0);
  EXPECT(got_eof == 0);
  cacs_close(conn[0]);
  cacs_close(conn[1]);
  printf("data and end of file in one event: the data, then 0 %s\n",
         failures ? "FAILED" : "ok");
}

static void test_urgent(void) {
  tcp_pair(conn);
  cacs_coro *r = cacs_create(reader_twice, NULL, 0);
  cacs_yield();
  // The read stops short at the urgent mark with "def" still queued.
  EXPECT(write(conn[0], "abc", 3) == 3);
  EXPECT(send(conn[0], "U", 1, MSG_OOB) == 1);
  EXPECT(write(conn[0], "def", 3) == 3);
  cacs_sleep(20000); // all of it has arrived before the event is collected
  cacs_join(r);
  EXPECT(got_data == 3 && memcmp(rbuf, "abc", 3) == 0);
  EXPECT(got_eof == 3 && memcmp(rbuf + 3, "def", 3) == 0);
  cacs_close(conn[0]);
  cacs_close(conn[1]);
  printf("urgent byte stops a read short: the rest still comes %s\n",
         failures ? "FAILED" : "ok");
}

int main(void) {
  // The cache is the epoll loop's: the io_uring engine makes no read or
  // send to count (io-uring-calls.c checks it makes none).
  cacs_io_set_engine(CACS_IO_ENGINE_EPOLL);
  int fds = test_begin(60);
  test_ping_pong();
  test_streaming();
  test_data_and_eof();
  test_urgent();
  return test_end(fds);
}
