// x86-64 LLVM 22 crashes (a segmentation fault in the argument assignment)
// lowering a preserve_none function or call that takes a second __int128
// after the integer argument registers run short: here 11 longs, then two
// __int128 (also 9 longs then two; LLVM 19 and AArch64 lower every shape).
// APN made such a static function preserve_none and the compile crashed.
// canTakePreserveNone now refuses the signature on x86-64 LLVM 22
// (SplitInt128): APN and the list leave the function C and the program
// prints what stock clang prints; the attribute is an error naming the
// function (stock clang 22 crashes on it).
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:wide' > %t/list
// RUN: %stock_clang -O0 %s -o %t/ref && %t/ref > %t/expected
// RUN: for M in "-O2 -fauto-preserve-none" "-O0 -fauto-preserve-none" "-O2 -flto -fauto-preserve-none" "-O2 -fpreserve-none-list=%t/list"; do \
// RUN:   %clang $M %s -o %t/prog && %t/prog > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if llvm-22 %{ not %clang -O2 -DATTR -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR %}
// RUN: %if llvm-22 %{ %clang -O2 -fauto-preserve-none -Rpass-missed=auto-preserve-none -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fauto-preserve-none %s -o %t/a64 && %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected %t/a64.out && \
// RUN:   %clang %aarch64_flags -O2 -DATTR %s -o %t/a64-attr && %run_aarch64 %t/a64-attr > %t/a64-attr.out && diff %t/expected %t/a64-attr.out %}
// ERR: error: preserve_none function 'wide' takes two 128-bit integer arguments
// MISSED: remark: 'wide' calls preserve_none 'seed' but is not made preserve_none: it takes two 128-bit integer arguments
#include <stdio.h>

#ifdef ATTR
#define CONV __attribute__((preserve_none))
#else
#define CONV
#endif

volatile long sink, one = 1;
__attribute__((preserve_none, noinline)) void seed(long v) { sink = v; }

CONV __attribute__((noinline)) static long
wide(long a, long b, long c, long d, long e, long f, long g, long h, long i,
     long j, long k, __int128 x, __int128 y) {
  seed(a);
  return a + b + c + d + e + f + g + h + i + j + k + (long)(x >> 64) +
         (long)x + (long)(y >> 3);
}

int main(int argc, char **argv) {
  (void)argv;
  __int128 x = ((__int128)argc << 70) + 5;
  printf("%ld\n", wide(argc, 2 * one, 3 * one, 4 * one, 5 * one, 6 * one,
                       7 * one, 8 * one, 9 * one, 10 * one, 11 * one, x,
                       x * 3));
  return 0;
}
