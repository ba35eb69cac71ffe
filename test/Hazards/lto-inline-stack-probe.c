// LTO inlining after APN: this unit is compiled without
// -fstack-clash-protection, and APN infects 'infected' (static, 11 integer
// arguments). At the link (full LTO, or a ThinLTO backend) the inliner puts
// a helper compiled with -fstack-clash-protection into it, with the
// helper's large frame and, by LLVM's merging of attributes, its
// "probe-stack". The prologue's probe loop then keeps its bound in r11,
// the 11th preserve_none argument: without the final check at the link
// the program prints garbage. The final check reverts 'infected', with its
// calls, to the C convention. The output must be stock clang -O0's without
// the attribute.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O0 -DREFERENCE %s %S/Inputs/lto-inline-probed-helper.c -o %t/ref && %t/ref > %t/expected
// RUN: %clang -O2 -flto -fauto-preserve-none -c %s -o %t/main.o
// RUN: %clang -O2 -flto -fstack-clash-protection -c %S/Inputs/lto-inline-probed-helper.c -o %t/helper.o
// RUN: %clang -O2 -flto %t/main.o %t/helper.o -o %t/full -Rpass=preserve-none-safety 2>&1 | FileCheck %s
// RUN: %t/full > %t/full.out && diff %t/expected %t/full.out
// RUN: %clang -O2 -flto=thin -fauto-preserve-none -c %s -o %t/thinmain.o
// RUN: %clang -O2 -flto=thin -fstack-clash-protection -c %S/Inputs/lto-inline-probed-helper.c -o %t/thinhelper.o
// RUN: %clang -O2 -flto=thin %t/thinmain.o %t/thinhelper.o -o %t/thin -Rpass=preserve-none-safety 2>&1 | FileCheck %s
// RUN: %t/thin > %t/thin.out && diff %t/expected %t/thin.out
// CHECK: 'infected' is made C again: its stack frame may be probed (-fstack-clash-protection) by a loop that uses r11, which carries its integer argument 11
#include <stdio.h>

long helper(long n);

// The preserve_none callee that makes APN infect its caller.
#ifndef REFERENCE
__attribute__((preserve_none))
#endif
__attribute__((noinline)) void
seed(void) {
  __asm__ volatile("");
}

static __attribute__((noinline)) long infected(long a1, long a2, long a3,
                                               long a4, long a5, long a6,
                                               long a7, long a8, long a9,
                                               long a10, long a11) {
  seed();
  return helper(a1) + a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 +
         7 * a7 + 8 * a8 + 9 * a9 + 10 * a10 + 11 * a11;
}

volatile long v = 3;

int main(void) {
  // Arguments the link cannot propagate as constants.
  for (int i = 0; i < 2; ++i)
    printf("%ld\n", infected(v, v + 1, v + 2, v + 3, v + 4, v + 5, v + 6,
                             v + 7, v + 8, v + 9, v + i));
  return 0;
}
