// gdb shows a coroutine's frames after it was resumed through a
// jump-entered yield: from a function called after the site, and from the
// instruction right after the site's jump (the resume point the site
// stored), where the frames are the yielding function's and its callers',
// down to the start trampoline.
// REQUIRES: gdb
// RUN: %clang -O2 -g -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=level2 %t > %t.dis
// RUN: FileCheck %s --check-prefix=SITE < %t.dis
// The second site's resume point: the instruction after its jump (past the
// `nop` the linker leaves when it makes the GOT jump a direct one), as an
// offset into level2.
// RUN: s=$(awk '/<level2>:/ {print $1}' %t.dis); \
// RUN: j=$(awk 'n && $2 != "nop" {sub(":", "", $1); a = $1; n = 0} /jmp.*<cacs__yield_pn_jmp>/ {n = 1} END {print a}' %t.dis); \
// RUN: gdb -q -batch -ex 'break marker' -ex run -ex bt \
// RUN:   -ex "break *level2+$((0x$j - 0x$s))" -ex continue -ex bt -ex continue %t 2>&1 | FileCheck %s
//
// SITE: movq %r11, -0x8(%rsp)
// SITE-NEXT: jmp {{.*}} <cacs__yield_pn_jmp>
//
// CHECK: Breakpoint 1, marker
// CHECK: #0 {{.*}}marker
// CHECK-NEXT: #1 {{.*}}level2
// CHECK-NEXT: #2 {{.*}}level1
// CHECK-NEXT: #3 {{.*}}coro_entry
// CHECK-NEXT: #4 {{.*}}coro_main
// CHECK-NEXT: #5 {{.*}}trampoline
// CHECK-NOT: #6
// CHECK: Breakpoint 2, {{.*}}level2
// CHECK: #0 {{.*}}level2
// CHECK-NEXT: #1 {{.*}}level1
// CHECK-NEXT: #2 {{.*}}coro_entry
// CHECK-NEXT: #3 {{.*}}coro_main
// CHECK-NEXT: #4 {{.*}}trampoline
// CHECK-NOT: #5
// CHECK: exited normally

#include "cacs/coro.h"

volatile int sink, again;
__attribute__((noinline)) void marker(int v) { sink = v; }
__attribute__((noinline)) void level2(int v) {
  do
    cacs_yield();
  while (again);
  marker(v);
  do
    cacs_yield();
  while (again);
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
  cacs_coro *c = cacs_create(coro_entry, NULL, 0);
  cacs_yield();
  cacs_yield();
  cacs_join(c);
  return 0;
}
