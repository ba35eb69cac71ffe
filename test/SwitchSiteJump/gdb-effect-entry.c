// Inside the jump-entered perform and resume, before anything moves rsp:
// gdb unwinds to the site's function and its callers (the entries' CFI:
// the CFA is rsp, the return address the word the site stored below it).
// On the perform's slow branch (an effect no handler takes, for its default
// handler), effect.c's C path starts with a call's alignment, rsp = 8 mod
// 16 (the site is `alignstack`, the branch's lea stands for the call's
// push), and unwinds to the performer as if called.
// REQUIRES: gdb
// RUN: %clang -O2 -g -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=leaf_perform %t | FileCheck %s --check-prefix=SITE
// RUN: gdb -q -batch -ex 'break *cacs__effect_resume_pn_jmp' -ex run -ex bt \
// RUN:   -ex 'delete' -ex 'break *cacs__effect_perform_pn_jmp' -ex continue -ex bt \
// RUN:   -ex 'delete' -ex 'break *cacs__effect_perform_c' -ex continue \
// RUN:   -ex 'print (long)$rsp & 15' -ex bt -ex 'delete' -ex continue %t 2>&1 | FileCheck %s
//
// The arguments in r12 and r13 right before the site, the result in rax
// right after it (past the `nop` the linker leaves when it makes the GOT
// jump a direct one).
// SITE-LABEL: <leaf_perform>:
// SITE:       leaq {{.*}}(%rip), %r12 {{.*}}<cacs_effect_ask>
// SITE-NEXT:  leaq {{.*}}(%rsp), %r13
// SITE-NEXT:  leaq {{.*}}(%rip), %r11
// SITE-NEXT:  movq %r11, -0x8(%rsp)
// SITE-NEXT:  jmp {{.*}} <cacs__effect_perform_pn_jmp>
// SITE-NEXT:  nop
// SITE-NEXT:  testq %rax, %rax
//
// CHECK: Breakpoint 1, {{.*}}resume_pn_jmp
// CHECK: #0 {{.*}}resume_pn_jmp
// CHECK-NEXT: #1 {{.*}}main
// CHECK-NOT: #2
// CHECK: Breakpoint 2, {{.*}}perform_pn_jmp
// CHECK: #0 {{.*}}perform_pn_jmp
// CHECK-NEXT: #1 {{.*}}leaf_perform
// CHECK-NEXT: #2 {{.*}}level1
// CHECK-NEXT: #3 {{.*}}body
// CHECK: Breakpoint 3, {{.*}}perform_c
// CHECK: $1 = 8
// CHECK-NEXT: #0 {{.*}}perform_c
// CHECK-NEXT: #1 {{.*}}level1
// CHECK-NEXT: #2 {{.*}}body
// CHECK: exited normally

#include "cacs/effect.h"

CACS_EFFECT(ask, int, int);
CACS_EFFECT(other, int, int);

volatile int sink;

static const void *other_default(void *payload) {
  static const int five = 5;
  (void)payload;
  return &five;
}
__attribute__((noinline)) void leaf_perform(void) {
  sink += CACS_PERFORM(ask, 1);
}
__attribute__((noinline)) void level1(void) {
  leaf_perform();
  sink += CACS_PERFORM(other, 2);
}
static void *body(void *arg) {
  level1();
  return arg;
}

int main(void) {
  cacs_effect_set_default(&CACS_EFFECT_OF(other), other_default);
  cacs_effect_coro *k = cacs_effect_create(body, NULL, 0);
  int three = 3;
  cacs_effect_request r = cacs_effect_resume(k, CACS_HANDLES(ask), NULL);
  while (r.effect)
    r = cacs_effect_resume(k, CACS_HANDLES(ask), &three);
  cacs_effect_destroy(k);
  return sink == 8 ? 0 : 1;
}
