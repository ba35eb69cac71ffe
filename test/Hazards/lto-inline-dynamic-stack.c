// Full LTO: APN decides per unit, before the link inlines across units. A
// static function infected in its own unit got, by inlining an
// always_inline helper from another unit, a variable-length array and an
// over-aligned local; lld stopped with "Stack realignment in presence of
// dynamic allocas is not supported with this calling convention" (defect 3
// of issue 11). The final check at the link reverts such a function, with
// its call sites, to the C convention. ThinLTO imports the helper and
// inlines it in the backend of this unit, where the final check runs too
// (lld loads the plugin for any -flto): without it, LLVM 19 stops there.
// The output must be stock clang -O0's without the attribute.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O0 -DREFERENCE %s %S/Inputs/lto-inline-helper.c -o %t/ref && %t/ref > %t/expected
// RUN: %clang -O2 -flto -fauto-preserve-none -c %s -o %t/main.o
// RUN: %clang -O2 -flto -fauto-preserve-none -c %S/Inputs/lto-inline-helper.c -o %t/helper.o
// RUN: %clang -O2 -flto -fuse-ld=lld %t/main.o %t/helper.o -o %t/lto -Rpass=preserve-none-safety 2>&1 | FileCheck %s
// RUN: %t/lto > %t/lto.out && diff %t/expected %t/lto.out
// RUN: %clang -O2 -flto=thin -fauto-preserve-none -c %s -o %t/thinmain.o
// RUN: %clang -O2 -flto=thin -fauto-preserve-none -c %S/Inputs/lto-inline-helper.c -o %t/thinhelper.o
// RUN: %clang -O2 -flto=thin %t/thinmain.o %t/thinhelper.o -o %t/thin -Rpass=preserve-none-safety 2>&1 | FileCheck %s
// RUN: %t/thin > %t/thin.out && diff %t/expected %t/thin.out
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto -fauto-preserve-none -c %s -o %t/a64main.o %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto -fauto-preserve-none -c %S/Inputs/lto-inline-helper.c -o %t/a64helper.o %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto -fuse-ld=lld %t/a64main.o %t/a64helper.o -o %t/a64 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected %t/a64.out %}
// CHECK: 'infected' is made C again: it allocates stack dynamically
#include <stdio.h>

#ifdef REFERENCE
#define PN
#else
#define PN __attribute__((preserve_none))
#endif

long helper(long n);
volatile long seed = 5;

PN __attribute__((noinline)) long leaf(long x) { return x * 7; }

// Infected per unit: static, calls preserve_none, no dynamic stack yet.
__attribute__((noinline)) static long infected(long n) {
  return leaf(n) + helper(n);
}

int main(void) {
  printf("%ld\n", infected(seed) + infected(seed + 3));
  return 0;
}
