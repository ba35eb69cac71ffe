// AArch64 -ffixed-x25 with preserve_none callees whose definitions are in
// view and reserve x25 too (the same unit); 'seed' writes the global
// register variable. What its caller then sees differs between LLVM
// versions, and cacs keeps each one's: LLVM 19 restores a reserved
// x20-x28 in every C function that modifies it (stock clang -O0 prints
// '1021 1000'), so the preserve_none calls go through a shield and APN does
// not infect 'bump'; LLVM 22 does not ('1021 1100'), so the calls stay
// direct and APN infects 'bump'. A callee that does not reserve x25 is
// aarch64-fixed-callee-saved.c and aarch64-fixed-callee-saved-lto.c. The
// output must be stock clang -O0's without preserve_none, by the
// attribute, the list and APN.
//
// REQUIRES: qemu-aarch64
// RUN: %stock_clang %aarch64_flags -O0 -ffixed-x25 %s -o %t.ref && %run_aarch64 %t.ref > %t.expected
// RUN: %clang %aarch64_flags -O2 -ffixed-x25 -DATTR %s -o %t.attr && %run_aarch64 %t.attr > %t.attr.out && diff %t.expected %t.attr.out
// RUN: echo 'fun:bump' > %t.list && echo 'fun:seed' >> %t.list
// RUN: %clang %aarch64_flags -O2 -ffixed-x25 -fpreserve-none-list=%t.list %s -o %t.list.exe && %run_aarch64 %t.list.exe > %t.list.out && diff %t.expected %t.list.out
// RUN: %clang %aarch64_flags -O2 -ffixed-x25 -DSEED -fauto-preserve-none -Rpass=auto-preserve-none -Rpass-missed=auto-preserve-none %s -o %t.apn 2>&1 | FileCheck %s --check-prefix=APN%llvm_major
// RUN: %run_aarch64 %t.apn > %t.apn.out && diff %t.expected %t.apn.out
// APN19: remark: 'bump' calls preserve_none 'seed' but is not made preserve_none: its caller 'main' reserves x25 (-ffixed-x25), which it would no longer preserve [
// APN22: remark: made 'bump' preserve_none
#include <stdio.h>

#if defined(ATTR)
#define PN __attribute__((preserve_none))
#else
#define PN
#endif
#if defined(ATTR) || defined(SEED)
#define PN_SEED __attribute__((preserve_none))
#else
#define PN_SEED
#endif

register long ctx asm("x25");

PN_SEED __attribute__((noinline)) void seed(long *p) {
  *p += ctx;
  ctx += 100; // the variable, on purpose
}

PN static __attribute__((noinline)) long bump(long a, long b) {
  long t = a * 3 + b;
  seed(&t);
  return t;
}

int main(void) {
  volatile long x = 5;
  ctx = 1000;
  long r = bump(x, x + 1);
  printf("%ld %ld\n", r, ctx);
  return 0;
}
