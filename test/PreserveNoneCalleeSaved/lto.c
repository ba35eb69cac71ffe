// Full LTO: the setting travels in the IR. The pre-link compile only records
// it ("cacs-preserve-none-callee-saved-none" on each definition); the link
// decides, after internalization, so the exported preserve_none function
// `worker` of a unit compiled with the setting saves nothing once every
// caller is known, although its caller comes from a unit compiled without.
// REQUIRES: llvm-22
// RUN: %clang -flto -O2 -DWORKER -fpreserve-none-callee-saved=none -S -emit-llvm %s -o - | FileCheck %s --check-prefix=PRELINK
// PRELINK: define {{.*}}preserve_nonecc i64 @worker(i64 {{.*}}) {{.*}}#[[W:[0-9]+]]
// PRELINK: attributes #[[W]] = { {{.*}}"cacs-preserve-none-callee-saved-none"
// PRELINK-NOT: no_callee_saved_registers
//
// RUN: %clang -flto -O2 -DWORKER -fpreserve-none-callee-saved=none -c %s -o %t.worker.o
// RUN: %clang -flto -O2 -DMAIN -c %s -o %t.main.o
// RUN: %clang -flto -O2 %t.worker.o %t.main.o -o %t.none
// RUN: llvm-objdump -d --no-show-raw-insn %t.none | FileCheck %s --check-prefix=NONE
// RUN: %clang -flto -O2 -DWORKER -c %s -o %t.worker.up.o
// RUN: %clang -flto -O2 %t.worker.up.o %t.main.o -o %t.up
// RUN: llvm-objdump -d --no-show-raw-insn %t.up | FileCheck %s --check-prefix=UPSTREAM
// RUN: %stock_clang -O0 %s -o %t.ref && %t.ref > %t.ref.out
// RUN: %t.none | diff %t.ref.out -
// RUN: %t.up | diff %t.ref.out -
//
// NONE-LABEL: <worker>:
// NONE-NOT:   push
// NONE:       %rbp
// NONE:       ret
// UPSTREAM-LABEL: <worker>:
// UPSTREAM-NEXT:  pushq %rbp

#include <stdio.h>

#if !defined(WORKER) && !defined(MAIN)
#define WORKER
#define MAIN
#endif

#define PN __attribute__((preserve_none))

#ifdef WORKER
volatile long g[16];
PN __attribute__((noinline)) long worker(long k) {
  long v[15];
  for (int I = 0; I < 15; ++I)
    v[I] = g[I] + k;
  for (int I = 0; I < 15; ++I)
    g[I] = v[I] * 3;
  long s = 0;
  for (int I = 0; I < 15; ++I)
    s += v[I] ^ I;
  return s;
}
#endif

#ifdef MAIN
extern volatile long g[16];
PN long worker(long k);

// A VLA gives this caller a frame pointer.
__attribute__((noinline)) static long fp_caller(long k, int n) {
  volatile long local[n];
  for (int I = 0; I < n; ++I)
    local[I] = k + I;
  long r = worker(k);
  return r + local[0] + local[n - 1];
}

int main(void) {
  for (int I = 0; I < 16; ++I)
    g[I] = I;
  for (long k = 0; k < 3; ++k)
    printf("%ld %ld\n", k, fp_caller(k, 3));
  return 0;
}
#endif
