// AArch64 (under qemu) run of pool-steal.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/pool-steal.c %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t | FileCheck %S/pool-steal.c
