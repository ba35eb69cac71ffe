// Units compiled with different flags, linked under LTO after APN: f is
// defined in a unit compiled with -pg -mfentry (Inputs/lto-fentry-unit.c,
// whose __fentry__ clobbers r11) and called from this unit, compiled
// without. The full-LTO link internalizes f and would infect it; the rule
// sees its "fentry-call" there too, and declines. Without the rule the
// program printed 16674579825 instead of 1036. ThinLTO runs APN per unit
// only, where f is global. The output must be stock clang -O0's.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O0 -DREFERENCE %s %S/Inputs/lto-fentry-unit.c -o %t/ref && %t/ref > %t/expected
// RUN: %clang -O2 -flto -fauto-preserve-none -c %s -o %t/main.o
// RUN: %clang -O2 -flto -fauto-preserve-none -pg -mfentry -c %S/Inputs/lto-fentry-unit.c -o %t/unit.o
// RUN: %clang -O2 -flto %t/main.o %t/unit.o -o %t/full -Rpass-missed=auto-preserve-none 2>&1 | FileCheck %s
// RUN: %t/full > %t/full.out && diff %t/expected %t/full.out
// RUN: %clang -O2 -flto=thin -fauto-preserve-none -c %s -o %t/thinmain.o
// RUN: %clang -O2 -flto=thin -fauto-preserve-none -pg -mfentry -c %S/Inputs/lto-fentry-unit.c -o %t/thinunit.o
// RUN: %clang -O2 -flto=thin %t/thinmain.o %t/thinunit.o -o %t/thin
// RUN: %t/thin > %t/thin.out && diff %t/expected %t/thin.out
// CHECK: 'f' calls preserve_none 'seed' but is not made preserve_none: its entry calls a hook before the prologue (-mfentry, -fpatchable-function-entry) that need not preserve r11, its integer argument 11
#include <stdio.h>

long f(long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8,
       long a9, long a10, long a11);

int main(void) {
  volatile long x = 11;
  for (int I = 0; I < 3; ++I)
    printf("%ld\n", f(x, x + 1, x + 2, x + 3, x + I, x + 5, x + 6, x + 7,
                      x + 8, x + 9, x + 2 * I));
  return 0;
}
