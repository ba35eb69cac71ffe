// AArch64 (under qemu) runs of pool-depth-first.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/pool-depth-first.c %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t pinned | FileCheck %S/pool-depth-first.c
// RUN: %run_aarch64 %t migrate | FileCheck %S/pool-depth-first.c
