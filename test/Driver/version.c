// The front door names cacs and the LLVM it runs on, then clang's own banner.
// RUN: %clang --version | FileCheck %s
// RUN: %clangxx --version | FileCheck %s
// CHECK: cacs version {{[0-9]+\.[0-9]+\.[0-9]+}} (preserve_none toolchain) on LLVM [[MAJOR:[0-9]+]].
// CHECK-NEXT: clang version [[MAJOR]].
