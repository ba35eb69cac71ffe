// -fsplit-stack (x86-64): the prologue of a function with more than a small
// frame compares the stack limit through r11 (and, when the segment is
// exhausted, passes __morestack the argument size in r11), before the body
// reads its arguments; r11 carries the 11th integer argument of
// preserve_none. cacs never infects such a function (APN), and splits a
// preserve_none definition (attribute or list): the body, with its
// split-stack prologue, moves into a C-convention function, and the
// preserve_none entry, whose frame is small, has no split-stack prologue.
// The output must be stock clang -O0's without the attribute.
//
// RUN: %stock_clang -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang -O0 -fsplit-stack -fauto-preserve-none %s -o %t.apn0 && %t.apn0 > %t.apn0.out && diff %t.expected %t.apn0.out
// RUN: %clang -O2 -fsplit-stack -fauto-preserve-none %s -o %t.apn2 && %t.apn2 > %t.apn2.out && diff %t.expected %t.apn2.out
// RUN: %clang -O0 -fsplit-stack -DATTR %s -o %t.attr0 && %t.attr0 > %t.attr0.out && diff %t.expected %t.attr0.out
// RUN: %clang -O2 -fsplit-stack -DATTR %s -o %t.attr2 && %t.attr2 > %t.attr2.out && diff %t.expected %t.attr2.out
// RUN: echo 'fun:f' > %t.list
// RUN: %clang -O2 -fsplit-stack -fpreserve-none-list=%t.list %s -o %t.list2 && %t.list2 > %t.list2.out && diff %t.expected %t.list2.out
#include <stdio.h>

#if defined(ATTR) && !defined(REFERENCE)
#define PN __attribute__((preserve_none))
#else
#define PN
#endif

#ifndef REFERENCE
__attribute__((preserve_none))
#endif
__attribute__((noinline)) void
seed(void) {
}

// A frame bigger than the split-stack threshold, 11 integer arguments, a
// preserve_none callee (so that APN would infect it).
PN __attribute__((noinline)) static long f(long a1, long a2, long a3, long a4,
                                           long a5, long a6, long a7, long a8,
                                           long a9, long a10, long a11) {
  volatile char big[70000];
  big[0] = 1;
  seed();
  return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 +
         9 * a9 + 10 * a10 + 11 * a11 + big[0];
}

int main(void) {
  volatile long x = 11;
  for (int I = 0; I < 3; ++I)
    printf("%ld\n", f(x, 2, 3, 4, x + I, 6, 7, 8, 9, 10, x + 2 * I));
  return 0;
}
