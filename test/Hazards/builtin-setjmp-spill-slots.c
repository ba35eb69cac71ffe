// x86-64 __builtin_setjmp / __builtin_longjmp (SjLj: only the frame and
// stack pointers are saved) in a C function that then calls a preserve_none
// function, which longjmps from one level further down. The block
// __builtin_longjmp lands in reloads `s` and `s * 3` from their spill slots;
// no edge of the CFG leads there from the call, and a function that calls
// __builtin_setjmp is not marked as calling a returns_twice function (a libc
// setjmp is: test/AutoPreserveNone/setjmp.c), so StackSlotColoring gives
// those slots to the values the preserve_none call spills. Stock clang -O2
// (19 and 22) prints "top -3987 -4287" instead of "top -1139 -1239"; cacs
// on LLVM 22 did too (the base-pointer shield of LLVM 19 hid it there).
// cacs routes such calls through a shield (needsShield, SjLjSetjmp): across
// a C call the values stay in callee-saved registers, as in stock C code.
// AArch64 has no __builtin_setjmp.
//
// RUN: %stock_clang -O0 %s -o %t.ref && %t.ref > %t.expected
// RUN: for O in -O0 -O1 -O2 -O3 "-O2 -flto"; do \
// RUN:   %clang $O %s -o %t.prog && %t.prog > %t.out && diff %t.expected %t.out || exit 1; \
// RUN: done
// RUN: %clang -O2 -fauto-preserve-none %s -o %t.apn && %t.apn | FileCheck %s
// RUN: %clang -O2 -Rpass=preserve-none-safety -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// CHECK: top -1139 -1239
// REMARK: remark: a preserve_none call in 'top' goes through a shield (callee 'mid')
#include <stdio.h>

#define NI __attribute__((noinline))
static volatile long one = 1;
static void *buf[5];

NI __attribute__((preserve_none)) static long
deep(long a, long b, long c, long d, long e, long f, long g, long h, long i,
     long j, long k, long l) {
  if (a + l > 3)
    __builtin_longjmp(buf, 1);
  return a + b + c + d + e + f + g + h + i + j + k + l;
}

NI __attribute__((preserve_none)) static long mid(long s) {
  return deep(s, 2 * one, 3 * one, 4, 5, 6, 7, 8, 9, 10, 11, 12 * one) + 1;
}

NI static long top(long s) {
  volatile long keep = s * 7;
  long x = s * 13, y = s ^ 0x77, z = s + 1000;
  if (__builtin_setjmp(buf) == 0)
    return mid(s) + x + y + z;
  return -(keep + x + y + z);
}

int main(int argc, char **argv) {
  (void)argv;
  printf("top %ld %ld\n", top(argc), top(argc + 5));
  return 0;
}
