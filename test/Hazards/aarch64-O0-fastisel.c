// AArch64 at -O0 with -fno-global-isel (or on a GlobalISel fallback):
// FastISel lowers every function, and passes the arguments of a
// preserve_none call in the AAPCS registers (x0, x1, ...) where the callee
// reads x20, x21, ... (LLVM 19 and 22). At -O0 every function is optnone, so
// the safety pass routes each preserve_none call through a shield; the shield
// is lowered by FastISel too, and its own call was wrong until it was marked
// `tail`, which FastISel leaves to SelectionDAG (defect 4 of issue 11).
// The output must be stock clang -O0's without the attribute.
// REQUIRES: qemu-aarch64
// RUN: %stock_clang -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang %aarch64_flags -O0 -fno-global-isel %s -o %t.attr
// RUN: %run_aarch64 %t.attr > %t.attr.out && diff %t.expected %t.attr.out
// RUN: echo 'fun:listed' > %t.list
// RUN: %clang %aarch64_flags -O0 -fno-global-isel -fpreserve-none-list=%t.list -DNO_ATTR %s -o %t.list.exe
// RUN: %run_aarch64 %t.list.exe > %t.list.out && diff %t.expected %t.list.out
// RUN: %clang %aarch64_flags -O2 -DOPTNONE_CALLER %s -o %t.optnone
// RUN: %run_aarch64 %t.optnone > %t.optnone.out && diff %t.expected %t.optnone.out
#include <stdio.h>

#if defined(REFERENCE) || defined(NO_ATTR)
#define PN
#else
#define PN __attribute__((preserve_none))
#endif
#ifdef OPTNONE_CALLER
#define CALLER __attribute__((optnone, noinline))
#else
#define CALLER __attribute__((noinline))
#endif

PN __attribute__((noinline)) long listed(long a, long b, long c, long d) {
  return a * 1000 + b * 100 + c * 10 + d;
}

CALLER long caller(long x) { return listed(x, x + 1, x + 2, x + 3); }

int main(void) {
  printf("%ld %ld\n", caller(1), caller(5));
  return 0;
}
