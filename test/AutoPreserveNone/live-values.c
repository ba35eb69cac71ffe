// Infected functions keep integer and floating-point values live across
// calls (into a preserve_none function that wipes every C callee-saved
// register, and into each other), at -O0 to -O3, and print the same with and
// without -fauto-preserve-none. The remarks show the chain was infected.
//
// RUN: %clang -O1 -fauto-preserve-none -Rpass=auto-preserve-none -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// RUN: %clang -O1 -fauto-preserve-none -Rpass-missed=auto-preserve-none -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=MISSED
// RUN: %clang -O1 -Rpass=auto-preserve-none -Rpass-missed=auto-preserve-none -c %s -o /dev/null 2>&1 \
// RUN:   | count 0
// RUN: %clang -O0 -fauto-preserve-none -Rpass=auto-preserve-none -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: made 'level1' preserve_none
// REMARK-DAG: remark: made 'fplevel' preserve_none
// REMARK-DAG: remark: made 'level2' preserve_none
// REMARK-DAG: remark: made 'level3' preserve_none
// MISSED: live-values.c:{{[0-9]+}}:1: remark: 'main' calls preserve_none 'level3' but is not made preserve_none: it is visible outside the module, where callers keep the C convention [-Rpass-missed=auto-preserve-none]
//
// RUN: %clang -O0 %s -o %t.off0 && %t.off0 | FileCheck %s
// RUN: %clang -O2 %s -o %t.off2 && %t.off2 | FileCheck %s
// RUN: %clang -O0 -fauto-preserve-none %s -o %t.on0 && %t.on0 | FileCheck %s
// RUN: %clang -O1 -fauto-preserve-none %s -o %t.on1 && %t.on1 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none %s -o %t.on2 && %t.on2 | FileCheck %s
// RUN: %clang -O3 -fauto-preserve-none %s -o %t.on3 && %t.on3 | FileCheck %s
// CHECK: ints 135034400
// CHECK: fp 57579.1406
// CHECK: done

#include <stdio.h>

#define APN_DEFINE_SWITCH
#include "Inputs/clobber.h"

#define NOINLINE __attribute__((noinline))

static NOINLINE long level1(long a, long b, long c, long d) {
  long e = a * 3 + b, f = b * 5 + c, g = c * 7 + d, h = d * 11 + a;
  apn_switch(a);
  long r = a + 2 * b + 3 * c + 5 * d + 7 * e + 11 * f + 13 * g + 17 * h;
  apn_switch(r);
  return r ^ (a + b + c + d + e + f + g + h);
}

static NOINLINE double fplevel(double x, double y, long n) {
  double s = x * 0.5, t = y * 0.25, u = x + y;
  apn_switch(n);
  double v = s + t + u;
  apn_switch(n + 1);
  return v + s * t - u + (double)n;
}

static NOINLINE long level2(long a, long b, long c) {
  long x = level1(a, b, c, a + b);
  long y = level1(b, c, a, x & 0xffff);
  apn_switch(x);
  return x + y * 3 + a * b + c;
}

static NOINLINE long level3(long a, long b) {
  long p = a * 7, q = b * 9, r = a ^ b;
  long s = level2(p, q, r);
  long t = level2(q, r, p);
  return s + t + p + q + r;
}

volatile long input_a = 12, input_b = 34;
volatile double input_x = 100.25, input_y = 4500.5;

int main(void) {
  long a = input_a, b = input_b;
  long sum = 0;
  for (int i = 0; i < 3; ++i)
    sum += level3(a + i, b - i);
  printf("ints %ld\n", sum);
  printf("fp %.4f\n", fplevel(input_x, input_y, 7));
  printf("done\n");
  return 0;
}
