// Lazy PLT binding: glibc's resolver (_dl_runtime_resolve) preserves the C
// argument registers but uses r11 (x86-64), x9-x15, x16 and x17 (AArch64),
// which carry the 11th, and the 18th to 24th, integer arguments of
// preserve_none. The first call of such a function in a shared library,
// made through a lazily bound PLT entry, received garbage (defect 2 of
// issue 11); later calls, and LD_BIND_NOW=1, were right. cacs now binds
// such calls at load time (nonlazybind: a call through the GOT). The
// program is run without LD_BIND_NOW; its output must be stock clang -O0's
// without the attribute.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O0 %S/Inputs/lazy-plt-lib.c %s -o %t/ref && env -u LD_BIND_NOW %t/ref > %t/expected
// RUN: echo 'fun:weighted' > %t/list
// Attribute:
// RUN: %clang -O2 -fPIC -shared -DATTR %S/Inputs/lazy-plt-lib.c -o %t/libattr.so
// RUN: %clang -O2 -DATTR %s -L%t -lattr -Wl,-rpath,%t -o %t/attr
// RUN: env -u LD_BIND_NOW %t/attr > %t/attr.out && diff %t/expected %t/attr.out
// List, -O0:
// RUN: %clang -O0 -fPIC -shared -fpreserve-none-list=%t/list -Wno-backend-plugin %S/Inputs/lazy-plt-lib.c -o %t/liblist.so
// RUN: %clang -O0 -fpreserve-none-list=%t/list %s -L%t -llist -Wl,-rpath,%t -o %t/list0
// RUN: env -u LD_BIND_NOW %t/list0 > %t/list0.out && diff %t/expected %t/list0.out
// AArch64 under qemu (the aarch64 sysroot's glibc):
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fPIC -shared -DATTR %S/Inputs/lazy-plt-lib.c -o %t/liba64.so %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -DATTR %s -L%t -la64 -Wl,-rpath,%t -o %t/a64 %}
// RUN: %if qemu-aarch64 %{ env -u LD_BIND_NOW %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected %t/a64.out %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O0 -fPIC -shared -fpreserve-none-list=%t/list -Wno-backend-plugin %S/Inputs/lazy-plt-lib.c -o %t/liba64list.so %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O0 -fpreserve-none-list=%t/list %s -L%t -la64list -Wl,-rpath,%t -o %t/a64list %}
// RUN: %if qemu-aarch64 %{ env -u LD_BIND_NOW %run_aarch64 %t/a64list > %t/a64list.out && diff %t/expected %t/a64list.out %}
#include <stdio.h>

#ifdef ATTR
#define PN __attribute__((preserve_none))
#else
#define PN
#endif
PN long weighted(long, long, long, long, long, long, long, long, long, long,
                 long, long, long, long, long, long, long, long, long, long,
                 long, long, long, long);

volatile long seed = 1;

int main(void) {
  for (int i = 0; i < 2; ++i) { // The first call is the one bound lazily.
    long b = seed + i;
    printf("%ld\n", weighted(b, b + 1, b + 2, b + 3, b + 4, b + 5, b + 6, b + 7,
                             b + 8, b + 9, b + 10, b + 11, b + 12, b + 13,
                             b + 14, b + 15, b + 16, b + 17, b + 18, b + 19,
                             b + 20, b + 21, b + 22, b + 23));
  }
  return 0;
}
