// C++ exceptions thrown by a preserve_none function propagate through two
// infected levels (one with a cleanup to run, one invoked from a try block in
// an infected function) and are caught above them; every frame keeps its
// values, at -O0 to -O3, with and without -fauto-preserve-none.
//
// RUN: %clangxx -O2 -fauto-preserve-none -Rpass=auto-preserve-none -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: made '{{.*}}5inner{{.*}}' preserve_none: it calls preserve_none '{{.*}}maybe_throw{{.*}}'
// REMARK-DAG: remark: made '{{.*}}6middle{{.*}}' preserve_none: it calls preserve_none '{{.*}}5inner{{.*}}'
// REMARK-DAG: remark: made '{{.*}}7catcher{{.*}}' preserve_none: it calls preserve_none '{{.*}}6middle{{.*}}'
//
// RUN: %clangxx -O0 %s -o %t.off0 && %t.off0 | FileCheck %s
// RUN: %clangxx -O2 %s -o %t.off2 && %t.off2 | FileCheck %s
// RUN: %clangxx -O0 -fauto-preserve-none %s -o %t.on0 && %t.on0 | FileCheck %s
// RUN: %clangxx -O1 -fauto-preserve-none %s -o %t.on1 && %t.on1 | FileCheck %s
// RUN: %clangxx -O2 -fauto-preserve-none %s -o %t.on2 && %t.on2 | FileCheck %s
// RUN: %clangxx -O3 -fauto-preserve-none %s -o %t.on3 && %t.on3 | FileCheck %s
// CHECK: caught 3 in catcher: 309
// CHECK-NEXT: result 0
// CHECK-NEXT: result 1660
// CHECK-NEXT: cleanups 3
// CHECK-NEXT: caught 2 in main: 7 4611
// CHECK-NEXT: done 7

#include <cstdio>

#include "Inputs/clobber.h"

#define NOINLINE __attribute__((noinline))

extern "C" {
volatile long apn_sink;
__attribute__((preserve_none, noinline)) void apn_switch(long v) {
  APN_CLOBBER_CALLEE_SAVED();
  apn_sink = v;
}
}

static int Cleanups = 0;

struct Cleanup {
  long V;
  ~Cleanup() { Cleanups += V != 0; }
};

/// Throws when asked to, after wiping the callee-saved registers.
__attribute__((preserve_none, noinline)) static void maybe_throw(long v) {
  apn_switch(v);
  if (v & 1)
    throw v;
}

namespace {

NOINLINE long inner(long a, long b, long c) {
  Cleanup g{a};
  long x = a * 3 + b, y = b * 5 + c;
  apn_switch(x);
  maybe_throw(c);
  return x + y + a + b + c;
}

NOINLINE long middle(long a, long b) {
  long p = a * 7, q = b * 11;
  long r = inner(p, q, a);
  apn_switch(r);
  return r + p * q;
}

NOINLINE long catcher(long a, long b) {
  long keep = a * 100 + b;
  try {
    return middle(a, b);
  } catch (long e) {
    std::printf("caught %ld in catcher: %ld\n", e, keep);
  }
  return 0;
}

} // namespace

volatile long input = 3;

int main() {
  long base = input * 1537, total = 0;
  for (long i = 0; i < 3; ++i) {
    long local = base + i - i;
    try {
      long r = i == 0 ? catcher(input, 9) : middle(input + 2 * i - 2 + i, 4);
      std::printf("result %ld\n", r);
      total += 2;
    } catch (long e) {
      std::printf("cleanups %d\n", Cleanups);
      std::printf("caught %ld in main: %ld %ld\n", i, e, local);
      total += 1;
    }
  }
  std::printf("done %ld\n", total + 2);
  return 0;
}
