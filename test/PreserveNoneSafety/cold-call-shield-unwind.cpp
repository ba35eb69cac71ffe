// A rare preserve_none call that throws, from a hot loop whose values live
// across it: the invoke goes through a shield (shieldsColdCall), and the
// exception unwinds through the shield's frame, which restores the
// callee-saved registers the callee clobbers. The output must equal stock
// clang -O0's, on x86-64 and on AArch64 (qemu).
//
// RUN: %stock_clangxx -O0 %s -o %tref && %tref > %t.ref && FileCheck %s < %t.ref
// RUN: %clangxx -O2 -Rpass=preserve-none-safety %s -o %t2 2> %t2.remarks && timeout 120 %t2 | diff %t.ref -
// RUN: FileCheck %s --check-prefix=REMARK < %t2.remarks
// RUN: %clangxx -O2 -fauto-preserve-none %s -o %t3 && timeout 120 %t3 | diff %t.ref -
// RUN: %if qemu-aarch64 %{ %clangxx %aarch64_flags -O2 -Rpass=preserve-none-safety %s -o %ta 2> %ta.remarks && timeout 120 %run_aarch64 %ta | diff %t.ref - %}
// RUN: %if qemu-aarch64 %{ FileCheck %s --check-prefix=REMARK < %ta.remarks %}
//
// CHECK: caught 15 sum {{[0-9]+}}
// REMARK: remark: a preserve_none call in '_Z4workjRj' goes through a shield (callee '_Z4rarej'): the call is rare, and the hot path around it keeps its callee-saved registers

#include <cstdio>

#include "../AutoPreserveNone/Inputs/clobber.h"

__attribute__((preserve_none, noinline)) void rare(unsigned i) {
  APN_CLOBBER_CALLEE_SAVED();
  if (i % 3 == 2)
    throw static_cast<int>(i);
}

__attribute__((noinline)) unsigned long work(unsigned n, unsigned &caught) {
  unsigned long a = 1, b = 2, c = 3, d = 4, e = 5;
  for (unsigned i = 0; i < n; ++i) {
    a = a * 3 + i;
    b ^= a >> 3;
    c += b * 7;
    d = d * 5 + c;
    e += d ^ a;
    if (__builtin_expect(i % 1000 == 999, 0)) {
      try {
        rare(i / 1000);
      } catch (int x) {
        caught += 1;
        e += static_cast<unsigned long>(x);
      }
    }
  }
  return a + b + c + d + e;
}

int main() {
  unsigned caught = 0;
  unsigned long sum = work(45000, caught);
  std::printf("caught %u sum %lu\n", caught, sum);
  return 0;
}
