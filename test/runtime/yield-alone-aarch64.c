// AArch64 (under qemu) runs of yield-alone.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/yield-alone.c %cacs_rt_aarch64 -lpthread -o %ta && %run_aarch64 %ta | FileCheck %S/yield-alone.c
// RUN: %stock_clang %aarch64_flags -O0 -I%cacs_include %S/yield-alone.c %cacs_rt_aarch64 -lpthread -o %t0 && %run_aarch64 %t0 | FileCheck %S/yield-alone.c
