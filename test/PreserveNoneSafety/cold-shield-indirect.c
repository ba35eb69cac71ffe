// Rare preserve_none calls through pointers go through cold shields too:
// the shield takes the callee as its first C argument and makes the
// preserve_none call itself, with 12 integer arguments (x86-64: every
// argument register, so the target needs one more), 24 (AArch64: every
// argument register; x86-64: 12 on the stack), and mixed FP ones. The
// output must equal stock clang -O0's without preserve_none. (Unsigned
// arithmetic: it wraps, with no undefined behaviour to let builds differ.)
//
// RUN: %stock_clang -O0 -DNO_PN %s -o %tref && %tref > %t.ref
// RUN: %clang -O2 -Rpass=preserve-none-safety %s -o %t2 2> %t2.remarks && timeout 120 %t2 | diff %t.ref -
// RUN: FileCheck %s --check-prefix=REMARK < %t2.remarks
// RUN: %clang -O2 -fPIC -fcf-protection=full %s -o %t3 && timeout 120 %t3 | diff %t.ref -
// RUN: %clang -O2 -flto -fauto-preserve-none %s -o %t4 && timeout 120 %t4 | diff %t.ref -
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -Rpass=preserve-none-safety %s -o %ta2 2> %ta2.remarks && timeout 120 %run_aarch64 %ta2 | diff %t.ref - %}
// RUN: %if qemu-aarch64 %{ FileCheck %s --check-prefix=REMARK < %ta2.remarks %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fPIC -mbranch-protection=standard %s -o %ta3 && timeout 120 %run_aarch64 %ta3 | diff %t.ref - %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto %s -o %ta4 && timeout 120 %run_aarch64 %ta4 | diff %t.ref - %}
//
// REMARK-COUNT-3: remark: a preserve_none call in 'work' goes through a shield: the call is rare

#include <stdio.h>

typedef unsigned long ul;
#ifdef NO_PN
#define PN
#else
#define PN __attribute__((preserve_none))
#endif
#define A12                                                                    \
  ul a0, ul a1, ul a2, ul a3, ul a4, ul a5, ul a6, ul a7, ul a8, ul a9,        \
      ul a10, ul a11
#define A24                                                                    \
  A12, ul b0, ul b1, ul b2, ul b3, ul b4, ul b5, ul b6, ul b7, ul b8, ul b9,   \
      ul b10, ul b11
PN __attribute__((noinline)) ul f12(A12) {
  return a0 + 2 * a1 + 3 * a2 + 4 * a3 + 5 * a4 + 6 * a5 + 7 * a6 + 8 * a7 +
         9 * a8 + 10 * a9 + 11 * a10 + 12 * a11;
}
PN __attribute__((noinline)) ul f24(A24) {
  return f12(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) * 3 + b0 +
         2 * b1 + 3 * b2 + 4 * b3 + 5 * b4 + 6 * b5 + 7 * b6 + 8 * b7 + 9 * b8 +
         10 * b9 + 11 * b10 + 13 * b11;
}
PN __attribute__((noinline)) double fd(double x, ul n, double y, float z) {
  return x * n + y - z;
}
typedef ul (*P12)(A12) PN;
typedef ul (*P24)(A24) PN;
typedef double (*PD)(double, ul, double, float) PN;
P12 volatile p12 = f12;
P24 volatile p24 = f24;
PD volatile pd = fd;
__attribute__((noinline)) ul work(unsigned n) {
  ul s = 1, t = 2, u = 3;
  double d = 0.5;
  for (unsigned i = 0; i < n; ++i) {
    s = s * 3 + i;
    t ^= s >> 2;
    u += t;
    d = d * 0.9 + (i & 3);
    if (__builtin_expect(i % 512 == 511, 0)) {
      s += p12(i, s, t, u, 1, 2, 3, 4, 5, 6, 7, 8);
      t += p24(i, s, t, u, 1, 2, 3, 4, 5, 6, 7, 8, i, s, t, u, 9, 10, 11, 12,
               13, 14, 15, 16);
      d += pd(d, (ul)i, d * 2, (float)i);
    }
  }
  return s + t + u + (ul)(d * 1000);
}
int main(void) {
  printf("%lu\n", work(100000));
  return 0;
}
