// The waiting calls do not hand rbx / x19 back either (like cacs_yield, see
// yield-base-pointer.c): a caller that addresses its frame through a base
// pointer there (over-aligned locals + a dynamic allocation) and waits in
// cacs_park, cacs_park_timeout, cacs_sleep, cacs_join, cacs_read or
// cacs_sem_wait is correct when
// compiled by cacs (its safety pass shields the call) and, by default, with
// stock clang, whose calls coro.h binds to the _bp entries. Stock clang 19
// forced onto the plain entries (CACS_YIELD_SAVE_BP=0) reloads through a
// base pointer another coroutine left behind: the last RUN line shows that
// it fails (LLVM 22 saves rbx itself).
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t && %t | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ts && %ts | FileCheck %s
// RUN: %stock_clang -O2 -DCACS_YIELD_SAVE_BP=0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tu
// RUN: %if llvm-19 %{ ! %tu %}
//
// CHECK: base pointer ok

#include "cacs/io.h"
#include "cacs/sync.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int pipe_fds[2]; // never written: reads time out
static cacs_sem never;  // never posted: waits time out

static volatile int sink, stop;
static cacs_coro *users[5];

// Wakes every user now and then (cacs_wake does nothing to a ready one),
// so that cacs_park and cacs_park_timeout(FOREVER) return.
static void waker(void *arg) {
  (void)arg;
  while (!stop) {
    for (int i = 0; i < 5; ++i)
      cacs_wake(users[i]);
    cacs_sleep(50);
  }
}

static void finisher(void *arg) {
  (void)arg;
  cacs_sleep(100);
}

// Waits in every way with its frame addressed through the base pointer.
__attribute__((noinline)) static int bp_user(int n, int tag) {
  _Alignas(64) volatile char big[64];
  char *p = __builtin_alloca(n);
  memset(p, tag, (size_t)n);
  for (int i = 0; i < 64; ++i)
    big[i] = (char)(tag + 1);
  int bad = 0;
  char c;
  for (int k = 0; k < 21; ++k) {
    switch (k % 7) {
    case 0:
      cacs_park();
      break;
    case 1:
      cacs_park_timeout(CACS_FOREVER);
      break;
    case 2:
      cacs_park_timeout(100);
      break;
    case 3:
      cacs_sleep(100);
      break;
    case 4:
      cacs_join(cacs_create(finisher, NULL, 0));
      break;
    case 5:
      cacs_read(pipe_fds[0], &c, 1, 100);
      break;
    case 6:
      cacs_sem_wait(&never, 100);
      break;
    }
    bad += big[k] != (char)(tag + 1);
    bad += p[k % n] != (char)tag;
  }
  sink = p[0];
  return bad;
}

static int bad_total;
static void entry(void *arg) {
  int i = (int)(intptr_t)arg;
  bad_total += bp_user(40 + 16 * i, i + 1);
}

int main(void) {
  if (pipe(pipe_fds) != 0)
    return 2;
  cacs_sem_init(&never, 0);
  users[4] = cacs_self();
  for (int i = 0; i < 4; ++i)
    users[i] = cacs_create(entry, (void *)(intptr_t)i, 0);
  cacs_coro *w = cacs_create(waker, NULL, 0);
  bad_total += bp_user(100, 9);
  for (int i = 0; i < 4; ++i)
    cacs_join(users[i]);
  stop = 1;
  cacs_join(w);
  printf("base pointer %s\n", bad_total ? "WRONG" : "ok");
  return bad_total != 0;
}
