// A glob that also matches C library functions: `fun:str*` (meant for this
// program's str_step) matches strlen, strchr, strtol, strcmp, which
// <string.h> and <stdlib.h> declare. Functions declared in system headers
// never match a glob, so their calls stay C calls and the program prints
// what stock clang prints (before, they were called as preserve_none and
// read garbage: issue 21, defect 1). The function the entry is meant for
// still takes the convention.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:str*' > %t/list
// RUN: %stock_clang -O0 %s -o %t/ref && %t/ref > %t/expected
// RUN: for O in -O0 -O2; do \
// RUN:   %clang $O -fpreserve-none-list=%t/list %s -o %t/prog && \
// RUN:   %t/prog > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ for O in -O0 -O2; do \
// RUN:   %clang %aarch64_flags $O -fpreserve-none-list=%t/list %s -o %t/a64 && \
// RUN:   %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected %t/a64.out || exit 1; \
// RUN: done %}
// RUN: %clang -O1 -S -emit-llvm -fpreserve-none-list=%t/list %s -o - | FileCheck %s
// CHECK: define {{.*}}preserve_nonecc void @str_step.{{.*}}(
// CHECK-NOT: preserve_nonecc {{.*}}@strlen
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int steps;
__attribute__((noinline)) void str_step(void) { steps++; }

int main(int argc, char **argv) {
  const char *s = argc > 5 ? argv[1] : "coroutines 42";
  char buf[64];
  size_t n = strlen(s);
  strcpy(buf, s);
  long v = strtol(s + 11, 0, 10);
  const char *sp = strchr(s, ' ');
  str_step();
  printf("strlen %zu, strtol %ld, strchr %td, strcmp %d, steps %d\n", n, v,
         sp - s, strcmp(buf, s), steps);
  return 0;
}
