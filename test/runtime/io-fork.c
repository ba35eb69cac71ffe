// fork() after the loop exists: parent and child each wait 100 times for
// data the other process sends, at the same time, and no wait misses its
// data. With the epoll instance shared between the two processes, the
// writer's process would consume the reader's edge-triggered event and the
// reader would time out.
//
// Two readers parked before the fork are served in the child too, while
// the parent closes its ends of their sockets: the child writes a byte to
// each, then the parent closes, then the child's readers run (pipes order
// the three steps). The parent's copies of the readers must not take the
// bytes. On io_uring, `queued`'s read is only queued at the fork (the loop
// has not polled since); `armed`'s is in the kernel (it has). A close
// that submitted the queued read made the kernel run it on the byte
// already there, and the child's reader timed out (CI failed so, by
// timing, before the pipes forced the order).
//
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: child: the reader queued at the fork got its byte ok
// CHECK-NEXT: child: the reader armed at the fork got its byte ok
// CHECK-NEXT: child: 100 waits, 0 missed ok
// CHECK-NEXT: parent: 100 waits, 0 missed ok
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"

#include <sys/wait.h>

enum { NWAIT = 100 };
// toparent: the child writes, the parent reads; tochild: the other way.
static int toparent[2], tochild[2], rfd, wfd, missed;

// Writes for the other process: right after a write this process polls its
// loop, so with a shared epoll instance it would take the other's edge.
static void writer(void *arg) {
  (void)arg;
  for (int i = 0; i < NWAIT; i++) {
    cacs_sleep(500);
    if (cacs_write(wfd, &i, sizeof i, 1000000) != sizeof i)
      missed++;
  }
}

// Each read waits (the other process's writer sleeps first); 1 s is plenty
// unless the edge went to the other process.
static void reader(void *arg) {
  (void)arg;
  for (int i = 0; i < NWAIT; i++) {
    int v = -1;
    if (cacs_read(rfd, &v, sizeof v, 1000000) != sizeof v || v != i)
      missed++;
  }
}

static void run(int child) {
  rfd = child ? tochild[0] : toparent[0];
  wfd = child ? toparent[1] : tochild[1];
  cacs_coro *w = cacs_create(writer, NULL, 0);
  cacs_coro *r = cacs_create(reader, NULL, 0);
  cacs_join(w);
  cacs_join(r);
  EXPECT(missed == 0);
  if (child)
    printf("child: %d waits, %d missed %s\n", NWAIT, missed,
           failures ? "FAILED" : "ok");
}

// The readers parked before the fork; pipes order the steps after it.
enum { QUEUED, ARMED, NEARLY };
static int early[NEARLY][2], early_ok[NEARLY], written[2], closed[2];

static void early_reader(void *arg) {
  int k = (int)(intptr_t)arg;
  char c = 0;
  early_ok[k] = cacs_read(early[k][0], &c, 1, 2000000) == 1 && c == 'e';
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  watchdog(60);
  for (int k = 0; k < NEARLY; k++)
    EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, early[k]) == 0);
  EXPECT(pipe(written) == 0 && pipe(closed) == 0);
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, toparent) == 0);
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, tochild) == 0);
  cacs_coro *e[NEARLY];
  e[ARMED] = cacs_create(early_reader, (void *)(intptr_t)ARMED, 0);
  cacs_yield(); // it waits: the loop exists
  cacs_yield(); // the loop polled (on io_uring: its read is submitted)
  e[QUEUED] = cacs_create(early_reader, (void *)(intptr_t)QUEUED, 0);
  cacs_yield(); // it waits (on io_uring: its read is queued, not submitted)
  io_check_engine();
  char c = 0;
  pid_t pid = fork();
  if (pid == 0) {
    for (int k = 0; k < NEARLY; k++)
      EXPECT(write(early[k][1], "e", 1) == 1);
    EXPECT(write(written[1], "w", 1) == 1);
    EXPECT(read(closed[0], &c, 1) == 1);
    for (int k = 0; k < NEARLY; k++) {
      cacs_join(e[k]);
      printf("child: the reader %s at the fork got its byte %s\n",
             k == QUEUED ? "queued" : "armed", early_ok[k] ? "ok" : "FAILED");
      failures += !early_ok[k];
    }
    io_check_engine(); // the child's own ring, on io_uring
    run(1);
    _exit(failures != 0);
  }
  // The parent's copies of the readers must not read the child's bytes,
  // which are there already: its ends are closed before its loop polls
  // again (the readers wake with ECANCELED before they could run).
  EXPECT(read(written[0], &c, 1) == 1);
  for (int k = 0; k < NEARLY; k++)
    cacs_close(early[k][0]);
  EXPECT(write(closed[1], "c", 1) == 1);
  for (int k = 0; k < NEARLY; k++) {
    cacs_join(e[k]);
    close(early[k][1]);
  }
  run(0); // at the same time as the child's run
  int status = 0;
  EXPECT(waitpid(pid, &status, 0) == pid);
  EXPECT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  // After the child's lines, so that the output is in order.
  printf("parent: %d waits, %d missed %s\n", NWAIT, missed,
         failures ? "FAILED" : "ok");
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
