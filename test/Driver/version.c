// The front door prints clang's own banner first (tools such as Meson read its
// first line), then a line naming cacs, its build and the LLVM it runs on.
// RUN: %clang --version | FileCheck %s
// RUN: %clangxx --version | FileCheck %s
// CHECK: {{^}}{{.*}}clang version [[MAJOR:[0-9]+]].
// CHECK: {{^}}cacs version {{[0-9]+\.[0-9]+\.[0-9]+}} ({{[0-9a-f]+}}, preserve_none toolchain) on LLVM [[MAJOR]].
// RUN: %clang --version > %t.txt
// RUN: head -n 1 %t.txt | FileCheck %s --check-prefix=FIRST
// FIRST: clang version
