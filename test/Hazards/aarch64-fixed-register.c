// AArch64 -ffixed-xN reserves a register for other uses, such as a global
// register variable; preserve_none passes its integer arguments in x20-x28,
// x0-x7, x10-x14, x9, x15, whether reserved or not. APN infected 'f' and its
// call overwrote the variable: '26 5' instead of '1021 1000'. APN now
// declines when a caller reserves a register the call would pass an
// argument in, and a preserve_none call that would (the attribute, the
// list) is an error naming the caller. The output must be stock clang
// -O0's.
//
// REQUIRES: qemu-aarch64
// RUN: %stock_clang %aarch64_flags -O0 -ffixed-x20 %s -o %t.ref && %run_aarch64 %t.ref > %t.expected
// RUN: %clang %aarch64_flags -O2 -ffixed-x20 -fauto-preserve-none %s -o %t.apn -Rpass-missed=auto-preserve-none 2>&1 | FileCheck %s --check-prefix=APN
// RUN: %run_aarch64 %t.apn > %t.apn.out && diff %t.expected %t.apn.out
// RUN: %clang %aarch64_flags -O1 -ffixed-x21 -fauto-preserve-none -DREG='"x21"' %s -o %t.apn21
// RUN: %run_aarch64 %t.apn21 > %t.apn21.out && diff %t.expected %t.apn21.out
// RUN: not %clang %aarch64_flags -O2 -ffixed-x20 -DATTR %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
// RUN: echo 'fun:f' > %t.list
// RUN: not %clang %aarch64_flags -O2 -ffixed-x20 -fpreserve-none-list=%t.list %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR --implicit-check-not=error:
// APN: remark: 'f' calls preserve_none 'seed' but is not made preserve_none: its caller 'main' reserves x20 (-ffixed-x20), in which the call would pass its integer argument 1
// ERR: error: preserve_none call to 'f' in 'main' passes its integer argument 1 in x20, which -ffixed-x20 reserves (for a global register variable, say); do not reserve x20 in code that calls preserve_none functions
#include <stdio.h>

#ifndef REG
#define REG "x20"
#endif
register long ctx asm(REG);

#if defined(ATTR)
#define PN __attribute__((preserve_none))
#else
#define PN
#endif

__attribute__((preserve_none, noinline)) void seed(void) {
  __asm__ volatile("");
}

PN static __attribute__((noinline)) long f(long a, long b) {
  seed();
  return a * 3 + b + ctx;
}

int main(void) {
  volatile long x = 5;
  ctx = 1000;
  long r = f(x, x + 1);
  printf("%ld %ld\n", r, ctx);
  return 0;
}
