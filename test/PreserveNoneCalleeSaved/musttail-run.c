// [[clang::musttail]] (or __attribute__((musttail))) between preserve_none
// functions is a jump: ten million calls in a row run in constant stack
// (without the jump they would need hundreds of MiB of stack and crash).
// Direct and indirect calls, integer and floating-point arguments, 11
// integer arguments through a pointer (the most x86-64 allows, see
// musttail-limit.c), with APN and, on LLVM 22, the empty callee-saved list.
// The reference output is stock clang -O0's.
// RUN: %stock_clang -O0 %s -o %t.ref && %t.ref > %t.ref.out
// RUN: %clang -O0 %s -o %t0 && %t0 | diff %t.ref.out -
// RUN: %clang -O1 %s -o %t1 && %t1 | diff %t.ref.out -
// RUN: %clang -O2 %s -o %t2 && %t2 | diff %t.ref.out -
// RUN: %clang -O3 -fauto-preserve-none %s -o %t3 && %t3 | diff %t.ref.out -
// RUN: %if llvm-22 %{ %clang -O2 -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t4 && %t4 | diff %t.ref.out - %}
// RUN: %if llvm-22 %{ %clang -O0 -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t5 && %t5 | diff %t.ref.out - %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 %s -o %t.a64 && %run_aarch64 %t.a64 | diff %t.ref.out - %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O1 %s -o %t.a64.1 && %run_aarch64 %t.a64.1 | diff %t.ref.out - %}

#include <stdio.h>

#define PN __attribute__((preserve_none))
#define STEPS 10000000L

// Direct: two functions calling each other.
PN static long ping(long n, long acc);
PN __attribute__((noinline)) static long pong(long n, long acc) {
  if (n == 0)
    return acc;
  __attribute__((musttail)) return ping(n - 1, acc + 3);
}
PN __attribute__((noinline)) static long ping(long n, long acc) {
  if (n == 0)
    return acc;
  [[clang::musttail]] return pong(n - 1, acc ^ n);
}

// Indirect, 11 integer arguments (the target pointer among them) and a
// double.
typedef PN long (*step_fn)(void *self, long n, long a, long b, long c, long d,
                           long e, long f, long g, long h, long i, double x);
PN long step_even(void *self, long n, long a, long b, long c, long d, long e,
                  long f, long g, long h, long i, double x);
PN __attribute__((noinline)) long step_odd(void *self, long n, long a, long b,
                                           long c, long d, long e, long f,
                                           long g, long h, long i, double x) {
  if (n == 0)
    return a + b + c + d + e + f + g + h + i + (long)x;
  step_fn next = (step_fn)step_even;
  [[clang::musttail]] return next((void *)next, n - 1, b, c, d, e, f, g, h, i,
                                  a + 1, x + 0.5);
}
PN __attribute__((noinline)) long step_even(void *self, long n, long a, long b,
                                            long c, long d, long e, long f,
                                            long g, long h, long i, double x) {
  if (n == 0)
    return a + b + c + d + e + f + g + h + i + (long)x;
  step_fn next = (step_fn)step_odd;
  [[clang::musttail]] return next((void *)next, n - 1, i, a, b, c, d, e, f, g,
                                  h + 2, x * 1.0);
}

step_fn volatile first = step_even;

int main(void) {
  printf("direct %ld\n", ping(STEPS, 1));
  printf("indirect %ld\n",
         first((void *)first, STEPS, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0.25));
  return 0;
}
