// The front door's -fpreserve-none-list= reaches the pass at every -O level:
// listed functions and their calls are preserve_nonecc, others are not.
// -fno-switch-site-jumps: the checks find the calls, which site jumps would
// enter by a jump (the C entry's call of its listed body can switch).
//
// RUN: rm -rf %t && split-file %s %t
// RUN: for O in -O0 -O1 -O2 -O3 -Os -Oz; do \
// RUN:   %clang $O -S -emit-llvm -o - %t/a.c -fpreserve-none-list=%t/list.txt \
// RUN:     -fno-preserve-none-list-export-warning -fno-switch-site-jumps | FileCheck %s || exit 1; \
// RUN: done
// The same without the list: no preserve_none at all.
// RUN: %clang -O2 -S -emit-llvm -o - %t/a.c | FileCheck %s --check-prefix=NOLIST
// NOLIST-NOT: preserve_nonecc

// CHECK-DAG: define {{.*}}preserve_nonecc {{.*}}i32 @scheduler_step.preserve_none_list(
// CHECK-DAG: define internal preserve_nonecc {{.*}}i32 @helper(
// CHECK-DAG: declare {{.*}}preserve_nonecc {{.*}}i32 @external_step.preserve_none_list(
// CHECK-DAG: call preserve_nonecc {{.*}}i32 @scheduler_step.preserve_none_list(
// CHECK-DAG: call preserve_nonecc {{.*}}i32 @external_step.preserve_none_list(
// CHECK-DAG: call preserve_nonecc {{.*}}i32 @helper(
// CHECK-DAG: define {{.*}}i32 @entry(

//--- list.txt
fun:scheduler_step
fun:helper
fun:external_step

//--- a.c
int external_step(int);
__attribute__((noinline)) static int helper(int x) { return x * 3; }
__attribute__((noinline)) int scheduler_step(int x) {
  return helper(x) + external_step(x);
}
int entry(int x) { return scheduler_step(x) + 1; }
