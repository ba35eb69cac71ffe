// AArch64 version of prologue-x86_64.c: without -fauto-preserve-none the
// static callers of a preserve_none function save x19-x28 and d8-d15 in their
// prologues; with it they save only x29/x30 (frame record) and spill the
// argument registers they need after the calls.
//
// RUN: %clang %aarch64_flags -O2 -S %s -o - \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: %clang %aarch64_flags -O2 -S -fauto-preserve-none %s -o - \
// RUN:   | FileCheck %s --check-prefix=ON

__attribute__((preserve_none)) void pn_switch(long *to);

static __attribute__((noinline)) long level1(long *p, long a, long b) {
  pn_switch(p);
  long r = a * b + *p;
  pn_switch(p);
  return r + a - b;
}

static __attribute__((noinline)) long level2(long *p, long a, long b) {
  long x = level1(p, a, b);
  long y = level1(p, b, a);
  return x * a + y * b;
}

long entry(long *p, long a, long b) {
  return level2(p, a, b) + level2(p, b, a);
}

// OFF-LABEL: entry:
// OFF-LABEL: level2:
// OFF:         stp x{{2[0-8]}}, x{{19|2[0-8]}}, [sp
// OFF:         bl level1
// OFF-LABEL: level1:
// OFF:         stp d9, d8, [sp
// OFF:         stp x20, x19, [sp
// OFF:         bl pn_switch

// ON-LABEL: entry:
// ON:         stp x20, x19, [sp
// ON:         bl level2
// ON-LABEL: level2:
// ON-NOT:     x19
// ON-NOT:     stp d{{[0-9]+}}, d{{[0-9]+}}
// ON-NOT:     stp x{{2[0-8]}}, x{{19|2[0-8]}}
// ON:         bl level1
// ON-LABEL: level1:
// ON-NOT:     x19
// ON-NOT:     stp d{{[0-9]+}}, d{{[0-9]+}}
// ON-NOT:     stp x{{2[0-8]}}, x{{19|2[0-8]}}
// ON:         bl pn_switch
