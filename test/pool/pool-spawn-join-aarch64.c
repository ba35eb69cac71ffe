// AArch64 (under qemu) runs of pool-spawn-join.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/pool-spawn-join.c %cacs_rt_aarch64 -lpthread -o %t2
// RUN: %run_aarch64 %t2 1 100 20 | FileCheck %S/pool-spawn-join.c
// RUN: %run_aarch64 %t2 2 100 20 | FileCheck %S/pool-spawn-join.c
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/pool-spawn-join.c %cacs_rt_aarch64 -lpthread -o %t0
// RUN: %run_aarch64 %t0 2 50 20 | FileCheck %S/pool-spawn-join.c
