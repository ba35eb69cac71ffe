// cacs_yield hands the frame pointer (rbp / x29) back: callers whose frame
// has a variable-length array address their fixed locals through it across
// the call. Several coroutines in the ring run such frames at once, so a
// yield that did not restore the frame pointer resumes a caller with another
// coroutine's value (removing the save from lib/yield_<arch>.S makes this
// test crash on both targets). Stock clang first: on AArch64 cacs's safety
// pass routes these calls (a dynamic alloca) through a shield whose own
// frame record would hide a missing restore.
//
// RUN: %stock_clang -O2 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
//
// CHECK: frame pointer ok
// CHECK: PASS

#include "cacs/coro.h"

#include <stdio.h>
#include <string.h>

static volatile int sink;

// The VLA makes sp move, so the volatile `mine` lives at a fixed offset from
// the frame pointer; every coroutine holds a different value there.
__attribute__((noinline)) static int vla_user(int n, int tag) {
  char buf[n];
  volatile int mine = tag;
  int wrong = 0;
  memset(buf, tag, (size_t)n);
  for (int k = 0; k < 20; ++k) {
    cacs_yield();
    wrong += mine != tag;
    wrong += buf[k % n] != (char)tag;
  }
  sink = buf[0];
  return wrong != 0;
}

static int bad;
static void entry(void *arg) {
  int i = (int)(intptr_t)arg;
  bad += vla_user(16 + 8 * i, i + 1);
}

int main(void) {
  cacs_coro *c[4];
  for (int i = 0; i < 4; ++i)
    c[i] = cacs_create(entry, (void *)(intptr_t)i, 0);
  bad += vla_user(40, 9);
  for (int i = 0; i < 4; ++i)
    cacs_join(c[i]);
  printf("frame pointer %s\n", bad ? "WRONG" : "ok");
  if (bad)
    return 1;
  printf("PASS\n");
  return 0;
}
