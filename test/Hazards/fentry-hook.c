// -pg -mfentry (x86-64): `call __fentry__` comes before the prologue, with
// the arguments in their registers. The ABI obliges the hook to preserve the
// C argument registers (and rax), not r11, the 11th integer argument of
// preserve_none; glibc's __fentry__ leaves r11 alone only by accident. This
// program's own (Inputs/fentry-r11.h) clobbers r10 and r11. cacs never
// infects such a function (APN), and splits a preserve_none definition
// (attribute or list): the body and the hook move into a C-convention
// function. That is a remark (-Rpass=preserve-none-safety), not a warning:
// a -Werror build must still build the right program. Without the rule every line but the reference's
// printed 16674579825 instead of 1036. The output must be stock clang -O0's
// without the attribute.
//
// RUN: %stock_clang -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang -O0 -pg -mfentry -fauto-preserve-none %s -o %t.apn0 && %t.apn0 > %t.apn0.out && diff %t.expected %t.apn0.out
// RUN: %clang -O2 -pg -mfentry -fauto-preserve-none %s -o %t.apn2 && %t.apn2 > %t.apn2.out && diff %t.expected %t.apn2.out
// RUN: %clang -O2 -flto -pg -mfentry -fauto-preserve-none %s -o %t.apnlto && %t.apnlto > %t.apnlto.out && diff %t.expected %t.apnlto.out
// RUN: %clang -O0 -pg -mfentry -DATTR -Werror %s -o %t.attr0 -Rpass=preserve-none-safety 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=warning:
// RUN: %t.attr0 > %t.attr0.out && diff %t.expected %t.attr0.out
// RUN: %clang -O2 -pg -mfentry -DATTR %s -o %t.attr2 && %t.attr2 > %t.attr2.out && diff %t.expected %t.attr2.out
// RUN: echo 'fun:f' > %t.list
// RUN: %clang -O2 -pg -mfentry -fpreserve-none-list=%t.list %s -o %t.list2 && %t.list2 > %t.list2.out && diff %t.expected %t.list2.out
// RUN: %clang -O2 -pg -mfentry -fauto-preserve-none -c %s -o /dev/null -Rpass-missed=auto-preserve-none 2>&1 | FileCheck %s --check-prefix=APN
//
// REMARK: remark: the body of preserve_none 'f' moves into a C-convention function: its entry calls a hook before the prologue (-mfentry, -fpatchable-function-entry) that need not preserve r11, its integer argument 11; the hook moves with it, so the hook and a profile see 'f.cacs.body' [-Rpass=preserve-none-safety]
// APN: remark: 'f' calls preserve_none 'seed' but is not made preserve_none: its entry calls a hook before the prologue (-mfentry, -fpatchable-function-entry) that need not preserve r11, its integer argument 11 [-Rpass-missed=auto-preserve-none]
#include <stdio.h>

#if defined(ATTR) && !defined(REFERENCE)
#define PN __attribute__((preserve_none))
#else
#define PN
#endif

#ifndef REFERENCE
#include "Inputs/fentry-r11.h"

__attribute__((preserve_none))
#endif
__attribute__((noinline)) void
seed(void) {
  __asm__ volatile("");
}

// 11 integer arguments and a preserve_none callee (so that APN would infect
// it); every argument varies, so that no optimization drops one.
PN __attribute__((noinline)) static long f(long a1, long a2, long a3, long a4,
                                           long a5, long a6, long a7, long a8,
                                           long a9, long a10, long a11) {
  seed();
  return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 +
         9 * a9 + 10 * a10 + 11 * a11;
}

int main(void) {
  volatile long x = 11;
  for (int I = 0; I < 3; ++I)
    printf("%ld\n", f(x, x + 1, x + 2, x + 3, x + I, x + 5, x + 6, x + 7,
                      x + 8, x + 9, x + 2 * I));
  return 0;
}
