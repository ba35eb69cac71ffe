// Units compiled with different flags, linked under LTO: this unit is
// compiled with -mretpoline, Inputs/lto-indirect-helper.c without. The LTO
// link (full, or a ThinLTO backend) inlines the helper's indirect
// preserve_none call with 11 integer arguments into 'main', whose retpoline
// thunk needs r11, the 11th argument. The final check at the link reports
// it, naming the caller, and the backend does not stop with its fatal error
// ("calling convention incompatible with retpoline, no available
// registers"), which it did when the link ran without the plugin.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -flto -mretpoline -c %s -o %t/main.o
// RUN: %clang -O2 -flto -c %S/Inputs/lto-indirect-helper.c -o %t/helper.o
// RUN: not %clang -O2 -flto %t/main.o %t/helper.o -o %t/full 2>&1 | FileCheck %s --implicit-check-not='fatal error' --implicit-check-not='LLVM ERROR'
// RUN: %clang -O2 -flto=thin -mretpoline -c %s -o %t/thinmain.o
// RUN: %clang -O2 -flto=thin -c %S/Inputs/lto-indirect-helper.c -o %t/thinhelper.o
// RUN: not %clang -O2 -flto=thin %t/thinmain.o %t/thinhelper.o -o %t/thin 2>&1 | FileCheck %s --implicit-check-not='fatal error' --implicit-check-not='LLVM ERROR'
// CHECK: error: {{.*}}preserve_none call through a pointer in 'main' passes 11 or more integer arguments, the 11th in r11, which the retpoline thunk
#include <stdio.h>

typedef long __attribute__((preserve_none)) (*fn11)(long, long, long, long,
                                                    long, long, long, long,
                                                    long, long, long);
long call_it(fn11 f, long x);

__attribute__((preserve_none)) long g(long a1, long a2, long a3, long a4,
                                      long a5, long a6, long a7, long a8,
                                      long a9, long a10, long a11) {
  return a1 + a11;
}

int main(void) {
  fn11 volatile p = g;
  printf("%ld\n", call_it(p, 5));
  return 0;
}
