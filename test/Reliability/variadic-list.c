// A variadic function named by a preserve-none list (or reached by APN) must
// stay C: preserve_none varargs miscompile on x86-64. The list pass says so
// and leaves it; the program computes the right sum at -O0 and -O2, per TU
// and with full LTO.
// RUN: echo 'fun:vsum' > %t.list
// RUN: echo 'fun:leaf' >> %t.list
// RUN: %clang -O0 -fpreserve-none-list=%t.list -fauto-preserve-none %s -o %t0 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %t0 | FileCheck %s
// RUN: %clang -O2 -fpreserve-none-list=%t.list -fauto-preserve-none %s -o %t2 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %t2 | FileCheck %s
// RUN: %clang -O2 -flto -fpreserve-none-list=%t.list -fauto-preserve-none %s -o %t3 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %t3 | FileCheck %s
// RUN: %clang -O0 -S -emit-llvm -fpreserve-none-list=%t.list -fauto-preserve-none %s -o - 2>/dev/null | FileCheck %s --check-prefix=IR
// WARN: {{^}}{{.*}}.list:1:1: warning: function 'vsum' listed here cannot be preserve_none: it is variadic; left as is [-Wsource-mgr]{{$}}
// CHECK: 6 18
// IR-DAG: define internal preserve_nonecc i64 @leaf(
// IR-DAG: define internal i64 @vsum(i32 noundef %{{[0-9a-z]+}}, ...)
#include <stdarg.h>
#include <stdio.h>
__attribute__((noinline)) static long leaf(long x) { return x * 3; }
// It calls a preserve_none function, so APN would take it if it could.
__attribute__((noinline)) static long vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++)
    s += va_arg(ap, long);
  va_end(ap);
  return s + leaf(0);
}
int main(void) {
  printf("%ld %ld\n", vsum(3, 1L, 2L, 3L), leaf(vsum(2, 2L, 4L)));
  return 0;
}
