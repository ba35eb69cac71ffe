// Found by difftest (csmith seeds 2001, 2003-2007, aarch64, lto-2tu: a TU
// compiled -O0 -flto, linked -O2): on AArch64, LLVM 19 and 22 FastISel lower
// a call to a preserve_none function with the AAPCS argument registers
// (x0, x1, ...) while the callee reads x20, x21, ... FastISel runs for
// optnone functions inside an optimizing compile: __attribute__((optnone)) at
// -O2, and every function of a -O0 -flto TU at an -O2 LTO link. (At plain -O0
// AArch64 uses GlobalISel, which is right.) Stock clang prints garbage here
// (4015795729004 for 123). cacs shields such calls since f9b815e (and APN
// keeps callees of optnone functions C since 45a859b); this guards that.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 %s -o %t.o2
// RUN: %run_aarch64 %t.o2 | FileCheck %s
// RUN: %clang %aarch64_flags -O0 -flto -DNO_OPTNONE -c %s -o %t.lto.o
// RUN: %clang %aarch64_flags -O2 -flto %t.lto.o -o %t.lto
// RUN: %run_aarch64 %t.lto | FileCheck %s
// CHECK: 123 123
#include <stdio.h>
#ifdef NO_OPTNONE
#define OPTNONE
#else
#define OPTNONE __attribute__((optnone))
#endif
__attribute__((preserve_none, noinline)) long f(long a, long b, long c) {
  return a * 100 + b * 10 + c;
}
OPTNONE __attribute__((noinline)) long g(long x) { return f(x, x + 1, x + 2); }
__attribute__((noinline)) long h(long x) { return f(x, x + 1, x + 2); }
int main(void) {
  printf("%ld %ld\n", g(1), h(1));
  return 0;
}
