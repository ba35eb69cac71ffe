// Inside the jump-entered yield, before it moves rsp: gdb unwinds to the
// site's function and its callers (the entry's CFI: the CFA is rsp, the
// return address the word the site stored below it). On its slow path,
// taken from a leaf function (it calls nothing but the yield), the C of
// cacs__yield_slow starts with a call's alignment, rsp = 8 mod 16: the leaf
// keeps no aligned frame (the yield's site is not `alignstack`), so the
// entry's slow branch calls the slow path (its return address realigns
// rsp), and gdb unwinds through that call to the site's function. Both
// through the same program, whose FP-environment coroutine sends every
// switch down the slow path.
// REQUIRES: gdb
// RUN: %clang -O2 -g -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=leaf_yield %t | FileCheck %s --check-prefix=SITE
// RUN: gdb -q -batch -ex 'break *cacs__yield_pn_jmp' -ex run -ex bt \
// RUN:   -ex 'delete' -ex 'break *cacs__yield_slow' -ex continue \
// RUN:   -ex 'print (long)$rsp & 15' -ex bt -ex 'delete' -ex continue %t 2>&1 | FileCheck %s
//
// SITE-LABEL: <leaf_yield>:
// SITE-NEXT:  leaq
// SITE-NEXT:  movq %r11, -0x8(%rsp)
// SITE-NEXT:  jmp {{.*}} <cacs__yield_pn_jmp>
//
// (gdb prints cacs__yield_pn_jmp as cacs.yield_pn_jmp; coro_entry's call of
// level1 is a tail call.)
// CHECK: Breakpoint 1, {{.*}}yield_pn_jmp
// CHECK: #0 {{.*}}yield_pn_jmp
// CHECK-NEXT: #1 {{.*}}leaf_yield
// CHECK-NEXT: #2 {{.*}}level1
// CHECK-NEXT: #3 {{.*}}coro_main
// CHECK-NEXT: #4 {{.*}}trampoline
// CHECK-NOT: #5
// CHECK: Breakpoint 2, {{.*}}cacs__yield_slow
// CHECK: $1 = 8
// CHECK-NEXT: #0 {{.*}}cacs__yield_slow
// CHECK-NEXT: #1 {{.*}}yield_pn_jmp
// CHECK-NEXT: #2 {{.*}}leaf_yield
// CHECK-NEXT: #3 {{.*}}level1
// CHECK-NEXT: #4 {{.*}}coro_main
// CHECK-NEXT: #5 {{.*}}trampoline
// CHECK-NOT: #6
// CHECK: exited normally

#include "cacs/coro.h"

#include <stdint.h>

volatile int sink, ticks;
// Calls nothing else and, preserve_none, saves no register: its caller's
// call leaves rsp 8 mod 16, and without the site's `alignstack` nothing
// would change it, so the slow path's C would start 16-byte aligned, as no
// call leaves it. The yield is not its last act, which would be a tail jump
// to cacs__yield_pn instead of a site (tail-yield.ll).
__attribute__((noinline, preserve_none)) void leaf_yield(void) {
  cacs_yield();
  ++ticks;
}
__attribute__((noinline)) void level1(int v) {
  for (int i = 0; i < 3; ++i)
    leaf_yield();
  sink += v;
}
static void coro_entry(void *arg) { level1((int)(uintptr_t)arg); }

int main(void) {
  cacs_coro_attr fa = {.flags = CACS_CORO_SAVE_FPENV};
  cacs_coro *a = cacs_create_ex(coro_entry, (void *)1, &fa);
  cacs_coro *b = cacs_create(coro_entry, (void *)2, 0);
  cacs_join(a);
  cacs_join(b);
  return sink == 3 ? 0 : 1;
}
