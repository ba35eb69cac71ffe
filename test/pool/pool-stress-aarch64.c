// AArch64 (under qemu) run of pool-stress.c, 2 seconds.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/pool-stress.c %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t 2 | FileCheck %S/pool-stress.c
