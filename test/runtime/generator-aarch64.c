// AArch64 (under qemu) runs of generator.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/generator.c %cacs_rt_aarch64 -o %t0 && %run_aarch64 %t0 20 | FileCheck %S/generator.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/generator.c %cacs_rt_aarch64 -o %t2 && %run_aarch64 %t2 20 | FileCheck %S/generator.c
// RUN: %clang %aarch64_flags -O3 -fno-omit-frame-pointer -I%cacs_include %S/generator.c %cacs_rt_aarch64 -o %t3 && %run_aarch64 %t3 20 | FileCheck %S/generator.c
// RUN: %clang %aarch64_flags -O1 -fno-omit-frame-pointer -I%cacs_include %S/generator.c %cacs_rt_aarch64 -o %t1 && %run_aarch64 %t1 20 | FileCheck %S/generator.c
