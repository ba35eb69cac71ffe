// AArch64 (under qemu) runs of yield-slow-registers.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/yield-slow-registers.c %cacs_rt_aarch64 -lm -o %t0 && %run_aarch64 %t0 | FileCheck %S/yield-slow-registers.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/yield-slow-registers.c %cacs_rt_aarch64 -lm -o %t2 && %run_aarch64 %t2 | FileCheck %S/yield-slow-registers.c
// RUN: %clang %aarch64_flags -O3 -fno-omit-frame-pointer -I%cacs_include %S/yield-slow-registers.c %cacs_rt_aarch64 -lm -o %t3 && %run_aarch64 %t3 | FileCheck %S/yield-slow-registers.c
// RUN: %clang %aarch64_flags -O2 -fomit-frame-pointer -fauto-preserve-none -I%cacs_include %S/yield-slow-registers.c %cacs_rt_aarch64 -lm -o %ta && %run_aarch64 %ta | FileCheck %S/yield-slow-registers.c
