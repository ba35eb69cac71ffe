// Timeouts and interruptions of I/O waits: a read, an accept, a connect and
// a cacs_wait_fd time out after their timeout (not before, not much after);
// timeout 0 never waits; write_all's timeout covers the whole call; 1,000
// reads time out in deadline order; cacs_wake ends a wait with EINTR; a
// descriptor that is already readable satisfies cacs_wait_fd at once.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: read: ETIMEDOUT after the timeout ok
// CHECK-NEXT: zero timeout: ETIMEDOUT at once ok
// CHECK-NEXT: accept: ETIMEDOUT ok
// CHECK-NEXT: connect: ETIMEDOUT ok
// CHECK-NEXT: write_all: one deadline for the whole call ok
// CHECK-NEXT: wait_fd: times out, ready at once when readable ok
// CHECK-NEXT: 1000 reads timed out in deadline order ok
// CHECK-NEXT: cacs_wake: EINTR ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"

#include <sys/epoll.h>

static int sv[2];

// Elapsed time of a wait of `timeout` us must be at least the timeout and
// not absurdly more (a loaded machine, qemu: allow 2 s).
static int in_window(long long elapsed, long long timeout) {
  return elapsed >= timeout && elapsed < timeout + 2000000;
}

static void test_read(void) {
  char c;
  long long t0 = now_us();
  EXPECT(cacs_read(sv[0], &c, 1, 30000) == -1 && errno == ETIMEDOUT);
  EXPECT(in_window(now_us() - t0, 30000));
  printf("read: ETIMEDOUT after the timeout %s\n", failures ? "FAILED" : "ok");
}

static void test_zero(void) {
  char c;
  long long t0 = now_us();
  EXPECT(cacs_read(sv[0], &c, 1, 0) == -1 && errno == ETIMEDOUT);
  EXPECT(cacs_recv(sv[0], &c, 1, 0, 0) == -1 && errno == ETIMEDOUT);
  EXPECT(now_us() - t0 < 1000000);
  // Data present: a zero timeout does not stop the call from succeeding.
  EXPECT(cacs_write(sv[1], "x", 1, 0) == 1);
  EXPECT(cacs_read(sv[0], &c, 1, 0) == 1 && c == 'x');
  printf("zero timeout: ETIMEDOUT at once %s\n", failures ? "FAILED" : "ok");
}

static void test_accept(void) {
  struct sockaddr_in a;
  int l = listen_loopback(4, &a);
  EXPECT(l >= 0);
  long long t0 = now_us();
  EXPECT(cacs_accept(l, NULL, NULL, 20000) == -1 && errno == ETIMEDOUT);
  EXPECT(in_window(now_us() - t0, 20000));
  EXPECT(cacs_close(l) == 0);
  printf("accept: ETIMEDOUT %s\n", failures ? "FAILED" : "ok");
}

// A listener whose accept queue is full drops new SYNs: a connect to it
// stays in progress until the timeout.
static void test_connect(void) {
  struct sockaddr_in a;
  int l = listen_loopback(0, &a);
  EXPECT(l >= 0);
  int filled[8], nfilled = 0, timed_out = 0;
  long long elapsed = 0;
  for (int i = 0; i < 8 && !timed_out; i++) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    long long t0 = now_us();
    if (cacs_connect(fd, (struct sockaddr *)&a, sizeof a, 50000) == 0) {
      filled[nfilled++] = fd;
      continue;
    }
    elapsed = now_us() - t0;
    timed_out = errno == ETIMEDOUT;
    EXPECT(timed_out);
    cacs_close(fd);
  }
  EXPECT(timed_out && in_window(elapsed, 50000));
  for (int i = 0; i < nfilled; i++)
    cacs_close(filled[i]);
  cacs_close(l);
  printf("connect: ETIMEDOUT %s\n", failures ? "FAILED" : "ok");
}

static volatile int draining;
static void drainer(void *arg) {
  (void)arg;
  static char buf[65536];
  while (draining) {
    cacs_read(sv[1], buf, sizeof buf, 0);
    cacs_sleep(10000);
  }
}

static void test_write_all(void) {
  // A slow reader: the writer makes progress every 10 ms, so each of its
  // waits is short, but the whole call takes longer than its timeout.
  static char big[8 << 20];
  draining = 1;
  cacs_coro *d = cacs_create(drainer, NULL, 0);
  long long t0 = now_us();
  EXPECT(cacs_write_all(sv[0], big, sizeof big, 60000) == -1 &&
         errno == ETIMEDOUT);
  EXPECT(in_window(now_us() - t0, 60000));
  draining = 0;
  cacs_join(d);
  // Drain the rest so the next tests start empty.
  char buf[65536];
  while (cacs_read(sv[1], buf, sizeof buf, 0) > 0) {
  }
  printf("write_all: one deadline for the whole call %s\n",
         failures ? "FAILED" : "ok");
}

