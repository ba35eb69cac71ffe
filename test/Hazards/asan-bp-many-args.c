// A function with locals, under -fsanitize=address (a realigned frame
// addressed through the base pointer rbx), calls a listed preserve_none
// function with 14 arguments. LLVM 19 and 22: the call goes through a shield
// and the program runs. LLVM 22 without it: the backend, which saves the base
// pointer around a call that clobbers it, stopped with "error: Interference
// usage of base pointer/frame pointer." (a backend error reachable from a
// flag; found building SQLite with the internal list and ASan, difftest
// --real sqlite, cacs-asan; the shield for calls with stack arguments from a
// base-pointer frame fixes it). The program must build and print what stock
// clang -O0 prints.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:callee' > %t/list
// RUN: %stock_clang -O0 %s -o %t/ref && %t/ref > %t/expected
// RUN: %clang -O2 -fsanitize=address -fpreserve-none-list=%t/list %s -o %t/asan
// RUN: %t/asan > %t/asan.out && diff %t/expected %t/asan.out
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) long callee(long a, long b, long c, long d, long e,
                                      long f, long g, long h, long i, long j,
                                      long k, long l, long m, long n) {
  return a + b + c + d + e + f + g + h + i + j + k + l + m + n;
}

__attribute__((noinline)) void fill(char *p, int n) { memset(p, 'a', n); }

__attribute__((noinline)) long caller(long x) {
  char buf[40];
  fill(buf, sizeof buf);
  long r = callee(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8,
                  x + 9, x + 10, x + 11, x + 12, x + 13);
  buf[39] = 0;
  return r + (long)strlen(buf);
}

int main(void) {
  printf("%ld\n", caller(1));
  return 0;
}
