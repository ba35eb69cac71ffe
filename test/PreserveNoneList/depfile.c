// The list files are inputs of the compilation: -MD/-MMD/-M/-MF output names
// them, so build systems recompile when a list changes.
//
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clang -c a.c -o a.o -MD -MF a.d -fpreserve-none-list=one.list -fpreserve-none-list=two.list
// RUN: FileCheck %s -DP=%t < a.d
// RUN: %clang -c a.c -o b.o -MMD -fpreserve-none-list=one.list && FileCheck %s --check-prefix=ONE -DP=%t < b.d
// RUN: %clang -M a.c -fpreserve-none-list=one.list | FileCheck %s --check-prefix=ONE -DP=%t
// RUN: %clang -c a.c -o c.o -Wp,-MD,c.d -fpreserve-none-list=one.list && FileCheck %s --check-prefix=ONE -DP=%t < c.d
// CHECK: a.o:
// CHECK-DAG: [[P]]/one.list
// CHECK-DAG: [[P]]/two.list
// CHECK-DAG: a.c
// ONE: [[P]]/one.list
//
// Without dependency output nothing is added:
// RUN: %clang -### -c a.c -fpreserve-none-list=one.list 2>&1 | FileCheck %s --check-prefix=NODEP
// NODEP-NOT: fdepfile-entry

//--- one.list
fun:f
//--- two.list
fun:g
//--- a.c
int f(void) { return 0; }
