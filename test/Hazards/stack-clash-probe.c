// -fstack-clash-protection: the prologue of a function with a frame larger
// than eight probe intervals probes it in a loop that keeps its bound in r11
// (x86-64) or x9 (AArch64), before the body reads its arguments; r11 carries
// the 11th integer argument of preserve_none, x9 the 23rd (defect 1 of issue
// 11: an APN-infected function returned garbage, at -O0 too). cacs now never
// infects such a function (APN), and splits a preserve_none definition
// (attribute or list) so that the probed frame belongs to a C-convention
// body. The output must be stock clang -O0's without the attribute.
//
// RUN: %stock_clang -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang -O0 -fstack-clash-protection -fauto-preserve-none %s -o %t.apn0 && %t.apn0 > %t.apn0.out && diff %t.expected %t.apn0.out
// RUN: %clang -O2 -fstack-clash-protection -fauto-preserve-none %s -o %t.apn2 && %t.apn2 > %t.apn2.out && diff %t.expected %t.apn2.out
// RUN: %clang -O0 -fstack-clash-protection -DATTR %s -o %t.attr0 && %t.attr0 > %t.attr0.out && diff %t.expected %t.attr0.out
// RUN: %clang -O2 -fstack-clash-protection -DATTR %s -o %t.attr2 && %t.attr2 > %t.attr2.out && diff %t.expected %t.attr2.out
// RUN: echo 'fun:probed' > %t.list
// RUN: %clang -O0 -fstack-clash-protection -fpreserve-none-list=%t.list %s -o %t.list0 && %t.list0 > %t.list0.out && diff %t.expected %t.list0.out
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O0 -fstack-clash-protection -fauto-preserve-none %s -o %t.a64apn && %run_aarch64 %t.a64apn > %t.a64apn.out && diff %t.expected %t.a64apn.out %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fstack-clash-protection -DATTR %s -o %t.a64attr && %run_aarch64 %t.a64attr > %t.a64attr.out && diff %t.expected %t.a64attr.out %}
#include <stdio.h>

#if defined(ATTR) && !defined(REFERENCE)
#define PN __attribute__((preserve_none))
#else
#define PN
#endif

#define SIZE 100000
#define ARGS(T)                                                                \
  T a1, T a2, T a3, T a4, T a5, T a6, T a7, T a8, T a9, T a10, T a11, T a12,   \
      T a13, T a14, T a15, T a16, T a17, T a18, T a19, T a20, T a21, T a22,    \
      T a23, T a24
#define VALS                                                                   \
  a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17,  \
      a18, a19, a20, a21, a22, a23, a24

volatile long seed = 1;

#ifndef REFERENCE
__attribute__((preserve_none))
#endif
__attribute__((noinline)) static long
leaf(long x) {
  return x * 3;
}

// A big frame, 24 integer arguments, a preserve_none callee (so that APN
// would infect it).
PN __attribute__((noinline)) static long probed(ARGS(long)) {
  volatile char buf[SIZE];
  buf[0] = (char)a1;
  buf[SIZE - 1] = (char)a24;
  long s = a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 +
           9 * a9 + 10 * a10 + 11 * a11 + 12 * a12 + 13 * a13 + 14 * a14 +
           15 * a15 + 16 * a16 + 17 * a17 + 18 * a18 + 19 * a19 + 20 * a20 +
           21 * a21 + 22 * a22 + 23 * a23 + 24 * a24;
  return s + leaf(buf[0] + buf[SIZE - 1]);
}

int main(void) {
  long b = seed;
  printf("%ld\n", probed(b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7,
                         b + 8, b + 9, b + 10, b + 11, b + 12, b + 13, b + 14,
                         b + 15, b + 16, b + 17, b + 18, b + 19, b + 20, b + 21,
                         b + 22, b + 23));
  return 0;
}
