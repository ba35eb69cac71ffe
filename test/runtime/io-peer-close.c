// A peer that goes away mid-request: the reader gets the bytes sent, then
// end of file (0); a reader already waiting wakes with 0; writing to a
// closed peer fails with EPIPE (no SIGPIPE: the process survives) and a
// writer already waiting on a full buffer wakes with the error; a TCP peer
// that resets gives ECONNRESET.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: half a request, then EOF ok
// CHECK-NEXT: waiting reader wakes with EOF ok
// CHECK-NEXT: write to a closed peer: EPIPE, no signal ok
// CHECK-NEXT: waiting writer wakes with EPIPE ok
// CHECK-NEXT: tcp reset: ECONNRESET ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"

static int pair(int sv[2]) {
  return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
}

static int sv[2];

// The client sends half of its 100-byte request and closes.
static void half_sender(void *arg) {
  (void)arg;
  char req[50];
  memset(req, 'r', sizeof req);
  cacs_sleep(2000); // the server is waiting by now
  EXPECT(cacs_write_all(sv[1], req, sizeof req, 1000000) == 50);
  EXPECT(cacs_close(sv[1]) == 0);
}

static void test_half_request(void) {
  EXPECT(pair(sv) == 0);
  cacs_coro *c = cacs_create(half_sender, NULL, 0);
  char req[100];
  size_t got = 0;
  ssize_t k;
  while (got < sizeof req &&
         (k = cacs_read(sv[0], req + got, sizeof req - got, 2000000)) > 0)
    got += (size_t)k;
  EXPECT(got == 50 && k == 0);
  EXPECT(cacs_read(sv[0], req, sizeof req, 2000000) == 0); // EOF stays
  cacs_join(c);
  cacs_close(sv[0]);
  printf("half a request, then EOF %s\n", failures ? "FAILED" : "ok");
}

static ssize_t waiting_result;
static int waiting_errno;
static void waiting_reader(void *arg) {
  (void)arg;
  char c;
  waiting_result = cacs_read(sv[0], &c, 1, 5000000);
  waiting_errno = errno;
}

static void test_waiting_reader(void) {
  EXPECT(pair(sv) == 0);
  cacs_coro *r = cacs_create(waiting_reader, NULL, 0);
  cacs_yield(); // r waits
  long long t0 = now_us();
  EXPECT(close(sv[1]) == 0); // a peer outside the module (another process)
  cacs_join(r);
  EXPECT(waiting_result == 0);
  EXPECT(now_us() - t0 < 2000000);
  cacs_close(sv[0]);
  printf("waiting reader wakes with EOF %s\n", failures ? "FAILED" : "ok");
}

static void test_write_closed(void) {
  EXPECT(pair(sv) == 0);
  EXPECT(close(sv[1]) == 0);
  char c = 'w';
  EXPECT(cacs_write(sv[0], &c, 1, 1000000) == -1 && errno == EPIPE);
  EXPECT(cacs_send(sv[0], &c, 1, 0, 1000000) == -1 && errno == EPIPE);
  struct iovec iov = {&c, 1};
  EXPECT(cacs_writev(sv[0], &iov, 1, 1000000) == -1 && errno == EPIPE);
  EXPECT(cacs_write_all(sv[0], &c, 1, 1000000) == -1 && errno == EPIPE);
  cacs_close(sv[0]);
  printf("write to a closed peer: EPIPE, no signal %s\n",
         failures ? "FAILED" : "ok");
}

static void waiting_writer(void *arg) {
  (void)arg;
  static char big[4 << 20];
  waiting_result = cacs_write_all(sv[0], big, sizeof big, 5000000);
  waiting_errno = errno;
}

static void test_waiting_writer(void) {
  EXPECT(pair(sv) == 0);
  cacs_coro *w = cacs_create(waiting_writer, NULL, 0);
  cacs_yield(); // w fills the buffer and waits
  long long t0 = now_us();
  EXPECT(close(sv[1]) == 0);
  cacs_join(w);
  EXPECT(waiting_result == -1 && waiting_errno == EPIPE);
  EXPECT(now_us() - t0 < 2000000);
  cacs_close(sv[0]);
  printf("waiting writer wakes with EPIPE %s\n", failures ? "FAILED" : "ok");
}

static void test_tcp_reset(void) {
  struct sockaddr_in a;
  int l = listen_loopback(4, &a);
  EXPECT(l >= 0);
  int c = connect_loopback(&a, 2000000);
  EXPECT(c >= 0);
  int s = cacs_accept(l, NULL, NULL, 2000000);
  EXPECT(s >= 0);
  sv[0] = c;
  cacs_coro *r = cacs_create(waiting_reader, NULL, 0);
  cacs_yield();              // r waits on the client end
  struct linger lg = {1, 0}; // close with a reset
  EXPECT(setsockopt(s, SOL_SOCKET, SO_LINGER, &lg, sizeof lg) == 0);
  EXPECT(cacs_close(s) == 0);
  cacs_join(r);
  EXPECT(waiting_result == -1 && waiting_errno == ECONNRESET);
  cacs_close(c);
  cacs_close(l);
  printf("tcp reset: ECONNRESET %s\n", failures ? "FAILED" : "ok");
}

int main(void) {
  int fds = test_begin(60);
  test_half_request();
  test_waiting_reader();
  test_write_closed();
  test_waiting_writer();
  test_tcp_reset();
  return test_end(fds);
}
