// Found by difftest (csmith seeds 3002-3004, LLVM 22, aarch64, lto-2tu, and
// the same on LLVM 19): a function given preserve_none by a list and called
// from code compiled -O0 -flto was miscompiled at the -O2 LTO link on
// AArch64: FastISel, which runs for the optnone callers, passed the
// arguments in x0.. and the callee read x20.. (aarch64-optnone-caller.c has
// the stock reproducer). Also with an optnone caller at plain -O2. Fixed by
// f9b815e (preserve-none-safety shields those calls); this guards it.
// REQUIRES: qemu-aarch64
// RUN: printf 'fun:f\n' > %t.list
// RUN: %clang %aarch64_flags -O0 -flto -fpreserve-none-list=%t.list -c %s -o %t.o
// RUN: %clang %aarch64_flags -O2 -flto %t.o -o %t
// RUN: %run_aarch64 %t | FileCheck %s
// RUN: %clang %aarch64_flags -O2 -DOPTNONE_G -fpreserve-none-list=%t.list %s -o %t.o2
// RUN: %run_aarch64 %t.o2 | FileCheck %s
// CHECK: 123
#include <stdio.h>
#ifdef OPTNONE_G
#define OPTNONE __attribute__((optnone))
#else
#define OPTNONE
#endif
__attribute__((noinline)) static long f(long a, long b, long c) { return a * 100 + b * 10 + c; }
OPTNONE __attribute__((noinline)) long g(long x) { return f(x, x + 1, x + 2); }
int main(void) {
  printf("%ld\n", g(1));
  return 0;
}
