// Full LTO: a non-static function of another translation unit is infected at
// link time, once internalization made it local, and so is a static caller
// in this unit that only then has a preserve_none callee; main keeps the C
// convention. A unit compiled without -fauto-preserve-none is not infected
// at link time. The program runs the same either way.
//
// RUN: rm -rf %t && mkdir -p %t
// (main.o keeps its calls, -fno-switch-site-jumps: ON-IR checks the
// convention of main's call of caller, which the link would otherwise
// enter by a jump, SwitchSiteJump/lto.ll's form.)
// RUN: %clang -O2 -flto -fauto-preserve-none -fno-switch-site-jumps -c %s -o %t/main.o
// RUN: %clang -O2 -flto -fauto-preserve-none -c %S/Inputs/lto-other.c -o %t/other-on.o
// RUN: %clang -O2 -flto -c %S/Inputs/lto-other.c -o %t/other-off.o
//
// Both units with the flag.
// RUN: %clang -O2 -flto %t/main.o %t/other-on.o -o %t/on \
// RUN:   -Wl,--save-temps -Wl,--opt-remarks-filename,%t/on.yaml \
// RUN:   -Wl,--opt-remarks-passes,auto-preserve-none
// RUN: %t/on | FileCheck %s
// RUN: llvm-dis %t/on.0.5.precodegen.bc -o - | FileCheck %s --check-prefix=ON-IR
// RUN: FileCheck %s --check-prefix=ON-REMARK < %t/on.yaml
//
// The second unit without it.
// RUN: %clang -O2 -flto %t/main.o %t/other-off.o -o %t/off \
// RUN:   -Wl,--save-temps -Wl,--opt-remarks-filename,%t/off.yaml \
// RUN:   -Wl,--opt-remarks-passes,auto-preserve-none
// RUN: %t/off | FileCheck %s
// RUN: llvm-dis %t/off.0.5.precodegen.bc -o - | FileCheck %s --check-prefix=OFF-IR
// RUN: FileCheck %s --check-prefix=OFF-REMARK < %t/off.yaml
//
// CHECK: lto 105882
//
// ON-IR-DAG: define internal preserve_nonecc {{.*}}@lto_level(
// ON-IR-DAG: define internal preserve_nonecc {{.*}}@caller(
// ON-IR-DAG: define {{.*}}i32 @main(
// ON-IR-DAG: call preserve_nonecc {{.*}}@caller(
// ON-REMARK: Name: Infected
// ON-REMARK-NEXT: Function: lto_level
//
// OFF-IR-DAG: define internal {{(fastcc )?}}i64 @lto_level(
// OFF-IR-DAG: define internal {{(fastcc )?}}i64 @caller(
// OFF-REMARK: Name: NotEnabled
// OFF-REMARK-NEXT: Function: lto_level

#include <stdio.h>

#include "Inputs/clobber.h"

long lto_level(long a, long b);

volatile long input = 21;

static __attribute__((noinline)) long caller(long a) {
  long k = a * 7;
  long r = lto_level(a, k);
  return r + k;
}

int main(void) {
  long a = input;
  long r = caller(a);
  printf("lto %ld\n", r + a);
  return 0;
}
