// On AArch64 an optnone caller keeps its callee out of preserve_none: AArch64
// FastISel would pass the arguments in x0/x1 while the infected callee reads
// x20/x21. Here at -O2 with __attribute__((optnone)), and with a -O0 unit in
// an -O2 full-LTO link (where every function of the unit is optnone).
//
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -Rpass-missed=auto-preserve-none -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// REMARK: remark: 'leaf' calls preserve_none 'apn_switch' but is not made preserve_none: its caller 'user' is optnone
//
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none %s -o %t.o2 && %run_aarch64 %t.o2 | FileCheck %s
// RUN: %clang %aarch64_flags -O0 -flto -fauto-preserve-none -c %s -o %t.lto.o
// RUN: %clang %aarch64_flags -O2 -flto %t.lto.o -o %t.lto && %run_aarch64 %t.lto | FileCheck %s
// CHECK: user 45 48
// CHECK-NEXT: user 45 48

#include <stdio.h>

#define APN_DEFINE_SWITCH
#include "Inputs/clobber.h"

static __attribute__((noinline)) long leaf(long x, long y) {
  apn_switch(x);
  return x * 3 + y;
}

volatile long input = 13;

__attribute__((noinline, optnone)) void user(long n) {
  printf("user %ld %ld\n", leaf(n, 6), leaf(n + 1, 6));
}

int main(void) {
  user(input);
  user(input);
  return 0;
}
