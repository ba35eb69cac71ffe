// One loop per thread: four threads each run 20 coroutine pairs echoing over
// their own socketpairs at the same time; every thread's epoll instance is
// closed when the thread exits (the process has no more descriptors after
// the threads are joined than before they started).
//
// RUN: %clang -O2 -fauto-preserve-none -pthread -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: env CACS_IO_POLL_MAX=0 %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -pthread -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -pthread -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: 4 threads x 20 pairs x 200 round trips ok
// CHECK-NEXT: descriptors after the threads exited: none leaked
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"

#include <pthread.h>

enum { NTHREAD = 4, NPAIR = 20, NROUND = 200 };

static void echo(void *arg) {
  int fd = (int)(long)arg;
  char b[32];
  ssize_t n;
  while ((n = cacs_read(fd, b, sizeof b, 10 * 1000000)) > 0)
    if (cacs_write_all(fd, b, (size_t)n, 10 * 1000000) != n)
      break;
  cacs_close(fd);
}

static void pinger(void *arg) {
  int fd = (int)(long)arg;
  for (int i = 0; i < NROUND; i++) {
    int v = i * 7919, w = -1;
    if (cacs_write_all(fd, &v, sizeof v, 10 * 1000000) != sizeof v ||
        cacs_read(fd, &w, sizeof w, 10 * 1000000) != sizeof w || w != v) {
      __atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED);
      break;
    }
  }
  cacs_close(fd);
}

static void *thread_main(void *arg) {
  (void)arg;
  cacs_coro *c[2 * NPAIR];
  for (int i = 0; i < NPAIR; i++) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
      abort();
    c[2 * i] = cacs_create(echo, (void *)(long)sv[0], 0);
    c[2 * i + 1] = cacs_create(pinger, (void *)(long)sv[1], 0);
  }
  for (int i = 0; i < 2 * NPAIR; i++)
    cacs_join(c[i]);
  return NULL;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  watchdog(60);
  int fds = fd_count(); // before any thread (main never waits here)
  pthread_t t[NTHREAD];
  for (int i = 0; i < NTHREAD; i++)
    EXPECT(pthread_create(&t[i], NULL, thread_main, NULL) == 0);
  for (int i = 0; i < NTHREAD; i++)
    pthread_join(t[i], NULL);
  printf("%d threads x %d pairs x %d round trips %s\n", NTHREAD, NPAIR, NROUND,
         failures ? "FAILED" : "ok");
  int leaked = fd_count() - fds;
  EXPECT(leaked == 0);
  printf("descriptors after the threads exited: %s\n",
         leaked ? "LEAKED" : "none leaked");
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
