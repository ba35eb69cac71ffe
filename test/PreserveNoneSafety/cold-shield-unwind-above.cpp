// An exception thrown by a rare preserve_none callee unwinds through the
// cold shield of a caller that has no handler (a plain call, not an
// invoke: the shield must not be nounwind, and its unwind information must
// restore the callee-saved registers it saved) into a handler two frames
// up, whose own values live in callee-saved registers across the call.
// The output must equal stock clang -O0's, on x86-64 and AArch64 (qemu).
//
// RUN: %stock_clangxx -O0 %s -o %tref && %tref > %t.ref && FileCheck %s < %t.ref
// RUN: %clangxx -O2 -Rpass=preserve-none-safety %s -o %t2 2> %t2.remarks && timeout 120 %t2 | diff %t.ref -
// RUN: FileCheck %s --check-prefix=REMARK < %t2.remarks
// RUN: %clangxx -O2 -fPIC -fauto-preserve-none %s -o %t3 && timeout 120 %t3 | diff %t.ref -
// RUN: %clangxx -O2 -flto %s -o %t4 && timeout 120 %t4 | diff %t.ref -
// RUN: %if qemu-aarch64 %{ %clangxx %aarch64_flags -O2 -Rpass=preserve-none-safety %s -o %ta 2> %ta.remarks && timeout 120 %run_aarch64 %ta | diff %t.ref - %}
// RUN: %if qemu-aarch64 %{ FileCheck %s --check-prefix=REMARK < %ta.remarks %}
// RUN: %if qemu-aarch64 %{ %clangxx %aarch64_flags -O2 -flto %s -o %ta4 && timeout 120 %run_aarch64 %ta4 | diff %t.ref - %}
//
// CHECK: caught 5 of 5 total {{[0-9]+}}
// REMARK: remark: a preserve_none call in '_Z4stepjm' goes through a shield (callee '_Z4rarej'): the call is rare

#include <cstdio>

#include "../AutoPreserveNone/Inputs/clobber.h"

__attribute__((preserve_none, noinline)) void rare(unsigned i) {
  APN_CLOBBER_CALLEE_SAVED();
  if (i % 2 == 0)
    throw static_cast<int>(i);
}

// No handler here: the rare call is a plain call.
__attribute__((noinline)) unsigned long step(unsigned n, unsigned long seed) {
  unsigned long a = seed, b = 2, c = 3;
  for (unsigned i = 0; i < n; ++i) {
    a = a * 3 + i;
    b ^= a >> 3;
    c += b * 7;
    if (__builtin_expect(i % 1000 == 999, 0))
      rare(i / 1000 + 1);
  }
  return a + b + c;
}

// The handler, with values live across the call in callee-saved registers.
__attribute__((noinline)) unsigned long run(unsigned rounds, unsigned &caught) {
  unsigned long total = 0, x = 11, y = 13, z = 17;
  for (unsigned r = 0; r < rounds; ++r) {
    x = x * 5 + r;
    y ^= x << 2;
    z += y >> 1;
    try {
      total += step(2000, x);
    } catch (int e) {
      ++caught;
      total += static_cast<unsigned long>(e) + x + y + z;
    }
  }
  return total + x + y + z;
}

int main() {
  unsigned caught = 0;
  unsigned long total = run(5, caught);
  std::printf("caught %u of 5 total %lu\n", caught, total);
  return 0;
}
