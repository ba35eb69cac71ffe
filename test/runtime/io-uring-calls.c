// The io_uring engine (cacs/io.h, "Engines"): asked for with
// cacs_io_set_engine, a thread runs its calls on its ring: a ping-pong over
// TCP makes no read, recv, write or send system call (libc's are
// interposed and counted; the epoll loop makes one or two per message); a
// read whose timeout passes or that cacs_wake interrupts is canceled and
// loses no byte that comes after; cacs_close fails a pending read with
// ECANCELED; another thread asked for epoll gets it; a bad engine is
// EINVAL. With the engine forced to epoll the counts are not zero and the
// test fails (see the second RUN line).
//
// REQUIRES: io-uring
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t && %t | FileCheck %s
// RUN: env IO_TEST_ASK=epoll not %t | FileCheck %s --check-prefix=EPOLL
//
// CHECK: engine before the first call: auto
// CHECK-NEXT: engine after: uring
// CHECK-NEXT: ping-pong: no read or send system call ok
// CHECK-NEXT: timeout: ETIMEDOUT, the next read gets the bytes ok
// CHECK-NEXT: cacs_wake: EINTR, the next read gets the bytes ok
// CHECK-NEXT: cacs_close: ECANCELED ok
// CHECK-NEXT: another thread asked for epoll: epoll ok
// CHECK-NEXT: bad engine: EINVAL ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS
// EPOLL: engine after: epoll
// EPOLL: FAIL line
// EPOLL-NEXT: ping-pong: no read or send system call FAILED
// EPOLL: {{^FAIL$}}

#define _GNU_SOURCE 1
#define IO_TEST_OWN_ENGINE 1 // it asks for its engine itself
#include "Inputs/io-test.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <sys/uio.h>

// Every way the epoll loop reads or writes a descriptor.
static int syscalls;

ssize_t read(int fd, void *buf, size_t n) {
  ++syscalls;
  return syscall(SYS_read, fd, buf, n);
}
ssize_t write(int fd, const void *buf, size_t n) {
  ++syscalls;
  return syscall(SYS_write, fd, buf, n);
}
ssize_t recv(int fd, void *buf, size_t n, int flags) {
  ++syscalls;
  return syscall(SYS_recvfrom, fd, buf, n, flags, NULL, NULL);
}
ssize_t send(int fd, const void *buf, size_t n, int flags) {
  ++syscalls;
  return syscall(SYS_sendto, fd, buf, n, flags, NULL, 0);
}

static int conn[2];

enum { ROUNDS = 100, MSG = 64 };

static void echo_server(void *arg) {
  (void)arg;
  char buf[MSG];
  ssize_t r;
  while ((r = cacs_read(conn[1], buf, sizeof buf, 2000000)) > 0)
    if (cacs_write_all(conn[1], buf, (size_t)r, 2000000) != r)
      break;
}

static void test_ping_pong(void) {
  tcp_pair_loopback(conn);
  cacs_coro *s = cacs_create(echo_server, NULL, 0);
  char msg[MSG], back[MSG];
  memset(msg, 'x', sizeof msg);
  syscalls = 0;
  int bad = 0;
  for (int i = 0; i < ROUNDS; i++) {
    msg[0] = (char)i;
    if (cacs_write_all(conn[0], msg, sizeof msg, 2000000) != MSG)
      bad++;
    size_t got = 0;
    while (got < MSG) {
      ssize_t r = cacs_read(conn[0], back + got, MSG - got, 2000000);
      if (r <= 0)
        break;
      got += (size_t)r;
    }
    if (got != MSG || memcmp(msg, back, MSG) != 0)
      bad++;
  }
  int calls = syscalls;
  EXPECT(bad == 0);
  EXPECT(calls == 0);
  cacs_close(conn[0]);
  cacs_join(s);
  cacs_close(conn[1]);
  printf("ping-pong: no read or send system call %s\n",
         calls == 0 && bad == 0 ? "ok" : "FAILED");
}

// A read times out (or is woken), then bytes come: the next read has them.
static cacs_coro *reader;
static int read_errno;

static void read_once(void *arg) {
  char c;
  read_errno =
      cacs_read(conn[1], &c, 1, (int64_t)(intptr_t)arg) < 0 ? errno : 0;
}

static void test_cancel(int wake) {
  int before = failures;
  tcp_pair_loopback(conn);
  reader = cacs_create(read_once, (void *)(intptr_t)(wake ? -1 : 20000), 0);
  if (wake) {
    cacs_sleep(10000);
    cacs_wake(reader);
  }
  cacs_join(reader);
  EXPECT(read_errno == (wake ? EINTR : ETIMEDOUT));
  EXPECT(cacs_write_all(conn[0], "abc", 3, 2000000) == 3);
  char buf[8];
  ssize_t r = cacs_read(conn[1], buf, sizeof buf, 2000000);
  EXPECT(r == 3 && memcmp(buf, "abc", 3) == 0);
  cacs_close(conn[0]);
  cacs_close(conn[1]);
  printf("%s, the next read gets the bytes %s\n",
         wake ? "cacs_wake: EINTR" : "timeout: ETIMEDOUT",
         failures == before ? "ok" : "FAILED");
}

static void test_close(void) {
  int before = failures;
  tcp_pair_loopback(conn);
  reader = cacs_create(read_once, (void *)(intptr_t)-1, 0);
  cacs_sleep(10000);
  EXPECT(cacs_close(conn[1]) == 0);
  cacs_join(reader);
  EXPECT(read_errno == ECANCELED);
  cacs_close(conn[0]);
  printf("cacs_close: ECANCELED %s\n", failures == before ? "ok" : "FAILED");
}

static int thread_engine;

static void *other_thread(void *arg) {
  (void)arg;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0) {
    char c;
    cacs_read(sv[0], &c, 1, 0);
    cacs_close(sv[0]);
    cacs_close(sv[1]);
  }
  thread_engine = cacs_io_engine();
  return NULL;
}

int main(void) {
  const char *ask = getenv("IO_TEST_ASK");
  int want = ask && !strcmp(ask, "epoll") ? CACS_IO_ENGINE_EPOLL
                                          : CACS_IO_ENGINE_URING;
  printf("engine before the first call: %s\n",
         io_engine_name(cacs_io_engine()));
  cacs_io_set_engine(want);
  int fds = test_begin(60);
  printf("engine after: %s\n", io_engine_name(cacs_io_engine()));
  test_ping_pong();
  test_cancel(0);
  test_cancel(1);
  test_close();
  EXPECT(cacs_io_set_engine(CACS_IO_ENGINE_EPOLL) == want);
  pthread_t t;
  EXPECT(pthread_create(&t, NULL, other_thread, NULL) == 0);
  pthread_join(t, NULL);
  EXPECT(thread_engine == CACS_IO_ENGINE_EPOLL);
  printf("another thread asked for epoll: %s %s\n",
         io_engine_name(thread_engine),
         thread_engine == CACS_IO_ENGINE_EPOLL ? "ok" : "FAILED");
  int before = failures;
  errno = 0;
  EXPECT(cacs_io_set_engine(3) == -1 && errno == EINVAL);
  printf("bad engine: EINVAL %s\n", failures == before ? "ok" : "FAILED");
  return test_end(fds);
}
