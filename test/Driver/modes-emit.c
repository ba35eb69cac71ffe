// -emit-llvm and -S with the cacs flags: the passes run at the end of the
// per-TU pipeline at every -O level, so the IR and the assembly both show
// the convention; -fno-auto-preserve-none last turns APN off again.
// RUN: echo 'fun:leaf' > %t.list
// Each compile prints nothing (no warning), and its IR shows the convention:
// RUN: %clang -S -emit-llvm -O0 -fpreserve-none-list=%t.list %s -o %t.O0.ll 2>&1 | count 0
// RUN: FileCheck %s --check-prefixes=IR,LIST < %t.O0.ll
// RUN: %clang -S -emit-llvm -O2 -fpreserve-none-list=%t.list -fauto-preserve-none %s -o %t.apn.ll 2>&1 | count 0
// RUN: FileCheck %s --check-prefixes=IR,LIST,APN < %t.apn.ll
// RUN: %clang -S -emit-llvm -O2 -fpreserve-none-list=%t.list -fauto-preserve-none -fno-auto-preserve-none %s -o %t.noapn.ll 2>&1 | count 0
// RUN: FileCheck %s --check-prefixes=IR,LIST,NOAPN < %t.noapn.ll
// RUN: %clang -c -emit-llvm -O1 -fpreserve-none-list=%t.list %s -o %t.bc 2>&1 | count 0
// RUN: llvm-dis %t.bc -o - | FileCheck %s --check-prefixes=LIST
// RUN: %clang -S -O1 -fpreserve-none-list=%t.list -fauto-preserve-none %s -o - 2>&1 | FileCheck %s --check-prefix=ASM --implicit-check-not=warning:
// Without any cacs flag nothing changes.
// RUN: %clang -S -emit-llvm -O2 %s -o - | FileCheck %s --check-prefix=NONE
// IR: define
// LIST-DAG: define internal preserve_nonecc {{.*}}@leaf(
// APN-DAG: define internal preserve_nonecc {{.*}}@mid(
// NOAPN-DAG: define internal {{(fastcc )?(range\(.*\) )?}}i32 @mid(
// ASM: leaf:
// NONE-NOT: preserve_nonecc

__attribute__((noinline)) static int leaf(int x) { return x * 3; }
__attribute__((noinline)) static int mid(int x) { return leaf(x) + 1; }
int entry(int x) { return mid(x) + mid(x + 1); }
