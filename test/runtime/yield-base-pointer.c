// cacs_yield does not hand rbx / x19 back. A caller that addresses its frame
// through a base pointer there (over-aligned locals + a dynamic allocation)
// is correct when compiled by cacs (the preserve-none-safety pass shields
// the call; the front door defines __CACS__, which selects the fast entry)
// and, by default, with stock clang, which gets the entry that saves the
// register. Stock clang 19 forced onto the fast entry (CACS_YIELD_SAVE_BP=0)
// reloads through a base pointer another coroutine left behind: the last RUN
// line shows that it fails (a crash or wrong data; LLVM 22 saves rbx itself).
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t && %t | FileCheck %s
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %ts && %ts | FileCheck %s
// RUN: %stock_clang -O2 -DCACS_YIELD_SAVE_BP=0 -I%cacs_include %s %cacs_rt_x86_64 -o %tu
// RUN: %if llvm-19 %{ ! %tu %}
//
// CHECK: base pointer ok

#include "cacs/coro.h"

#include <stdio.h>
#include <string.h>

static volatile int sink;

__attribute__((noinline)) static int bp_user(int n, int tag) {
  _Alignas(64) volatile char big[64];
  char *p = __builtin_alloca(n);
  memset(p, tag, (size_t)n);
  for (int i = 0; i < 64; ++i)
    big[i] = (char)(tag + 1);
  int bad = 0;
  for (int k = 0; k < 20; ++k) {
    cacs_yield();
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
  cacs_coro *c[4];
  for (int i = 0; i < 4; ++i)
    c[i] = cacs_create(entry, (void *)(intptr_t)i, 0);
  bad_total += bp_user(100, 9);
  for (int i = 0; i < 4; ++i)
    cacs_join(c[i]);
  printf("base pointer %s\n", bad_total ? "WRONG" : "ok");
  return bad_total != 0;
}
