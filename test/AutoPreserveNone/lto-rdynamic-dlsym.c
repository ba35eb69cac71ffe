// Full LTO with APN and -rdynamic: exported_fn calls a preserve_none
// function and nothing in the program calls it, but the executable exports
// it, and a plugin loaded with dlopen finds it with dlsym and calls it with
// the C convention. The LTO link must not internalize it, so APN leaves it
// C. The output must be stock clang -O0's.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %stock_clang -O2 -fPIC -shared %S/Inputs/dlsym-plugin.c -o %t/plugin.so
// RUN: %stock_clang -O0 -DREFERENCE -rdynamic %s -o %t/ref -ldl && %t/ref %t/plugin.so > %t/expected
// RUN: %clang -O2 -flto -fauto-preserve-none -rdynamic %s -o %t/lto -ldl -Rpass=auto-preserve-none 2>&1 | FileCheck %s --allow-empty --implicit-check-not="'exported_fn'"
// RUN: %t/lto %t/plugin.so > %t/lto.out && diff %t/expected %t/lto.out
// RUN: %clang -O2 -flto=thin -fauto-preserve-none -rdynamic %s -o %t/thin -ldl
// RUN: %t/thin %t/plugin.so > %t/thin.out && diff %t/expected %t/thin.out
#include <dlfcn.h>
#include <stdio.h>

#ifndef REFERENCE
__attribute__((preserve_none))
#endif
__attribute__((noinline)) void
seed(void) {
  __asm__ volatile("");
}

__attribute__((noinline)) long exported_fn(long a1, long a2, long a3, long a4,
                                           long a5, long a6, long a7, long a8,
                                           long a9, long a10, long a11) {
  seed();
  return a1 + 2 * a2 + 3 * a3 + 4 * a4 + 5 * a5 + 6 * a6 + 7 * a7 + 8 * a8 +
         9 * a9 + 10 * a10 + 11 * a11;
}

int main(int argc, char **argv) {
  void *h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : 0;
  long (*run)(long) = h ? (long (*)(long))dlsym(h, "plugin_run") : 0;
  if (!run) {
    printf("no plugin\n");
    return 1;
  }
  for (long I = 0; I < 3; ++I)
    printf("%ld\n", run(I * 7));
  return 0;
}
