// Callers survive a preserve_none callee that trashes rbp and rbx, as a
// callee with the empty callee-saved list may, under
// -fpreserve-none-callee-saved=none (x86-64, LLVM 22): frame-pointer
// callers with direct and indirect calls, an over-aligned local with a VLA
// (frame and base pointer) in a caller and in an empty-list callee, a real
// empty-list callee under register pressure, and calls that pass arguments
// on the stack (which keep upstream's mask: LLVM 22 would store them over
// the rbp it saved).
// The reference output comes from stock clang -O0 with a harmless callee.
// REQUIRES: llvm-22
// RUN: %stock_clang -O0 -DHARMLESS %s -o %t.ref && %t.ref > %t.ref.out
// RUN: %clang -O0 -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t0 && %t0 | diff %t.ref.out -
// RUN: %clang -O1 -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t1 && %t1 | diff %t.ref.out -
// RUN: %clang -O2 -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t2 && %t2 | diff %t.ref.out -
// RUN: %clang -O3 -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t3 && %t3 | diff %t.ref.out -
// RUN: %clang -O2 -fno-omit-frame-pointer -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t4 && %t4 | diff %t.ref.out -
// RUN: %clang -O2 -fauto-preserve-none -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t5 && %t5 | diff %t.ref.out -
//
// The test can fail: with upstream's list the callers keep their frame in
// rbp across the call, and the trashing callee breaks them.
// RUN: %clang -O0 %s -o %t.up && { %t.up > %t.up.out 2>&1 || true; }
// RUN: not diff %t.ref.out %t.up.out

#include <stdio.h>
#include <string.h>

// What a callee with the empty list may do to rbp and rbx.
#ifdef HARMLESS
__attribute__((noinline)) static void trash(void) { __asm__ volatile(""); }
#define PN
#else
#define PN __attribute__((preserve_none))
PN __attribute__((naked, noinline)) static void trash(void) {
  __asm__("movq $0x10, %rbp\n\t"
          "movq $0x10, %rbx\n\t"
          "retq");
}
#endif

PN void (*volatile trash_ptr)(void) = trash;

__attribute__((noinline)) static long direct(long x) {
  volatile long locals[4] = {x, x + 1, x + 2, x + 3};
  trash();
  return locals[0] + locals[1] + locals[2] + locals[3];
}

__attribute__((noinline)) static long indirect(long x) {
  volatile long locals[4] = {x, x * 2, x * 3, x * 4};
  trash_ptr();
  return locals[0] + locals[1] + locals[2] + locals[3];
}

__attribute__((noinline)) static long aligned_vla(int n) {
  _Alignas(64) volatile char aligned[64];
  volatile long vla[n];
  for (int I = 0; I < n; ++I)
    vla[I] = I;
  memset((char *)aligned, 7, sizeof aligned);
  trash();
  trash_ptr();
  long Sum = 0;
  for (int I = 0; I < n; ++I)
    Sum += vla[I];
  return Sum * 1000 + aligned[63] + (long)((unsigned long)aligned % 64);
}

// A real callee that may get the empty list: enough values live at once
// that it allocates rbp when it may.
volatile long g[16];
PN __attribute__((noinline)) static long pressure(long k) {
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

__attribute__((noinline)) static long calls_pressure(long x) {
  volatile long local = x;
  long r = pressure(x);
  return r + local;
}

// An empty-list callee that realigns its stack and has a VLA (frame and
// base pointer of its own).
PN __attribute__((noinline)) static long realigned_callee(int n) {
  _Alignas(64) volatile char aligned[64];
  volatile long vla[n];
  for (int I = 0; I < n; ++I)
    vla[I] = I * 3;
  memset((char *)aligned, 3, sizeof aligned);
  trash();
  long Sum = 0;
  for (int I = 0; I < n; ++I)
    Sum += vla[I];
  return Sum + aligned[5] + (long)((unsigned long)aligned % 64);
}

__attribute__((noinline)) static long calls_realigned(int n) {
  volatile long local = n;
  long r = realigned_callee(n);
  return r * 10 + local;
}

// Arguments on the stack: 13 integers, 10 doubles.
PN __attribute__((noinline)) static long sum13(long a, long b, long c, long d,
                                              long e, long f, long h, long i,
                                              long j, long k, long l, long m,
                                              long n) {
  return a + b + c + d + e + f + h + i + j + k + l + m + n;
}

PN __attribute__((noinline)) static double sum10(double a, double b, double c,
                                                 double d, double e, double f,
                                                 double h, double i, double j,
                                                 double k) {
  return a + b + c + d + e + f + h + i + j + k;
}

// Arguments the optimizer cannot fold into the callees.
volatile long vi[13] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
volatile double vd[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

__attribute__((noinline)) static long stack_args(long x) {
  volatile long local = x;
  long s = sum13(vi[0], vi[1], vi[2], vi[3], vi[4], vi[5], vi[6], vi[7],
                 vi[8], vi[9], vi[10], vi[11], vi[12] + x);
  double d = sum10(vd[0], vd[1], vd[2], vd[3], vd[4], vd[5], vd[6], vd[7],
                   vd[8], vd[9] + x);
  return s + (long)d + local;
}

int main(void) {
  for (int I = 0; I < 16; ++I)
    g[I] = I * I;
  printf("direct %ld\n", direct(10));
  printf("indirect %ld\n", indirect(10));
  printf("aligned_vla %ld\n", aligned_vla(100));
  printf("pressure %ld\n", calls_pressure(5));
  printf("realigned %ld\n", calls_realigned(20));
  printf("stack_args %ld\n", stack_args(100));
  return 0;
}
