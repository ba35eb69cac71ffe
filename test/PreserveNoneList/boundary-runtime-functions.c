// A glob over every function (`fun:*`) in C: the code generator calls
// functions that no declaration of the source names: libgcc's (compiler-rt's)
// __muldc3 for a complex multiplication, and, under
// -fsanitize=signed-integer-overflow, UBSan's __ubsan_handle_add_overflow.
// Those libraries are built without the list, so the calls stay C calls of
// the plain name, and the program links and prints what stock clang prints
// (before, the link failed: "undefined symbol:
// __muldc3.preserve_none_list"). The source's own declarations keep
// theirs: a block-scope `extern` declaration of a function defined in
// another unit (here: left out by NO_LATER) is called by its decorated name.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:*' > %t/list
// RUN: %stock_clang -O0 %s -o %t/ref -lm && %t/ref > %t/expected
// RUN: for M in -O0 -O2 "-O2 -flto" "-O2 -fsanitize=signed-integer-overflow"; do \
// RUN:   %clang $M -fpreserve-none-list=%t/list %s -o %t/prog -lm && \
// RUN:   %t/prog > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ for M in -O0 -O2 "-O2 -flto"; do \
// RUN:   %clang %aarch64_flags $M -fpreserve-none-list=%t/list %s -o %t/a64 -lm && \
// RUN:   %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected %t/a64.out || exit 1; \
// RUN: done %}
// RUN: %clang -O1 -S -emit-llvm -fsanitize=signed-integer-overflow -DNO_LATER -fpreserve-none-list=%t/list %s -o %t/ir.ll 2>/dev/null
// RUN: FileCheck %s < %t/ir.ll
// RUN: not grep -E '@(__muldc3|__ubsan_[a-z_]+)\.preserve_none_list' %t/ir.ll
// CHECK-DAG: call preserve_nonecc {{.*}}@later.preserve_none_list(
// CHECK-DAG: declare preserve_nonecc {{.*}}@later.preserve_none_list(
// CHECK-DAG: declare {{.*}}@__muldc3(
// CHECK-DAG: declare {{.*}}@__ubsan_handle_add_overflow(
#include <complex.h>
#include <stdio.h>

__attribute__((noinline)) double complex mul(double complex A, double complex B) {
  return A * B; // __muldc3
}

__attribute__((noinline)) long adds(long A, long B) {
  return A + B; // __ubsan_handle_add_overflow under the sanitizer
}

__attribute__((noinline)) long calls_later(long X) {
  extern long later(long);
  return later(X) + 1;
}

#ifndef NO_LATER
__attribute__((noinline)) long later(long X) { return X * 7; }
#endif

int main(int Argc, char **Argv) {
  (void)Argv;
  double complex Z = mul(Argc + 1.5 * I, 2.0 - Argc * I);
  printf("%.3f %.3f\n", creal(Z), cimag(Z));
  printf("%ld %ld\n", adds(Argc, 41), calls_later(Argc + 2));
  return 0;
}
