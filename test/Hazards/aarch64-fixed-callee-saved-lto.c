// AArch64 -ffixed-x25 under full LTO: 'mid' is defined in a unit compiled
// without it (Inputs/fixed-lto-unit.c) and calls preserve_none 'seed',
// which writes x25. As a C function 'mid' restores x25 for 'main', which
// reserves it for a global register variable; the link internalizes 'mid'
// and APN would make it preserve_none, and then nothing restored x25: the
// program printed '22 7' instead of '22 1000'. APN declines when a caller
// reserves one of x20-x28 (on LLVM 22: one that the function does not
// reserve too). The output must be stock clang -O0's without preserve_none.
//
// REQUIRES: qemu-aarch64
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang %aarch64_flags -O0 -ffixed-x25 -c %s -o %t/ref-main.o
// RUN: %stock_clang %aarch64_flags -O0 -DREFERENCE -c %S/Inputs/fixed-lto-unit.c -o %t/ref-unit.o
// RUN: %stock_clang %aarch64_flags %t/ref-main.o %t/ref-unit.o -o %t/ref && %run_aarch64 %t/ref > %t/expected
// RUN: %clang %aarch64_flags -O2 -flto -fauto-preserve-none -ffixed-x25 -c %s -o %t/main.o
// RUN: %clang %aarch64_flags -O2 -flto -fauto-preserve-none -c %S/Inputs/fixed-lto-unit.c -o %t/unit.o
// RUN: %clang %aarch64_flags -O2 -flto %t/main.o %t/unit.o -o %t/full -Rpass-missed=auto-preserve-none 2>&1 | FileCheck %s
// RUN: %run_aarch64 %t/full > %t/full.out && diff %t/expected %t/full.out
// CHECK: 'mid' calls preserve_none 'seed' but is not made preserve_none: its caller 'main' reserves x25 (-ffixed-x25), which it would no longer preserve
#include <stdio.h>

register long ctx asm("x25");

long mid(long a, long b);

int main(void) {
  volatile long x = 5;
  ctx = 1000;
  long r = mid(x, x + 1);
  printf("%ld %ld\n", r, ctx);
  return 0;
}
