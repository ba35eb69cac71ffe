// x86-64 LLVM 22 keeps a base pointer (rbx) across a preserve_none call by
// pushing it around the call, and then stores the call's stack arguments
// over it: "Interference usage of base pointer/frame pointer" (stock clang
// 22 at -O0 and -O2; the hazard matrix's tail-int13 shape in the asan and
// lto-inline rows). cacs routes such a call, from a frame that may need a
// base pointer, through a shield (LLVM 19 shields every call from such a
// frame: it does not save rbx at all). The output must be stock clang
// -O0's without the attribute.
//
// RUN: %stock_clang -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang -O0 %s -o %t.o0 && %t.o0 > %t.o0.out && diff %t.expected %t.o0.out
// RUN: %clang -O2 %s -o %t.o2 && %t.o2 > %t.o2.out && diff %t.expected %t.o2.out
// RUN: %clang -O0 -S %s -o - -Rpass=preserve-none-safety 2>&1 | FileCheck %s
// CHECK: remark: a preserve_none call in 'framed' goes through a shield (callee 'sum13'): the caller may use a base pointer
#include <stdio.h>
#include <string.h>
#if defined(REFERENCE)
#define PN
#else
#define PN __attribute__((preserve_none))
#endif
#define ARGS                                                                   \
  long a, long b, long c, long d, long e, long f, long g, long h, long i,      \
      long j, long k, long l, long m
PN __attribute__((noinline)) long sum13(ARGS) {
  return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h + 9 * i +
         10 * j + 11 * k + 12 * l + 13 * m;
}

// A VLA and an over-aligned local: the frame is addressed through a base
// pointer (rbx), which LLVM 22 saves around the call by pushing it.
__attribute__((noinline)) long framed(long n) {
  char vla[(n & 15) + 1];
  _Alignas(64) char big[64];
  memset(vla, 1, sizeof vla);
  memset(big, 2, sizeof big);
  long r = sum13(n, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, vla[n & 15] + big[n & 63]);
  return r + vla[0] + big[1];
}

int main(void) {
  volatile long n = 7;
  printf("%ld\n", framed(n));
  return 0;
}
