// The loop's two ways to wait (lib/io.c). In poll mode: a descriptor
// closed with close(2) under a waiter (POLLNVAL) wakes it with EBADF
// instead of making every poll return at once; a spin longer than a wait's
// timeout does not make the wait late; cacs_io_set_spin returns the setting
// it replaces. Then, with CACS_IO_POLL_MAX=4, the switch to epoll when a
// fifth descriptor waits: two sockets become readable before it, without
// a poll in between, and the switch's registration must report them, or
// their readers would sleep until the watchdog.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_io_aarch64 %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: close(2) under a waiter: EBADF ok
// CHECK-NEXT: spin 1 s, wait 20 ms: on time ok
// CHECK-NEXT: set_spin returns the previous setting ok
// CHECK-NEXT: switch with 2 of 8 readable: 8 bytes read ok
// CHECK-NEXT: after the switch: 8 bytes read ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"

#include <stdint.h>

enum { N = 8 };
static int rd[N], wr[N];
static int got[N];

static void pair(int *a, int *b) {
  struct sockaddr_in addr;
  int lfd = listen_loopback(1, &addr);
  *b = connect_loopback(&addr, 1000000);
  *a = cacs_accept(lfd, NULL, NULL, 1000000);
  close(lfd);
}

static int closed_err;
static void closed_waiter(void *arg) {
  char c;
  closed_err = cacs_read((int)(intptr_t)arg, &c, 1, 2000000) < 0 ? errno : 0;
}

static long long waited_us;
static void timed_waiter(void *arg) {
  char c;
  long long t0 = now_us();
  if (cacs_read((int)(intptr_t)arg, &c, 1, 20000) < 0 && errno == ETIMEDOUT)
    waited_us = now_us() - t0;
}

static void reader(void *arg) {
  int i = (int)(intptr_t)arg;
  char c;
  if (cacs_read(rd[i], &c, 1, 5000000) == 1 && c == 'a' + i)
    got[i] = 1;
}

static cacs_coro *start(void (*fn)(void *), intptr_t arg) {
  cacs_coro *c = cacs_create(fn, (void *)arg, 0);
  cacs_yield(); // it runs up to its wait
  return c;
}

static int round_of_reads(int early) {
  cacs_coro *c[N];
  memset(got, 0, sizeof got);
  for (int i = 0; i < N / 2; i++)
    c[i] = start(reader, i);
  for (int i = 0; i < early; i++) // readable in poll mode, not yet polled
    EXPECT(write(wr[i], &(char){(char)('a' + i)}, 1) == 1);
  for (int i = N / 2; i < N; i++) // the fifth waiter switches
    c[i] = start(reader, i);
  for (int i = early; i < N; i++)
    EXPECT(write(wr[i], &(char){(char)('a' + i)}, 1) == 1);
  int n = 0;
  for (int i = 0; i < N; i++) {
    cacs_join(c[i]);
    n += got[i];
  }
  return n;
}

int main(void) {
  setenv("CACS_IO_POLL_MAX", "4", 1);
  unsetenv("CACS_IO_SPIN_US");
  int fds = test_begin(20);
  int a, b;
  pair(&a, &b);

  cacs_coro *w = start(closed_waiter, a);
  int dup_a = dup(a); // keeps the socket alive: only the number goes
  close(a);
  cacs_join(w);
  EXPECT(closed_err == EBADF);
  printf("close(2) under a waiter: %s %s\n",
         closed_err == EBADF ? "EBADF" : strerror(closed_err),
         closed_err == EBADF ? "ok" : "WRONG");
  cacs_io_forget(a);

  int64_t old = cacs_io_set_spin(1000000);
  w = start(timed_waiter, b);
  cacs_join(w);
  int on_time = waited_us >= 20000 && waited_us < 500000;
  EXPECT(on_time);
  printf("spin 1 s, wait 20 ms: %s\n", on_time ? "on time ok" : "LATE");
  if (!on_time)
    printf("waited %lld us\n", waited_us);
  int64_t was = cacs_io_set_spin(-1);
  int ok = old == CACS_IO_SPIN_DEFAULT_US && was == 1000000 &&
           cacs_io_set_spin(-1) == CACS_IO_SPIN_DEFAULT_US &&
           cacs_io_set_spin(5000000) == CACS_IO_SPIN_DEFAULT_US &&
           cacs_io_set_spin(0) == 1000000;
  EXPECT(ok);
  printf("set_spin returns the previous setting %s\n", ok ? "ok" : "WRONG");
  cacs_close(b);
  close(dup_a);

  for (int i = 0; i < N; i++)
    pair(&rd[i], &wr[i]);
  int n = round_of_reads(2);
  EXPECT(n == N);
  printf("switch with 2 of %d readable: %d bytes read %s\n", N, n,
         n == N ? "ok" : "WRONG");
  n = round_of_reads(0);
  EXPECT(n == N);
  printf("after the switch: %d bytes read %s\n", n, n == N ? "ok" : "WRONG");
  for (int i = 0; i < N; i++) {
    cacs_close(rd[i]);
    cacs_close(wr[i]);
  }
  return test_end(fds);
}
