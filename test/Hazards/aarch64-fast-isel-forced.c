// AArch64 with -mllvm -fast-isel at -O1..-O3: FastISel lowers every
// function, not only the optnone ones, and passes the arguments of a
// preserve_none call in the AAPCS registers (x0, x1, ...) where the callee
// reads x20, x21, ...: the program crashed (attribute, list, any argument
// count). The rule set sees the option and routes every preserve_none call
// through a shield, as for an optnone caller; APN does not infect the
// callees. The output must be stock clang -O0's without the attribute.
// REQUIRES: qemu-aarch64
// RUN: %stock_clang -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang %aarch64_flags -O2 -mllvm -fast-isel %s -o %t.attr
// RUN: %run_aarch64 %t.attr > %t.attr.out && diff %t.expected %t.attr.out
// RUN: echo 'fun:listed' > %t.list
// RUN: %clang %aarch64_flags -O2 -mllvm -fast-isel -fpreserve-none-list=%t.list -DNO_ATTR %s -o %t.list.exe
// RUN: %run_aarch64 %t.list.exe > %t.list.out && diff %t.expected %t.list.out
// RUN: %clang %aarch64_flags -O1 -mllvm -fast-isel -fauto-preserve-none %s -o %t.apn
// RUN: %run_aarch64 %t.apn > %t.apn.out && diff %t.expected %t.apn.out
#include <stdio.h>

#if defined(REFERENCE) || defined(NO_ATTR)
#define PN
#else
#define PN __attribute__((preserve_none))
#endif

volatile long seed = 3;

PN __attribute__((noinline)) long listed(long a, long b, double c) {
  return a * 100 + b * 10 + (long)c;
}

__attribute__((noinline)) long caller(long x) {
  return listed(x, x + 1, 2.0) + listed(x + 2, x + 3, 4.0);
}

int main(void) {
  printf("%ld\n", caller(seed));
  return 0;
}
