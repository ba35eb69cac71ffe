// gdb walks from a function called by CACS_ON_SYSTEM_STACK on the thread's
// stack back through the change of stacks (shown as a signal frame: the
// older frames lie on the coroutine's stack, below) into the coroutine's
// frames, down to the start trampoline; and back on the coroutine's stack
// the backtrace is the usual one. What libcacs inlines into
// cacs_on_system_stack (the sync block's close) may show as frames of its
// own between the signal frame and it.
// REQUIRES: gdb
// RUN: %clang -O0 -g -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: gdb -q -batch -ex 'break marker' -ex run -ex bt -ex continue -ex bt -ex continue %t 2>&1 | FileCheck %s
// RUN: %clang -O2 -g -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t2
// RUN: gdb -q -batch -ex 'break marker' -ex run -ex bt -ex continue -ex bt -ex continue %t2 2>&1 | FileCheck %s
//
// CHECK: Breakpoint 1, marker
// CHECK: #0 {{.*}}marker
// CHECK-NEXT: #1 {{.*}}on_sys
// CHECK-NEXT: #2 {{.*}}signal handler called
// CHECK: {{^}}#{{[0-9]+}} {{.*}}cacs_on_system_stack
// CHECK-NEXT: #[[#L:]] {{.*}}level1
// CHECK-NEXT: #[[#L+1]] {{.*}}coro_entry
// CHECK-NEXT: #[[#L+2]] {{.*}}coro_main
// CHECK-NEXT: #[[#L+3]] {{.*}}trampoline
// CHECK-NOT: #[[#L+4]]
// CHECK: Breakpoint 1, marker
// CHECK: #0 {{.*}}marker
// CHECK-NEXT: #1 {{.*}}level1
// CHECK-NEXT: #2 {{.*}}coro_entry
// CHECK-NEXT: #3 {{.*}}coro_main
// CHECK-NEXT: #4 {{.*}}trampoline
// CHECK-NOT: #5
// CHECK: exited normally

#include "cacs/coro.h"
#include "cacs/sysstack.h"

volatile int sink;
__attribute__((noinline)) void marker(int v) { sink = v; }
static void on_sys(void *arg) {
  marker(*(int *)arg);
  sink++;
}
__attribute__((noinline)) void level1(int v) {
  CACS_ON_SYSTEM_STACK(on_sys, &v);
  marker(v + 1);
  sink++;
}
static void coro_entry(void *arg) {
  level1(*(int *)arg);
  sink += 10;
}

int main(void) {
  int one = 1;
  cacs_join(cacs_create(coro_entry, &one, 0));
  return sink != 13;
}
