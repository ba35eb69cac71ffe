// The stack budgets of cacs/detail/contract.h hold on the io_uring
// engine's fallbacks too, where a call that started on the ring ends in
// the epoll loop's (or a sync block's) wait, below the ring's frames
// (cacs__uring_io, cacs__uring_wait_fd, the ring's connect):
//  - a child after fork() that io_uring refuses (here a seccomp filter,
//    Inputs/refuse-io-uring.h): its thread's ring is gone
//    (ring_after_fork), the next call finds that none can be made
//    (ring_ready) and moves the thread to the epoll loop. A call in
//    flight at the fork (parked on the parent's ring) wakes and waits
//    again there; the first call made after the fork does the same from
//    its own start. Each of them is the thread's first wait on the
//    epoll loop (its setup's deep calls, the records' growth);
//  - a call inside a sync block (cacs/syncblock.h) on io_uring: poll(2)
//    below the ring's frame;
//  - io_uring refused from the start: the thread's first call picks the
//    epoll loop (the same frames as CACS_IO_ENGINE=epoll's).
// The calls that transfer (cacs_read, cacs_accept, cacs_connect) are held
// to CACS_CONTRACT_WAIT_STACK_BUDGET, cacs_wait_fd to
// CACS_CONTRACT_WAIT_FD_STACK_BUDGET, measured as test/runtime/stack-budget.c
// measures (Inputs/stack-budget.h: the watermark below the caller's
// stack pointer, the cold-call shield off, -z now). Each case runs in a
// process of its own (the fork's child, or a process that made its ring),
// and says that its call parked and that the thread moved to epoll during
// it, so the line that says "within the budget" was on the fallback's path.
// x86-64 only: the AArch64 libcacs that qemu runs is built without
// liburing (no ring, no fallback; bench/results/stackbound/README.md sums
// its frames instead).
//
// Breaking it: on libcacs before session 43, where these calls waited on
// the epoll loop below the ring's frames (cacs__uring_io, io_try_wait,
// cacs__uring_wait_fd), the child's first accept used 752 bytes (768
// through _pn_bp) of the transfers' 608, its first read 640, an accept
// parked at the fork 616, its cacs_wait_fd 240 of 216: OVER. Now 464, 368,
// 512 and 160; with the budgets lowered to 463 and 159 (contract.h) the
// parked and the first accept and both wait_fd cases are OVER.
//
// REQUIRES: io-uring
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -mllvm -cacs-cold-call-shield=false -Wl,-z,now -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: env CACS_IO_ENGINE=uring %t/p 2>%t/err | FileCheck %s
// RUN: %clang -O2 -mllvm -cacs-cold-call-shield=false -DCACS_YIELD_SAVE_BP=1 -Wl,-z,now -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/bp
// RUN: env CACS_IO_ENGINE=uring %t/bp 2>%t/err-bp | FileCheck %s
//
// CHECK-NOT: OVER
// CHECK-NOT: FAILED
// CHECK: read parked at the fork: within the budget
// CHECK-NEXT: read parked at the fork: parked, moved to epoll, ok
// CHECK-NEXT: read parked at the fork, timed: within the budget
// CHECK-NEXT: read parked at the fork, timed: parked, moved to epoll, ok
// CHECK-NEXT: read parked at the fork, moved already: within the budget
// CHECK-NEXT: read parked at the fork, moved already: parked, moved to epoll, ok
// CHECK-NEXT: accept parked at the fork: within the budget
// CHECK-NEXT: accept parked at the fork: parked, moved to epoll, ok
// CHECK-NEXT: connect parked at the fork: within the budget
// CHECK-NEXT: connect parked at the fork: parked, moved to epoll, ok
// CHECK-NEXT: read first after the fork: within the budget
// CHECK-NEXT: read first after the fork: parked, moved to epoll, ok
// CHECK-NEXT: read first after the fork, timed: within the budget
// CHECK-NEXT: read first after the fork, timed: parked, moved to epoll, ok
// CHECK-NEXT: accept first after the fork: within the budget
// CHECK-NEXT: accept first after the fork: parked, moved to epoll, ok
// CHECK-NEXT: connect first after the fork: within the budget
// CHECK-NEXT: connect first after the fork: parked, moved to epoll, ok
// CHECK-NEXT: wait_fd first after the fork: within the budget
// CHECK-NEXT: wait_fd first after the fork: parked, moved to epoll, ok
// CHECK-NEXT: wait_fd first after the fork, timed: within the budget
// CHECK-NEXT: wait_fd first after the fork, timed: parked, moved to epoll, ok
// CHECK-NEXT: read in a sync block: within the budget
// CHECK-NEXT: read in a sync block: blocked, on io_uring, ok
// CHECK-NEXT: accept in a sync block: within the budget
// CHECK-NEXT: accept in a sync block: blocked, on io_uring, ok
// CHECK-NEXT: read, io_uring refused from the start: within the budget
// CHECK-NEXT: read, io_uring refused from the start: parked, on epoll, ok
// CHECK-NEXT: accept, io_uring refused from the start: within the budget
// CHECK-NEXT: accept, io_uring refused from the start: parked, on epoll, ok
// CHECK-NEXT: PASS

