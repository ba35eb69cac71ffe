// A static function that only inline asm calls, kept by
// __attribute__((used)): the asm calls it with the C convention, which the
// compiler does not see. It calls a preserve_none function, so APN would
// infect it, but it is in llvm.used, and APN (in each unit and at the
// full-LTO link) leaves it C. Infected, it would read its argument from r12,
// not rdi. The output must be stock clang -O0's.
//
// RUN: %stock_clang -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang -O2 -fauto-preserve-none %s -o %t.o2 -Rpass-missed=auto-preserve-none 2>&1 | FileCheck %s
// RUN: %t.o2 > %t.o2.out && diff %t.expected %t.o2.out
// RUN: %clang -O0 -fauto-preserve-none %s -o %t.o0 && %t.o0 > %t.o0.out && diff %t.expected %t.o0.out
// RUN: %clang -O2 -flto -fauto-preserve-none %s -o %t.lto && %t.lto > %t.lto.out && diff %t.expected %t.lto.out
// CHECK: remark: 'from_asm' calls preserve_none 'seed' but is not made preserve_none: it is in llvm.used or llvm.compiler.used
#include <stdio.h>

#ifndef REFERENCE
__attribute__((preserve_none))
#endif
__attribute__((noinline)) void
seed(void) {
  __asm__ volatile("");
}

static __attribute__((used, noinline)) long from_asm(long a) {
  seed();
  return a * 3 + 1;
}

int main(void) {
  long out;
  for (long I = 0; I < 3; ++I) {
    // The SysV convention: argument in rdi, result in rax; the registers a
    // C function may change are clobbered.
    __asm__ volatile("movq %1, %%rdi\n\t"
                     "callq from_asm\n\t"
                     "movq %%rax, %0"
                     : "=r"(out)
                     : "r"(I + 40)
                     : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10",
                       "r11", "memory", "cc");
    printf("%ld\n", out);
  }
  return 0;
}
