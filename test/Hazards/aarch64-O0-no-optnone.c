// AArch64 code generated at -O0 by functions that are not optnone
// (-Xclang -disable-O0-optnone, the usual way to hand -O0 IR to opt):
// FastISel lowers every function with -fno-global-isel, and every function
// GlobalISel gives up on otherwise, and passes the arguments of a
// preserve_none call in the AAPCS registers. The safety pass shielded only
// the calls of optnone callers, so these programs printed wrong values
// (LLVM 19 and 22, the attribute and APN); it now shields every call of a
// module whose pipeline runs at O0. The output must be stock clang -O0's
// without the attribute.
// REQUIRES: qemu-aarch64
// RUN: %stock_clang -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang %aarch64_flags -O0 -Xclang -disable-O0-optnone -fno-global-isel %s -o %t.attr
// RUN: %run_aarch64 %t.attr > %t.attr.out && diff %t.expected %t.attr.out
// RUN: %clang %aarch64_flags -O0 -Xclang -disable-O0-optnone -fno-global-isel -fauto-preserve-none -DAPN %s -o %t.apn
// RUN: %run_aarch64 %t.apn > %t.apn.out && diff %t.expected %t.apn.out
// GlobalISel (the -O0 default) with a fallback that is reported:
// RUN: %clang %aarch64_flags -O0 -Xclang -disable-O0-optnone -mllvm -global-isel-abort=2 %s -o %t.gisel
// RUN: %run_aarch64 %t.gisel > %t.gisel.out && diff %t.expected %t.gisel.out
#include <stdio.h>

#if defined(REFERENCE) || defined(APN)
#define PN
#else
#define PN __attribute__((preserve_none))
#endif

#ifdef APN
// The seed APN starts from; 'mix' below becomes preserve_none (static, only
// called directly), and so do its calls.
__attribute__((preserve_none, noinline)) static void seed(void) {}
#else
static void seed(void) {}
#endif

PN __attribute__((noinline)) static long mix(long a, long b, long c, long d,
                                             double x, double y) {
  seed();
  return a * 1000 + b * 100 + c * 10 + d + (long)(x * y);
}

PN __attribute__((noinline)) long twelve(long a1, long a2, long a3, long a4,
                                         long a5, long a6, long a7, long a8,
                                         long a9, long a10, long a11,
                                         long a12) {
  return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 +
         9 * a9 + 10 * a10 + 11 * a11 + 12 * a12;
}

int main(void) {
  volatile long s = 3;
  long (*volatile indirect)(long, long, long, long, long, long, long, long,
                            long, long, long, long) PN = twelve;
  printf("%ld %ld\n", mix(s, s + 1, s + 2, s + 3, 1.5, 4.0),
         mix(s + 4, 1, 2, 3, 0.5, 6.0));
  printf("%ld %ld\n", twelve(s, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, s),
         indirect(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, s + 1));
  return 0;
}
