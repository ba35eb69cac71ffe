// gdb shows the frames of a coroutine (and of a generator) from inside it,
// and the unwinder stops cleanly at the start trampoline.
// REQUIRES: gdb
// RUN: %clang -O0 -g -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: gdb -q -batch -ex 'break marker' -ex run -ex bt -ex continue -ex bt -ex continue %t 2>&1 | FileCheck %s
// RUN: %clang -O2 -g -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t2
// RUN: gdb -q -batch -ex 'break marker' -ex run -ex bt -ex continue -ex bt -ex continue %t2 2>&1 | FileCheck %s
//
// CHECK: Breakpoint 1, marker
// CHECK: #0 {{.*}}marker
// CHECK-NEXT: #1 {{.*}}level2
// CHECK-NEXT: #2 {{.*}}level1
// CHECK-NEXT: #3 {{.*}}coro_entry
// CHECK-NEXT: #4 {{.*}}coro_main
// CHECK-NEXT: #5 {{.*}}trampoline
// CHECK-NOT: #6
// CHECK: Breakpoint 1, marker
// CHECK: #0 {{.*}}marker
// CHECK-NEXT: #1 {{.*}}gen_body
// CHECK-NEXT: #2 {{.*}}gen_main
// CHECK-NEXT: #3 {{.*}}trampoline
// CHECK-NOT: #4
// CHECK: exited normally

#include "cacs/coro.h"
#include "cacs/generator.h"

#include <stdio.h>

volatile int sink;
__attribute__((noinline)) void marker(int v) { sink = v; }
__attribute__((noinline)) void level2(int v) {
  marker(v);
  sink++;
}
__attribute__((noinline)) void level1(int v) {
  level2(v + 1);
  sink++;
}
static void coro_entry(void *arg) {
  (void)arg;
  cacs_yield();
  level1(1);
  sink++;
}
static void gen_body(cacs_gen *g, void *arg) {
  (void)arg;
  marker(2);
  cacs_gen_yield(g, 1);
}

int main(void) {
  cacs_join(cacs_create(coro_entry, NULL, 0));
  cacs_gen *g = cacs_gen_create(gen_body, NULL, 0);
  while (cacs_gen_resume(g, 0))
    ;
  cacs_gen_destroy(g);
  return 0;
}
