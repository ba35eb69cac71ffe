// fork() after the loop exists: parent and child each wait 100 times for
// data the other process sends, at the same time, and no wait misses its
// data. With the epoll instance shared between the two processes, the
// writer's process would consume the reader's edge-triggered event and the
// reader would time out. A reader
// parked before the fork is served in the child too.
//
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: child: reader parked before the fork got its data ok
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

static int early[2];
static int early_ok;
static void early_reader(void *arg) {
  (void)arg;
  char c = 0;
  early_ok = cacs_read(early[0], &c, 1, 2000000) == 1 && c == 'e';
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  watchdog(60);
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, early) == 0);
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, toparent) == 0);
  EXPECT(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, tochild) == 0);
  cacs_coro *e = cacs_create(early_reader, NULL, 0);
  cacs_yield(); // e waits on early[0]: the loop exists, early[0] registered
  pid_t pid = fork();
  if (pid == 0) {
    EXPECT(write(early[1], "e", 1) == 1);
    cacs_join(e);
    EXPECT(early_ok);
    printf("child: reader parked before the fork got its data %s\n",
           failures ? "FAILED" : "ok");
    run(1);
    _exit(failures != 0);
  }
  // The parent's copy of e must not read the child's byte: close its end
  // at once (e wakes with ECANCELED before it could run).
  cacs_close(early[0]);
  cacs_join(e);
  close(early[1]);
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
