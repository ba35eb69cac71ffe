// AArch64: a preserve_none function that returns its first argument. LLVM's
// function-attribute inference marks that argument `returned` (-O1 and up,
// and at the LTO link), and the AArch64 backend then gives the call the
// AAPCS "this return" register mask, which keeps x0 and x19-x28 across it:
// the caller kept its own first argument in x0 and other values in x19..
// over the call, although the argument went in x20 and the callee saves
// none of them. Stock clang 19 and 22 printed "7 ..." instead of "22 ...".
// The final check removes `returned` from preserve_none arguments on
// AArch64. The output must be stock clang -O0's without the attribute.
// REQUIRES: qemu-aarch64
// RUN: %stock_clang -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang %aarch64_flags -O1 %s -o %t.o1 && %run_aarch64 %t.o1 > %t.o1.out && diff %t.expected %t.o1.out
// RUN: %clang %aarch64_flags -O2 %s -o %t.o2 && %run_aarch64 %t.o2 > %t.o2.out && diff %t.expected %t.o2.out
// RUN: %clang %aarch64_flags -O3 %s -o %t.o3 && %run_aarch64 %t.o3 > %t.o3.out && diff %t.expected %t.o3.out
// RUN: %clang %aarch64_flags -O2 -flto %s -o %t.lto && %run_aarch64 %t.lto > %t.lto.out && diff %t.expected %t.lto.out
// RUN: %clang %aarch64_flags -O2 -flto=thin %s -o %t.thin && %run_aarch64 %t.thin > %t.thin.out && diff %t.expected %t.thin.out
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -DAPN %s -o %t.apn && %run_aarch64 %t.apn > %t.apn.out && diff %t.expected %t.apn.out
// x86-64 has no such mask; the same program there:
// RUN: %clang -O2 %s -o %t.x86 && %t.x86 > %t.x86.out && diff %t.expected %t.x86.out
#include <stdio.h>

#if defined(REFERENCE)
#define PN
#else
#define PN __attribute__((preserve_none))
#endif

volatile long sink;

// Returns its argument (inferred `returned`), and trashes x19-x28, which a
// preserve_none function need not keep (the reference build does not).
PN __attribute__((noinline)) long pass(long x) {
  sink = x;
#if defined(__aarch64__) && !defined(REFERENCE)
  __asm__ volatile("mov x19, #0x5a\n\tmov x21, #0x5a\n\tmov x22, #0x5a\n\t"
                   "mov x23, #0x5a\n\tmov x24, #0x5a\n\tmov x25, #0x5a\n\t"
                   "mov x26, #0x5a\n\tmov x27, #0x5a\n\tmov x28, #0x5a"
                   :
                   :
                   : "x19", "x21", "x22", "x23", "x24", "x25", "x26", "x27",
                     "x28");
#endif
  return x;
}

// a arrives in x0 and b in x1; both are needed after the call.
__attribute__((noinline)) long direct(long a, long b) {
  volatile long z = pass(1);
  return a * 3 + b + z;
}

__attribute__((noinline)) long many(long a, long b, long c, long d, long e,
                                    long f) {
  long r = pass(a + b);
  return r * 1000 + a * 100 + b * 10 + c + d * 7 + e * 11 + f * 13;
}

#ifdef APN
// 'ident' becomes preserve_none (static, called directly, calls 'pass') and
// returns its first argument too.
static __attribute__((noinline)) long ident(long x, long y) {
  sink = pass(y);
  return x;
}
#else
static __attribute__((noinline)) long ident(long x, long y) {
  sink = y;
  return x;
}
#endif

__attribute__((noinline)) long through_ident(long a, long b) {
  long r = ident(a + 1, b);
  return r * 5 + a + b;
}

int main(void) {
  volatile long k = 6;
  printf("%ld %ld %ld\n", direct(k, 3), many(k, k + 1, k + 2, k + 3, k + 4, k + 5),
         through_ident(k, 9));
  return 0;
}
