// gdb's backtrace from inside functions entered by a jump (calls by jump):
// at the first instruction of inner, which middle entered by `pushq %r11;
// jmp`, and from marker, called by inner, the frames are inner's, middle's,
// outer's and coro_fn's, down to libcacs's coro_main and the start
// trampoline: the pushed return address is where a call would have put it,
// in the caller's code after the jump, whose line is the call's.
// REQUIRES: gdb
// RUN: %clang -O2 -g -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=middle %t | FileCheck %s --check-prefix=SITE
// RUN: gdb -q -batch -ex 'break *inner' -ex run -ex bt -ex delete \
// RUN:   -ex 'break marker' -ex continue -ex bt -ex delete -ex continue %t 2>&1 | FileCheck %s -DCALL=$(grep -n 'CALL[ ]LINE' %s | cut -d: -f1)
//
// SITE-LABEL: <middle>:
// SITE:         pushq %r11
// SITE-NEXT:    jmp {{.*}} <inner>
//
// CHECK: Breakpoint 1, {{.*}}inner
// CHECK: #0 {{.*}}inner
// CHECK-NEXT: #1 {{.*}}middle {{.*}}callbyjump-gdb.c:[[CALL]]
// CHECK-NEXT: #2 {{.*}}outer
// CHECK-NEXT: #3 {{.*}}coro_fn
// CHECK-NEXT: #4 {{.*}}coro_main
// CHECK-NEXT: #5 {{.*}}trampoline
// CHECK-NOT: #6
// CHECK: Breakpoint 2, {{.*}}marker
// CHECK: #0 {{.*}}marker
// CHECK-NEXT: #1 {{.*}}inner
// CHECK-NEXT: #2 {{.*}}middle {{.*}}callbyjump-gdb.c:[[CALL]]
// CHECK-NEXT: #3 {{.*}}outer
// CHECK-NEXT: #4 {{.*}}coro_fn
// CHECK-NEXT: #5 {{.*}}coro_main
// CHECK-NEXT: #6 {{.*}}trampoline
// CHECK-NOT: #7
// CHECK: exited normally

#include "cacs/coro.h"

#include <stdio.h>

#define PN __attribute__((preserve_none, noinline))

__attribute__((noinline)) void marker(long v) { __asm__ volatile("" ::"r"(v)); }

PN long inner(long x) {
  cacs_yield();
  marker(x);
  return x * 2 + 1;
}

PN long middle(long x) {
  long r = inner(x + 1); // CALL LINE
  return r ^ x;
}

PN long outer(long x) {
  long r = middle(x) + 3;
  cacs_yield();
  return r;
}

static volatile long out;

static void coro_fn(void *arg) { out = outer((long)arg) + 1; }

int main(void) {
  cacs_coro *c = cacs_create(coro_fn, (void *)5, 0);
  cacs_join(c);
  printf("%ld\n", out);
  return 0;
}
