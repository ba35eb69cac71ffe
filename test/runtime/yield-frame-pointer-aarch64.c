// AArch64 (under qemu) runs of yield-frame-pointer.c.
// REQUIRES: qemu-aarch64
// RUN: %stock_clang %aarch64_flags -O2 -fno-omit-frame-pointer -I%cacs_include %S/yield-frame-pointer.c %cacs_rt_aarch64 -o %t2 && %run_aarch64 %t2 | FileCheck %S/yield-frame-pointer.c
// RUN: %stock_clang %aarch64_flags -O0 -I%cacs_include %S/yield-frame-pointer.c %cacs_rt_aarch64 -o %t0 && %run_aarch64 %t0 | FileCheck %S/yield-frame-pointer.c
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/yield-frame-pointer.c %cacs_rt_aarch64 -o %ta && %run_aarch64 %ta | FileCheck %S/yield-frame-pointer.c
