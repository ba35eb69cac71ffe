// -fsanitize=function checks, before an indirect call, the type signature
// that precedes the target. The address of a listed function is its
// C-convention entry `<name>.cacs_c_entry`, which had no signature: the
// check was skipped, and a call through a pointer of the wrong type ran
// (printed 2) where stock clang traps. The entry now carries the function's
// signature (!func_sanitize): a call of the right type runs, one of the
// wrong type traps as without the list.
//
// RUN: %stock_clang -O0 %s -o %t.ref && %t.ref > %t.expected
// RUN: echo 'fun:f' > %t.list
// RUN: %clang -O2 -fsanitize=function -fsanitize-trap=function -fpreserve-none-list=%t.list %s -o %t.list2
// RUN: %t.list2 > %t.list2.out && diff %t.expected %t.list2.out
// RUN: not --crash %t.list2 wrong
// RUN: %clang -O0 -fsanitize=function -fsanitize-trap=function -fpreserve-none-list=%t.list %s -o %t.list0
// RUN: not --crash %t.list0 wrong
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fsanitize=function -fsanitize-trap=function -fpreserve-none-list=%t.list %s -o %t.a64 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t.a64 > %t.a64.out && diff %t.expected %t.a64.out %}
// RUN: %if qemu-aarch64 %{ not --crash %run_aarch64 %t.a64 wrong %}
#include <stdio.h>

__attribute__((noinline)) long f(long a) { return a + 1; }

typedef long (*right)(long);
typedef long (*wrong)(double);

int main(int argc, char **argv) {
  void *volatile p = (void *)f;
  if (argc > 1)
    printf("%ld\n", ((wrong)p)(1.5));
  else
    printf("%ld\n", ((right)p)(41));
  return 0;
}