static void test_wait_fd(void) {
  long long t0 = now_us();
  EXPECT(cacs_wait_fd(sv[0], EPOLLIN, 20000) == -1 && errno == ETIMEDOUT);
  EXPECT(in_window(now_us() - t0, 20000));
  EXPECT(cacs_wait_fd(sv[0], 0, 20000) == -1 && errno == EINVAL);
  // Readable before the call; the edge was reported (and dropped) by the
  // loop while nobody waited, so only a readiness check can see it.
  EXPECT(cacs_write(sv[1], "y", 1, 0) == 1);
  cacs_sleep(1000); // the service coroutine polls the edge away
  t0 = now_us();
  EXPECT(cacs_wait_fd(sv[0], EPOLLIN, 2000000) == 0);
  EXPECT(cacs_wait_fd(sv[0], EPOLLIN, 2000000) == 0); // still readable
  EXPECT(now_us() - t0 < 1000000);
  char c;
  EXPECT(cacs_read(sv[0], &c, 1, 0) == 1 && c == 'y');
  EXPECT(cacs_wait_fd(sv[0], EPOLLIN | EPOLLOUT, 2000000) == 0); // writable
  printf("wait_fd: times out, ready at once when readable %s\n",
         failures ? "FAILED" : "ok");
}

enum { NREAD = 1000 };
static int fired[NREAD], nfired, started[NREAD], nstarted;
static long long due[NREAD], start[NREAD];
static void timed_reader(void *arg) {
  int k = (int)(long)arg;
  char c;
  int64_t timeout = 10000 + 1000 * (int64_t)k; // 10 ms to 1 s
  start[k] = now_us();
  started[nstarted++] = k;
  due[k] = start[k] + timeout;
  EXPECT(cacs_read(sv[0], &c, 1, timeout) == -1 && errno == ETIMEDOUT);
  EXPECT(now_us() >= due[k]);
  fired[nfired++] = k;
}

// The readers must time out in the order of the deadlines the library set,
// which the test cannot read, only bound: a reader's deadline is its
// timeout after a moment between its own start (`due`: the earliest) and
// the start of the reader that ran next, which starts only once this one
// has parked with its deadline set (the latest). Between the two the thread
// may be preempted for any time on a loaded machine (a 380 ms stop there
// made a bound of "due + 100 ms" fail, on either engine), so no slack in
// time stands for them: a reader fired out of order only if its latest
// deadline is before the earliest of one fired before it.
static void test_many(void) {
  static cacs_coro *co[NREAD];
  for (int i = 0; i < NREAD; i++)
    co[i] = cacs_create(timed_reader, (void *)(long)((i * 389) % NREAD), 0);
  for (int i = 0; i < NREAD; i++)
    cacs_join(co[i]);
  EXPECT(nfired == NREAD && nstarted == NREAD);
  static long long latest[NREAD];
  for (int i = 0; i < nstarted; i++) {
    int k = started[i];
    latest[k] = i + 1 < nstarted ? due[k] + (start[started[i + 1]] - start[k])
                                 : (long long)1 << 62; // the last: no bound
  }
  int misordered = 0;
  long long earliest_before = 0;
  for (int i = 0; i < nfired; i++) {
    misordered += latest[fired[i]] < earliest_before;
    if (due[fired[i]] > earliest_before)
      earliest_before = due[fired[i]];
  }
  EXPECT(misordered == 0);
  printf("%d reads timed out in deadline order %s\n", nfired,
         failures ? "FAILED" : "ok");
}

static int intr_result, intr_errno;
static void intr_reader(void *arg) {
  (void)arg;
  char c;
  intr_result = (int)cacs_read(sv[0], &c, 1, CACS_FOREVER);
  intr_errno = errno;
}

static void test_wake(void) {
  cacs_coro *r = cacs_create(intr_reader, NULL, 0);
  cacs_yield(); // r parks in cacs_read
  cacs_wake(r);
  cacs_join(r);
  EXPECT(intr_result == -1 && intr_errno == EINTR);
  // The interrupted reader left no trace: a new read still works.
  EXPECT(cacs_write(sv[1], "z", 1, 0) == 1);
  char c;
  EXPECT(cacs_read(sv[0], &c, 1, 1000000) == 1 && c == 'z');
  printf("cacs_wake: EINTR %s\n", failures ? "FAILED" : "ok");
}

int main(void) {
  int fds = test_begin(120);
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
  test_read();
  test_zero();
  test_accept();
  test_connect();
  test_write_all();
  test_wait_fd();
  test_many();
  test_wake();
  cacs_close(sv[0]);
  cacs_close(sv[1]);
  return test_end(fds);
}
