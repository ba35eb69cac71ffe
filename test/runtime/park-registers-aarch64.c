// AArch64 (under qemu) runs of park-registers.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/park-registers.c %cacs_rt_aarch64 -o %t0 && %run_aarch64 %t0 | FileCheck %S/park-registers.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/park-registers.c %cacs_rt_aarch64 -o %t2 && %run_aarch64 %t2 | FileCheck %S/park-registers.c
// RUN: %clang %aarch64_flags -O2 -fomit-frame-pointer -fauto-preserve-none -I%cacs_include %S/park-registers.c %cacs_rt_aarch64 -o %ta && %run_aarch64 %ta | FileCheck %S/park-registers.c
// RUN: %clang %aarch64_flags -O2 -DCACS_YIELD_FULL_SAVE=1 -I%cacs_include %S/park-registers.c %cacs_rt_aarch64 -o %tf && %run_aarch64 %tf | FileCheck %S/park-registers.c
// RUN: %stock_clang %aarch64_flags -O2 -I%cacs_include %S/park-registers.c %cacs_rt_aarch64 -o %ts && %run_aarch64 %ts | FileCheck %S/park-registers.c
// RUN: %stock_clang %aarch64_flags -O0 -I%cacs_include %S/park-registers.c %cacs_rt_aarch64 -o %ts0 && %run_aarch64 %ts0 | FileCheck %S/park-registers.c
// RUN: %if gcc %{ command -v aarch64-linux-gnu-gcc >/dev/null || exit 0; aarch64-linux-gnu-gcc -O2 -I%cacs_include %S/park-registers.c %cacs_rt_aarch64 -o %tg && %run_aarch64 %tg | FileCheck %S/park-registers.c %}