#define _GNU_SOURCE 1
#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/syncblock.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <unistd.h>

#include "Inputs/refuse-io-uring.h"
#include "Inputs/stack-budget-net.h"
#include "Inputs/stack-budget.h"

enum kind { READ, ACCEPT, CONNECT, WAIT_FD };
// Where the call starts: parked on the ring at the fork (SECOND: another
// call after the fork has moved the thread to epoll before it runs again),
// first after the fork, inside a sync block on the ring, or with io_uring
// refused before any call.
enum when { PARKED, SECOND, FIRST, SYNC, REFUSED };

struct variant {
  const char *what;
  enum kind kind;
  enum when when;
  int64_t timeout_us; // -1: released; else the call's (released before it)
};

// The timeout of the timed waits that are released: never reached. A
// connect is not released (its listener's queue is full): its timeout
// ends it, long enough for the prober to be seen parked first (and in
// the child, for one parked at the fork) on a loaded machine. Inside a
// sync block the thread blocks in poll(2) until its timeout.
#define LONG (10 * 1000 * 1000)
#define CONNECT_US (200 * 1000)
#define SYNC_US (20 * 1000)

static const struct variant variants[] = {
    {"read parked at the fork", READ, PARKED, -1},
    {"read parked at the fork, timed", READ, PARKED, LONG},
    {"read parked at the fork, moved already", READ, SECOND, -1},
    {"accept parked at the fork", ACCEPT, PARKED, -1},
    {"connect parked at the fork", CONNECT, PARKED, CONNECT_US},
    {"read first after the fork", READ, FIRST, -1},
    {"read first after the fork, timed", READ, FIRST, LONG},
    {"accept first after the fork", ACCEPT, FIRST, -1},
    {"connect first after the fork", CONNECT, FIRST, CONNECT_US},
    {"wait_fd first after the fork", WAIT_FD, FIRST, -1},
    {"wait_fd first after the fork, timed", WAIT_FD, FIRST, LONG},
    {"read in a sync block", READ, SYNC, SYNC_US},
    {"accept in a sync block", ACCEPT, SYNC, SYNC_US},
    {"read, io_uring refused from the start", READ, REFUSED, -1},
    {"accept, io_uring refused from the start", ACCEPT, REFUSED, -1},
};

static const struct variant *v;
static int pipefd[2];
static int lfd = -1;  // a listener on the loopback (accept)
static int full = -1; // a listener whose queue is full (connect)
static struct sockaddr_in laddr, faddr;
static int cfd = -1; // the connecting socket
static volatile int entered, done;
static ssize_t got;
static int got_errno;
static int bad;

