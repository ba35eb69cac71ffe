// AArch64 (under qemu) runs of switch-registers.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/switch-registers.c %cacs_rt_aarch64 -o %ta0 && %run_aarch64 %ta0 | FileCheck %S/switch-registers.c
// RUN: %clang %aarch64_flags -O1 -I%cacs_include %S/switch-registers.c %cacs_rt_aarch64 -o %ta1 && %run_aarch64 %ta1 | FileCheck %S/switch-registers.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/switch-registers.c %cacs_rt_aarch64 -o %ta2 && %run_aarch64 %ta2 | FileCheck %S/switch-registers.c
// RUN: %clang %aarch64_flags -O3 -I%cacs_include %S/switch-registers.c %cacs_rt_aarch64 -o %ta3 && %run_aarch64 %ta3 | FileCheck %S/switch-registers.c
// RUN: %clang %aarch64_flags -O0 -fno-omit-frame-pointer -I%cacs_include %S/switch-registers.c %cacs_rt_aarch64 -o %ta4 && %run_aarch64 %ta4 | FileCheck %S/switch-registers.c
// RUN: %clang %aarch64_flags -O2 -fno-omit-frame-pointer -I%cacs_include %S/switch-registers.c %cacs_rt_aarch64 -o %ta5 && %run_aarch64 %ta5 | FileCheck %S/switch-registers.c
// RUN: %clang %aarch64_flags -O3 -fomit-frame-pointer -I%cacs_include %S/switch-registers.c %cacs_rt_aarch64 -o %ta6 && %run_aarch64 %ta6 | FileCheck %S/switch-registers.c
// CHECK: PASS
