// Why AArch64 is not diagnosed: variadic preserve_none calls there use the
// AAPCS argument registers on both sides and compute the right results, at
// -O0 and -O2. (The same program prints garbage on x86-64 with stock clang.)
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O0 %s -o %t0 && %run_aarch64 %t0 | FileCheck %s
// RUN: %clang %aarch64_flags -O2 %s -o %t2 && %run_aarch64 %t2 | FileCheck %s
// CHECK: 650 385
#include <stdarg.h>
#include <stdio.h>
__attribute__((preserve_none, noinline)) long sumi(int n, ...) {
  va_list ap; va_start(ap, n); long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, long) * (i + 1);
  va_end(ap); return s;
}
__attribute__((preserve_none, noinline)) double sumd(int n, ...) {
  va_list ap; va_start(ap, n); double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double) * (i + 1);
  va_end(ap); return s;
}
int main(void) {
  long a = sumi(12, 1L,2L,3L,4L,5L,6L,7L,8L,9L,10L,11L,12L);
  double b = sumd(10, 1.,2.,3.,4.,5.,6.,7.,8.,9.,10.);
  printf("%ld %g\n", a, b);
  return !(a == 650 && b == 385);
}
