// Why a function called from a frame with a dynamic stack is not infected:
// such a frame may be addressed through a base pointer (x19 on AArch64 with
// a VLA and >= 256 bytes of locals; rbx on x86-64 with a VLA and an
// over-aligned local), and neither LLVM 19 nor 22 on AArch64, nor LLVM 19 on
// x86-64, keeps it across a call to a preserve_none function. Here `leaf`
// would be eligible but for its caller; infected, it would hand `user` back
// a wiped base pointer.
//
// LLVM 22 keeps rbx across the call on x86-64, so there the call needs no
// shield and leaf is infected (the same rule, cacs::needsShield, decides);
// AArch64 (both versions, base-pointer-aarch64.c) checks REMARK19.
// RUN: %clang -O2 -fauto-preserve-none -Rpass-missed=auto-preserve-none -Rpass=auto-preserve-none -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK%llvm_major
// REMARK19: remark: 'leaf' calls preserve_none 'apn_switch' but is not made preserve_none: its caller 'user' allocates stack dynamically, and a base pointer is not kept across preserve_none calls
// REMARK22: remark: made 'leaf' preserve_none
//
// RUN: %clang -O2 %s -o %t.off && %t.off | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none %s -o %t.on && %t.on | FileCheck %s
// RUN: %clang -O0 -fauto-preserve-none %s -o %t.on0 && %t.on0 | FileCheck %s
// CHECK: user 2153
// CHECK-NEXT: user 2153

#include <stdio.h>
#include <string.h>

#define APN_DEFINE_SWITCH
#include "Inputs/clobber.h"

static __attribute__((noinline)) long leaf(long x) {
  apn_switch(x);
  return x + 1;
}

volatile long input = 13;

__attribute__((noinline)) void user(long n) {
  _Alignas(64) char big[300];
  char vla[n];
  memset(big, 7, sizeof big);
  memset(vla, 3, n);
  __asm__ volatile("" : : "r"(big), "r"(vla) : "memory");
  long r = leaf(n);
  long s = 0;
  for (int i = 0; i < 300; ++i)
    s += big[i];
  for (long i = 0; i < n; ++i)
    s += vla[i];
  printf("user %ld\n", s + r);
}

int main(void) {
  user(input);
  user(input);
  return 0;
}