// The measured call, made by this frame itself (MEASURE's rule).
__attribute__((noinline)) static void probe(void) {
  char c;
  int64_t t = v->timeout_us;
  switch (v->kind) {
  case READ:
    MEASURE(
        v->what, CACS_CONTRACT_WAIT_STACK_BUDGET, 1,
        (entered = 1, got = cacs_read(pipefd[0], &c, 1, t), got_errno = errno));
    break;
  case ACCEPT:
    MEASURE(v->what, CACS_CONTRACT_WAIT_STACK_BUDGET, 1,
            (entered = 1, got = cacs_accept(lfd, NULL, NULL, t),
             got_errno = errno));
    break;
  case CONNECT:
    MEASURE(
        v->what, CACS_CONTRACT_WAIT_STACK_BUDGET, 1,
        (entered = 1,
         got = cacs_connect(cfd, (struct sockaddr *)&faddr, sizeof faddr, t),
         got_errno = errno));
    break;
  case WAIT_FD:
    MEASURE(v->what, CACS_CONTRACT_WAIT_FD_STACK_BUDGET, 1,
            (entered = 1, got = cacs_wait_fd(pipefd[0], EPOLLIN, t),
             got_errno = errno));
    break;
  }
  done = 1;
}

static void prober_main(void *arg) {
  (void)arg;
  if (v->when == SYNC) {
    CACS_SYNC { probe(); }
  } else {
    probe();
  }
}

// Whether the prober waits now (it ran until it parked, and is not done).
static int parked(void) { return entered && !done; }

// Let the prober's call end: a byte, or a connection.
static void release(void) {
  if (v->kind == READ || v->kind == WAIT_FD) {
    if (write(pipefd[1], "x", 1) != 1)
      bad = 1;
  } else if (v->kind == ACCEPT) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0 || connect(s, (struct sockaddr *)&laddr, sizeof laddr) != 0)
      bad = 1;
    close(s);
  }
}

// Whether the call's result is what its release made it.
static int result_ok(void) {
  if (v->kind == CONNECT || v->when == SYNC)
    return got == -1 && got_errno == ETIMEDOUT;
  if (v->kind == ACCEPT)
    return got >= 0 && cacs_close((int)got) == 0;
  if (v->kind == WAIT_FD) {
    char c;
    return got == 0 && read(pipefd[0], &c, 1) == 1;
  }
  return got == 1;
}

// The case's descriptors: a pipe, a listener, a full listener (one
// connection in its queue of one) and a socket to connect with it.
static int open_fds(void) {
  if (pipe(pipefd) != 0 || (lfd = budget_listener(&laddr)) < 0)
    return -1;
  full = socket(AF_INET, SOCK_STREAM, 0);
  socklen_t len = sizeof faddr;
  memset(&faddr, 0, sizeof faddr);
  faddr.sin_family = AF_INET;
  faddr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (full < 0 || bind(full, (struct sockaddr *)&faddr, sizeof faddr) != 0 ||
      listen(full, 0) != 0 ||
      getsockname(full, (struct sockaddr *)&faddr, &len) != 0)
    return -1;
  int filler = socket(AF_INET, SOCK_STREAM, 0);
  if (filler < 0 ||
      connect(filler, (struct sockaddr *)&faddr, sizeof faddr) != 0)
    return -1;
  cfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  return cfd < 0 ? -1 : 0;
}

// The thread's ring, made by a call that times out at once.
static void make_ring(void) {
  int sv[2];
  char c;
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0 ||
      cacs_read(sv[0], &c, 1, 1) != -1 || errno != ETIMEDOUT)
    bad = 1;
  cacs_close(sv[0]);
  cacs_close(sv[1]);
  if (cacs_io_engine() != CACS_IO_ENGINE_URING) {
    printf("%s: no ring in the parent: FAILED\n", v->what);
    bad = 1;
  }
}

