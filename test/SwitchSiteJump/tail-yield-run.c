// A cacs_yield() that is its function's last act stays a call, which the
// backend makes a tail jump to cacs__yield_pn: the switch resumes the
// function's caller directly (no site, no frame, no return after the
// resume). Tail yields in functions called in loops, through calls by jump,
// with arguments, from a recursion and beside a yield that is not last,
// in three coroutines and main; the output is stock clang -O0's at -O2,
// in non-PIC, PIE and with -flto. t_wait's body is the store and the jump.
//
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t.ref
// RUN: %t.ref > %t.want
// RUN: %clang -O2 -fauto-preserve-none -fswitch-site-jumps -Rpass-missed=switch-site-jump -I%cacs_include %s %cacs_rt_x86_64 -o %t.o2 2>%t.rem
// RUN: %t.o2 | diff %t.want -
// RUN: FileCheck %s --check-prefix=REMARK < %t.rem
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=t_wait,t_twice %t.o2 | FileCheck %s
// RUN: %clang -O2 -fno-pic -no-pie -fauto-preserve-none -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t.np && %t.np | diff %t.want -
// RUN: %clang -O2 -fPIE -pie -fauto-preserve-none -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t.pie && %t.pie | diff %t.want -
// RUN: %clang -O2 -flto -fauto-preserve-none -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -o %t.lto && %t.lto | diff %t.want -
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=t_wait,t_twice %t.lto | FileCheck %s
//
// REMARK: cacs_yield stays a call: the call is the function's last act, which the backend makes a tail jump
//
// CHECK-LABEL: <t_wait>:
// CHECK-NEXT:    movq %r12, {{.*}}
// CHECK-NEXT:    jmp {{.*}} <cacs__yield_pn>
// CHECK-LABEL: <t_twice>:
// CHECK-NOT:     <cacs__yield_pn>
// CHECK:         <cacs__yield_pn_jmp>
// CHECK-NOT:     <cacs__yield_pn>
// CHECK:         jmp {{.*}} <cacs__yield_pn>

#include "cacs/coro.h"

#include <stdio.h>

#define NOINLINE __attribute__((noinline))

static volatile long box;
static unsigned long ticks;

// The shape of a wait: publish, then switch; the caller goes on.
static NOINLINE void t_wait(long x) {
  box = x;
  cacs_yield();
}

// A yield that is not last (a site), then one that is.
static NOINLINE void t_twice(long x) {
  cacs_yield();
  box += x;
  ++ticks;
  cacs_yield();
}

static NOINLINE void t_rec(int depth, long x) {
  if (depth == 0) {
    box ^= x;
    cacs_yield();
    return;
  }
  t_rec(depth - 1, x * 3 + depth);
  cacs_yield();
}

static NOINLINE long work(int who, int rounds) {
  long acc = who;
  for (int i = 0; i < rounds; ++i) {
    t_wait(acc + i);
    acc = acc * 5 + box % 1000;
    t_twice(i - who);
    acc ^= box;
    t_rec(i % 4, acc & 0xff);
    acc += box & 0xffff;
  }
  return acc;
}

#include "Inputs/four-workers.h"

int main(void) {
  run_four_workers();
  printf("ticks %lu box %ld\n", ticks, box);
  return 0;
}
