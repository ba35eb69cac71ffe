// AArch64 (under qemu) runs of stack-overflow.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O1 -I%cacs_include %S/stack-overflow.c %cacs_rt_aarch64 -o %t
// RUN: %run_aarch64 %t stacks | FileCheck %S/stack-overflow.c --check-prefix=STACKS
// RUN: ulimit -c 0; not --crash %run_aarch64 %t overflow 2>&1 | FileCheck %S/stack-overflow.c
// RUN: ulimit -c 0; not --crash %run_aarch64 %t overflow-gen 2>&1 | FileCheck %S/stack-overflow.c --check-prefix=GEN
