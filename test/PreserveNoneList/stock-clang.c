// Stock clang with the pass plugin and -mllvm: the same list, the same
// diagnostics (clang's format), without the front door.
//
// RUN: rm -rf %t && split-file %s %t
// RUN: %stock_clang -O2 -S -emit-llvm -o - %t/a.c -fpass-plugin=%cacs_passes -fplugin=%cacs_passes \
// RUN:   -mllvm -cacs-preserve-none-list=%t/list.txt -mllvm -cacs-preserve-none-list-export-warning=false \
// RUN:   2>&1 | FileCheck %s
// CHECK-DAG: define {{.*}}preserve_nonecc {{.*}}i32 @step.preserve_none_list(
// CHECK-DAG: call preserve_nonecc {{.*}}i32 @step.preserve_none_list(
// CHECK-DAG: define {{.*}}i32 @caller(
//
// The pass checks the file itself here: missing and malformed lists are
// errors in clang's format, and clang fails.
// RUN: not %stock_clang -c %t/a.c -o /dev/null -fpass-plugin=%cacs_passes -fplugin=%cacs_passes \
// RUN:   -mllvm -cacs-preserve-none-list=%t/nope.txt 2>&1 | FileCheck %s --check-prefix=MISSING -DP=%t
// MISSING: error: preserve-none list file '[[P]]/nope.txt' not found
// MISSING: 1 error generated.
// RUN: not %stock_clang -c %t/a.c -o /dev/null -fpass-plugin=%cacs_passes -fplugin=%cacs_passes \
// RUN:   -mllvm -cacs-preserve-none-list=%t/bad.txt 2>&1 | FileCheck %s --check-prefix=BAD -DP=%t
// BAD: error: [[P]]/bad.txt:2:1: malformed line: 'oops'

//--- list.txt
fun:step
//--- bad.txt
fun:step
oops
//--- a.c
__attribute__((noinline)) int step(int x) { return x + 1; }
int caller(int x) { return step(x) * 2; }
