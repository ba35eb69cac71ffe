// A static call chain above a preserve_none switch function: without
// -fauto-preserve-none every level saves the callee-saved registers it keeps
// values in (pushes of rbx, r12-r15); with it the chain is preserve_none and
// its prologues save nothing but rbp (which preserve_none keeps). Values live
// across the calls go to stack slots instead; the external entry point keeps
// the C convention and pays once. (The ON run keeps the calls,
// -fno-switch-site-jumps: the checks find each level by its call, which the
// default enters by a jump; test/SwitchSiteJump/callbyjump-*.)
//
// RUN: %clang --target=x86_64-linux-gnu -O2 -S %s -o - \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: %clang --target=x86_64-linux-gnu -O2 -S -fauto-preserve-none -fno-switch-site-jumps %s -o - \
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
// OFF:         pushq %r{{bx|1[2-5]}}
// OFF:         callq level1
// OFF-LABEL: level1:
// OFF:         pushq %r{{bx|1[2-5]}}
// OFF:         callq pn_switch

// ON-LABEL: entry:
// ON:         pushq %r{{bx|1[2-5]}}
// ON:         callq level2
// ON-LABEL: level2:
// ON-NOT:     pushq %r{{bx|1[2-5]}}
// ON:         callq level1
// ON-LABEL: level1:
// ON-NOT:     pushq %r{{bx|1[2-5]}}
// ON:         callq pn_switch
