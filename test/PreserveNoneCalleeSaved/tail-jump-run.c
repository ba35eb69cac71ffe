// A preserve_none function that keeps rbp (exported) and ends in a call
// becomes a jump: sibling-call eligibility compares conventions, not masks.
// Its callee must then keep rbp too, or rbp would reach the exported
// function's callers clobbered. A C caller never jumps to a preserve_none
// callee (the masks of the conventions differ), so pressure_c may save
// nothing. Switch returns are off in the assembly check: c_tail calls a
// preserve_none function, so its return would be a jump to the return thunk.
// REQUIRES: llvm-22
// RUN: %clang -O2 -S -fpreserve-none-callee-saved=none -fno-switch-returns \
// RUN:   -Rpass=preserve-none-callee-saved -Rpass-missed=preserve-none-callee-saved %s -o %t.s 2> %t.why
// RUN: FileCheck %s --input-file %t.s
// RUN: FileCheck %s --input-file %t.why --check-prefix=WHY
// WHY-DAG: remark: 'pressure' keeps rbp callee-saved: a caller that keeps rbp may jump to it
// WHY-DAG: remark: 'pressure_c' saves no register
// CHECK-LABEL: exported_tail:
// CHECK:       jmp pressure
// CHECK-LABEL: c_tail:
// CHECK:       callq pressure_c
// CHECK-NOT:   jmp
// CHECK:       retq
//
// The caller of exported_tail is compiled without the setting, in another
// translation unit, and expects rbp preserved:
// RUN: %stock_clang -O0 %s -o %t.ref && %t.ref > %t.ref.out
// RUN: %clang -O2 -DCALLEES -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs -c %s -o %t.callees2.o
// RUN: %clang -O2 -DCALLERS -c %s -o %t.callers2.o
// RUN: %clang %t.callees2.o %t.callers2.o -o %t2 && %t2 | diff %t.ref.out -
// RUN: %clang -O3 -DCALLEES -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs -c %s -o %t.callees3.o
// RUN: %clang -O3 -DCALLERS -c %s -o %t.callers3.o
// RUN: %clang %t.callees3.o %t.callers3.o -o %t3 && %t3 | diff %t.ref.out -

#include <stdio.h>

#define PN __attribute__((preserve_none))

#if !defined(CALLERS) && !defined(CALLEES)
#define CALLERS
#define CALLEES
#endif

#ifdef CALLEES
volatile long g[16];

#define PRESSURE_BODY                                                          \
  long v[15];                                                                  \
  for (int I = 0; I < 15; ++I)                                                 \
    v[I] = g[I] + k;                                                           \
  for (int I = 0; I < 15; ++I)                                                 \
    g[I] = v[I] * 3;                                                           \
  long s = 0;                                                                  \
  for (int I = 0; I < 15; ++I)                                                 \
    s += v[I] ^ I;                                                             \
  return s;

PN __attribute__((noinline)) static long pressure(long k) { PRESSURE_BODY }
PN __attribute__((noinline)) static long pressure_c(long k) { PRESSURE_BODY }

PN __attribute__((noinline)) long exported_tail(long k) { return pressure(k); }
__attribute__((noinline)) long c_tail(long k) { return pressure_c(k); }
#endif

#ifdef CALLERS
extern volatile long g[16];
PN long exported_tail(long k);
long c_tail(long k);

// A VLA gives this caller a frame pointer at any -O; pressure has none.
__attribute__((noinline)) static long fp_caller(long k, int n) {
  volatile long local[n];
  for (int I = 0; I < n; ++I)
    local[I] = k + I;
  long r = exported_tail(k) + c_tail(k);
  return r + local[0] + local[1] + local[2];
}

int main(void) {
  for (int I = 0; I < 16; ++I)
    g[I] = I;
  for (long k = 0; k < 3; ++k)
    printf("%ld %ld\n", k, fp_caller(k, 3));
  return 0;
}
#endif
