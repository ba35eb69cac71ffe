// AArch64 (under qemu) runs of instack-generator.c, instack-yield-frame.c
// (leaf yields without the cancel call, for every compiler), instack-cxx.cpp
// and instack-base-pointer.c (a 512-byte consumer frame: x19 base pointer).
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/instack-generator.c %cacs_rt_aarch64 -o %t0 && %run_aarch64 %t0 | FileCheck %S/instack-generator.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/instack-generator.c %cacs_rt_aarch64 -o %t2 && %run_aarch64 %t2 | FileCheck %S/instack-generator.c
// RUN: %clang %aarch64_flags -O3 -fno-omit-frame-pointer -fauto-preserve-none -I%cacs_include %S/instack-generator.c %cacs_rt_aarch64 -o %t3 && %run_aarch64 %t3 | FileCheck %S/instack-generator.c
// RUN: %clang %aarch64_flags -O2 -mbranch-protection=standard -I%cacs_include %S/instack-generator.c %cacs_rt_aarch64 -o %tb && %run_aarch64 %tb | FileCheck %S/instack-generator.c
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/instack-yield-frame.c %cacs_rt_aarch64 -o %ty0 && %run_aarch64 %ty0 | FileCheck %S/instack-yield-frame.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/instack-yield-frame.c %cacs_rt_aarch64 -o %ty2 && %run_aarch64 %ty2 | FileCheck %S/instack-yield-frame.c
// RUN: %stock_clang %aarch64_flags -O2 -I%cacs_include %S/instack-yield-frame.c %cacs_rt_aarch64 -o %tys && %run_aarch64 %tys | FileCheck %S/instack-yield-frame.c
// RUN: %clangxx %aarch64_flags -std=c++20 -O0 -I%cacs_include %S/instack-cxx.cpp %cacs_rt_aarch64 -o %tx0 && %run_aarch64 %tx0 | FileCheck %S/instack-cxx.cpp
// RUN: %clangxx %aarch64_flags -std=c++20 -O2 -I%cacs_include %S/instack-cxx.cpp %cacs_rt_aarch64 -o %tx2 && %run_aarch64 %tx2 | FileCheck %S/instack-cxx.cpp
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/instack-base-pointer.c %cacs_rt_aarch64 -o %tp0 && %run_aarch64 %tp0 | FileCheck %S/instack-base-pointer.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/instack-base-pointer.c %cacs_rt_aarch64 -o %tp2 && %run_aarch64 %tp2 | FileCheck %S/instack-base-pointer.c
