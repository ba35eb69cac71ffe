// Hidden functions (-fvisibility=hidden) that call a preserve_none function,
// so APN would infect them once full LTO internalizes them, but that code
// cacs does not compile calls with the C convention: escaped's address goes
// to a shared library built by stock clang, which calls it through a C
// pointer; by_name is called by name from an ordinary object built by stock
// clang and linked into the same executable. Neither may take the
// convention ("no outside code can call it" is false for both). 11 integer
// arguments: infected, they would read the 11th from r11 (x28 on AArch64)
// and the first from r12 (x20). The output must be stock clang -O0's, per
// unit and under -flto, on both targets.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O0 -fPIC -shared %S/Inputs/hidden-stock-lib.c -o %t/libhs.so
// RUN: %stock_clang -O0 -c %S/Inputs/hidden-stock-obj.c -o %t/obj.o
// RUN: %stock_clang -O0 -DREFERENCE %s %t/obj.o %t/libhs.so -Wl,-rpath,%t -o %t/ref
// RUN: %t/ref > %t/expected
// RUN: %stock_clang -O2 -c %S/Inputs/hidden-stock-obj.c -o %t/obj2.o
// RUN: for F in "-O0" "-O2" "-O2 -flto" "-O3 -flto" "-O2 -flto=thin"; do \
// RUN:   %clang $F -fvisibility=hidden -fauto-preserve-none %s %t/obj2.o %t/libhs.so -Wl,-rpath,%t -o %t/prog && \
// RUN:   %t/prog > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ \
// RUN:   %stock_clang %aarch64_flags -O0 -fPIC -shared %S/Inputs/hidden-stock-lib.c -o %t/libhs-a64.so && \
// RUN:   %stock_clang %aarch64_flags -O2 -c %S/Inputs/hidden-stock-obj.c -o %t/obj2-a64.o && \
// RUN:   for F in "-O0" "-O2" "-O2 -flto" "-O3 -flto" "-O2 -flto=thin"; do \
// RUN:     %clang %aarch64_flags $F -fvisibility=hidden -fauto-preserve-none %s %t/obj2-a64.o %t/libhs-a64.so -Wl,-rpath,%t -o %t/prog-a64 && \
// RUN:     %run_aarch64 %t/prog-a64 > %t/out-a64 && diff %t/expected %t/out-a64 || exit 1; \
// RUN:   done %}
#include <stdio.h>

long lib_apply(long (*)(long, long, long, long, long, long, long, long, long,
                        long, long),
               long);
long obj_call(long);

#ifndef REFERENCE
__attribute__((preserve_none))
#endif
__attribute__((noinline)) void
seed(long *p) {
  *p ^= 0x5a;
}

__attribute__((noinline)) long escaped(long a1, long a2, long a3, long a4,
                                       long a5, long a6, long a7, long a8,
                                       long a9, long a10, long a11) {
  long s = a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 +
           8 * a8 + 9 * a9 + 10 * a10 + 11 * a11;
  seed(&s);
  return s;
}

__attribute__((noinline)) long by_name(long a1, long a2, long a3, long a4,
                                       long a5, long a6, long a7, long a8,
                                       long a9, long a10, long a11) {
  long s = a1 * a11 + a2 * a10 + a3 * a9 + a4 * a8 + a5 * a7 + a6;
  seed(&s);
  return s;
}

int main(void) {
  for (long I = 0; I < 3; ++I)
    printf("%ld %ld %ld\n", lib_apply(escaped, I * 7),
           escaped(I, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10), obj_call(I + 3));
  return 0;
}