// The measured call's run, in this process: the prober (made already if
// `prober`), its release once it waits, and the verdict; `engine_before`,
// the thread's engine when the call began. 0 if all is well.
static int measure(cacs_coro *prober, int engine_before,
                   const char *engine_then) {
  if (!prober)
    prober = cacs_create(prober_main, NULL, 0);
  cacs_yield(); // it runs (again) until it waits
  cacs_yield();
  // Inside a sync block the thread blocked in the wait: done already.
  int waited = v->when == SYNC ? done : parked();
  if (v->when != SYNC)
    release();
  cacs_join(prober);
  int moved = v->when == SYNC ? cacs_io_engine() == CACS_IO_ENGINE_URING
              : v->when == REFUSED
                  ? cacs_io_engine() == CACS_IO_ENGINE_EPOLL
                  : engine_before == CACS_IO_ENGINE_URING &&
                        cacs_io_engine() == CACS_IO_ENGINE_EPOLL;
  int ok = waited && moved && result_ok() && !bad && !budget_bad;
  printf("%s: %s %s, %s\n", v->what, v->when == SYNC ? "blocked," : "parked,",
         engine_then, ok ? "ok" : "FAILED");
  if (!waited || !moved)
    fprintf(stderr, "%s: waited %d, engine %d -> %d\n", v->what, waited,
            engine_before, cacs_io_engine());
  return !ok;
}

// One case, in a process of its own (its thread's engine is its own).
// Each process ends within WATCHDOG_S (SIGALRM: a call that never ends
// fails the case, not the suite's time).
#define WATCHDOG_S 30
static int run_case(void) {
  alarm(WATCHDOG_S);
  if (open_fds() != 0) {
    printf("%s: no descriptors: FAILED\n", v->what);
    return 1;
  }
  if (v->when == REFUSED) {
    if (refuse_io_uring(EPERM) != 0)
      return puts("seccomp: FAILED"), 1;
    return measure(NULL, cacs_io_engine(), "on epoll");
  }
  if (v->when == SYNC) {
    make_ring();
    return measure(NULL, cacs_io_engine(), "on io_uring");
  }
  cacs_coro *prober = NULL;
  if (v->when == FIRST) {
    make_ring();
  } else {
    // The ring is made by the call itself: its wait is the thread's first
    // in the child too.
    prober = cacs_create(prober_main, NULL, 0);
    cacs_yield(); // it waits on the ring: queued, not submitted
    if (!parked() || cacs_io_engine() != CACS_IO_ENGINE_URING) {
      printf("%s: not parked on the ring: FAILED\n", v->what);
      return 1;
    }
  }
  int engine = cacs_io_engine();
  pid_t pid = fork();
  if (pid == 0) {
    alarm(WATCHDOG_S); // not inherited
    if (refuse_io_uring(EPERM) != 0)
      _exit(puts("seccomp: FAILED"));
    if (v->when == SECOND) {
      // A call that may not wait finds no ring either, and moves the
      // thread before the prober runs again.
      int sv[2];
      char c;
      if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0 ||
          cacs_read(sv[0], &c, 1, 0) != -1 || errno != ETIMEDOUT ||
          cacs_io_engine() != CACS_IO_ENGINE_EPOLL)
        _exit(puts("the other call: FAILED"));
    }
    _exit(measure(prober, engine, "moved to epoll"));
  }
  // This process's calls stay parked: it never polls its ring again, so
  // the requests queued here never run (nor take the child's bytes).
  int status = 0;
  return waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
         WEXITSTATUS(status) != 0;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  int failed = 0;
  for (size_t i = 0; i < sizeof variants / sizeof *variants; i++) {
    v = &variants[i];
    pid_t pid = fork();
    if (pid == 0)
      _exit(run_case());
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
      printf("%s: FAILED\n", v->what);
      failed = 1;
    }
  }
  puts(failed ? "FAIL" : "PASS");
  return failed;
}
