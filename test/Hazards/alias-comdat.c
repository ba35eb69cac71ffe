// An alias of a listed function whose address is taken: the alias was
// repointed at the C-entry thunk, which is linkonce_odr in a comdat, and
// the linker may keep another unit's copy of that comdat and discard this
// one: lld "relocation refers to a symbol in a discarded section", bfd an
// undefined reference, depending on the link order (defect 5 of issue 11).
// An alias now gets a C-convention entry of its own, outside any comdat;
// an alias the list names too (so that other units call it as
// preserve_none) stays the body, and its calls here become preserve_none.
// The output must be stock clang -O0's without the list.
//
// RUN: rm -rf %t && mkdir %t && echo 'fun:listed' > %t/list
// RUN: %stock_clang -O0 %s %S/Inputs/alias-other.c -o %t/ref && %t/ref > %t/expected
// RUN: %clang -O2 -fpreserve-none-list=%t/list -Wno-backend-plugin -c %s -o %t/main.o
// RUN: %clang -O2 -fpreserve-none-list=%t/list -Wno-backend-plugin -c %S/Inputs/alias-other.c -o %t/other.o
// RUN: %clang -fuse-ld=lld %t/main.o %t/other.o -o %t/lld1 && %t/lld1 > %t/lld1.out && diff %t/expected %t/lld1.out
// RUN: %clang -fuse-ld=lld %t/other.o %t/main.o -o %t/lld2 && %t/lld2 > %t/lld2.out && diff %t/expected %t/lld2.out
// RUN: %clang -fuse-ld=bfd %t/main.o %t/other.o -o %t/bfd1 && %t/bfd1 > %t/bfd1.out && diff %t/expected %t/bfd1.out
// RUN: %clang -fuse-ld=bfd %t/other.o %t/main.o -o %t/bfd2 && %t/bfd2 > %t/bfd2.out && diff %t/expected %t/bfd2.out
// The alias listed too:
// RUN: printf 'fun:listed\nfun:alias_of_listed\n' > %t/list2
// RUN: %clang -O2 -fpreserve-none-list=%t/list2 -Wno-backend-plugin -c %s -o %t/main2.o
// RUN: %clang -O2 -fpreserve-none-list=%t/list2 -Wno-backend-plugin -c %S/Inputs/alias-other.c -o %t/other2.o
// RUN: %clang -fuse-ld=lld %t/main2.o %t/other2.o -o %t/lld3 && %t/lld3 > %t/lld3.out && diff %t/expected %t/lld3.out
// RUN: %clang -fuse-ld=lld %t/other2.o %t/main2.o -o %t/lld4 && %t/lld4 > %t/lld4.out && diff %t/expected %t/lld4.out
// RUN: %clang -fuse-ld=bfd %t/other2.o %t/main2.o -o %t/bfd4 && %t/bfd4 > %t/bfd4.out && diff %t/expected %t/bfd4.out
#include <stdio.h>

long listed(long x) { return x * 3 + 1; }
long alias_of_listed(long x) __attribute__((alias("listed")));
long call_alias(long x);

long (*volatile main_ptr)(long) = listed;

int main(void) {
  printf("%ld %ld %ld\n", main_ptr(2), alias_of_listed(3), call_alias(4));
  return 0;
}
