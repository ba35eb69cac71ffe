// gdb shows the frames of a coroutine from inside a function that returns
// through the thunk, and from inside the thunk itself, before and after its
// pop (the thunk's CFI: the return address moves into r11).
// REQUIRES: gdb
// RUN: %clang -O1 -g -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: gdb -q -batch -ex 'break waits_in' -ex run -ex bt \
// RUN:   -ex 'break *__x86_return_thunk' -ex continue -ex bt -ex stepi -ex bt %t 2>&1 | FileCheck %s
//
// CHECK: Breakpoint 1, waits_in
// CHECK: #0 {{.*}}waits_in
// CHECK-NEXT: #1 {{.*}}level2
// CHECK-NEXT: #2 {{.*}}level1
// CHECK-NEXT: #3 {{.*}}coro_entry
// CHECK: Breakpoint 2, {{.*}}__x86_return_thunk
// CHECK: #0 {{.*}}__x86_return_thunk
// CHECK-NEXT: #1 {{.*}}level2
// CHECK-NEXT: #2 {{.*}}level1
// CHECK-NEXT: #3 {{.*}}coro_entry
// CHECK: #0 {{.*}}__x86_return_thunk
// CHECK-NEXT: #1 {{.*}}level2
// CHECK-NEXT: #2 {{.*}}level1
// CHECK-NEXT: #3 {{.*}}coro_entry

#include "cacs/coro.h"

volatile int sink;
__attribute__((noinline)) void waits_in(int v) {
  sink = v;
  cacs_yield();
  sink++;
}
__attribute__((noinline)) void level2(int v) {
  waits_in(v);
  sink++;
}
__attribute__((noinline)) void level1(int v) {
  level2(v + 1);
  sink++;
}
static void coro_entry(void *arg) {
  (void)arg;
  level1(1);
  sink++;
}

int main(void) {
  cacs_join(cacs_create(coro_entry, NULL, 0));
  return 0;
}
