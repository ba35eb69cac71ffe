// AArch64 (under qemu) runs of stack-shared.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O1 -I%cacs_include %S/stack-shared.c %cacs_rt_aarch64 -o %t
// RUN: %run_aarch64 %t run 300 2>&1 | FileCheck %S/stack-shared.c
// RUN: env CACS_SHARED_STACK_DEBUG=1 %run_aarch64 %t run 50 2>&1 | FileCheck %S/stack-shared.c
// RUN: ulimit -c 0; env CACS_SHARED_STACK_DEBUG=1 not --crash %run_aarch64 %t escape 2>&1 | FileCheck %S/stack-shared.c --check-prefix=ESCAPE
// RUN: ulimit -c 0; not --crash %run_aarch64 %t overflow 2>&1 | FileCheck %S/stack-shared.c --check-prefix=OVERFLOW
