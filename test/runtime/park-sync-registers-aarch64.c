// AArch64 (under qemu) runs of park-sync-registers.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/park-sync-registers.c %cacs_rt_aarch64 -o %t0 && %run_aarch64 %t0 | FileCheck %S/park-sync-registers.c
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -I%cacs_include %S/park-sync-registers.c %cacs_rt_aarch64 -o %ta && %run_aarch64 %ta | FileCheck %S/park-sync-registers.c
// RUN: %stock_clang %aarch64_flags -O2 -I%cacs_include %S/park-sync-registers.c %cacs_rt_aarch64 -o %ts && %run_aarch64 %ts | FileCheck %S/park-sync-registers.c
// RUN: %stock_clang %aarch64_flags -O0 -I%cacs_include %S/park-sync-registers.c %cacs_rt_aarch64 -o %ts0 && %run_aarch64 %ts0 | FileCheck %S/park-sync-registers.c
