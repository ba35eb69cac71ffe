// AArch64 (under qemu) runs of tail-switch.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/tail-switch.c %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c -o %t0 && %run_aarch64 %t0 | FileCheck %S/tail-switch.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/tail-switch.c %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c -o %t2 && %run_aarch64 %t2 | FileCheck %S/tail-switch.c
// RUN: %clang %aarch64_flags -O3 -fno-omit-frame-pointer -I%cacs_include %S/tail-switch.c %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c -o %t3 && %run_aarch64 %t3 | FileCheck %S/tail-switch.c
// RUN: %clang %aarch64_flags -O1 -fomit-frame-pointer -I%cacs_include %S/tail-switch.c %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c -o %t1 && %run_aarch64 %t1 | FileCheck %S/tail-switch.c
