// AArch64 (under qemu) run of stack-shared-lean.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O1 -I%cacs_include %S/stack-shared-lean.c %cacs_rt_aarch64 -o %t
// RUN: %run_aarch64 %t 300 2>&1 | FileCheck %S/stack-shared-lean.c --check-prefix=A64
//
// (The checks are stack-shared-lean.c's, for 300 coroutines.)
