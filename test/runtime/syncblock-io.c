// I/O of cacs/io.h inside a sync block makes the blocking call instead of
// parking: the coroutine waits on the thread until the data comes (from
// another thread) or the timeout passes, and no other coroutine of the
// thread runs meanwhile; outside a block the same read parks and lets the
// other coroutine run. On both engines (io_uring: the call and poll(2),
// no request). The compile-time check allows it (SyncBlockCheck/allowed.c).
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: env CACS_IO_ENGINE=epoll %t 2>&1 | FileCheck %s
// RUN: %if io-uring %{ env CACS_IO_ENGINE=uring %t 2>&1 | FileCheck %s %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %ta %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %ta 2>&1 | FileCheck %s %}
//
// CHECK: block, timeout: -1 ETIMEDOUT, other ran 0
// CHECK-NEXT: block, data: 5 hello, other ran 0
// CHECK-NEXT: outside, data: 5 world, other ran 1
// CHECK-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/syncblock.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int p[2];
static int other_ran;

static void other(void *arg) {
  (void)arg;
  other_ran = 1;
}

static void *writer(void *arg) {
  struct timespec ts = {0, 30 * 1000 * 1000};
  nanosleep(&ts, NULL);
  if (write(p[1], arg, 5) != 5)
    perror("write");
  return NULL;
}

static void reader(void *arg) {
  (void)arg;
  char buf[8] = {0};
  pthread_t t;

  cacs_coro *o = cacs_create(other, NULL, 0);
  ssize_t n = 0;
  int e = 0;
  CACS_SYNC {
    n = cacs_read(p[0], buf, 5, 20 * 1000);
    e = errno;
  }
  printf("block, timeout: %zd %s, other ran %d\n", n,
         e == ETIMEDOUT ? "ETIMEDOUT" : strerror(e), other_ran);

  pthread_create(&t, NULL, writer, "hello");
  CACS_SYNC { n = cacs_read(p[0], buf, 5, CACS_FOREVER); }
  pthread_join(t, NULL);
  printf("block, data: %zd %s, other ran %d\n", n, buf, other_ran);

  pthread_create(&t, NULL, writer, "world");
  n = cacs_read(p[0], buf, 5, CACS_FOREVER);
  pthread_join(t, NULL);
  printf("outside, data: %zd %s, other ran %d\n", n, buf, other_ran);
  cacs_join(o);
}

int main(void) {
  if (pipe(p))
    return 1;
  cacs_coro *r = cacs_create(reader, NULL, 0);
  cacs_join(r);
  printf("PASS\n");
  return 0;
}
