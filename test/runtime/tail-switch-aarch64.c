// AArch64 (under qemu) runs of tail-switch.c.
// REQUIRES: qemu-aarch64
// Each row runs on one LLVM (CI runs both, so one CI run covers every row).
// RUN: %if llvm-19 %{ %clang %aarch64_flags -O0 -I%cacs_include %S/tail-switch.c $(%cacs_rt_objs %clang %aarch64_flags -O0 -I%cacs_include) -o %t0 && %run_aarch64 %t0 | FileCheck %S/tail-switch.c %}
// RUN: %if llvm-22 %{ %clang %aarch64_flags -O2 -I%cacs_include %S/tail-switch.c $(%cacs_rt_objs %clang %aarch64_flags -O2 -I%cacs_include) -o %t2 && %run_aarch64 %t2 | FileCheck %S/tail-switch.c %}
// RUN: %if llvm-19 %{ %clang %aarch64_flags -O3 -fno-omit-frame-pointer -I%cacs_include %S/tail-switch.c $(%cacs_rt_objs %clang %aarch64_flags -O3 -fno-omit-frame-pointer -I%cacs_include) -o %t3 && %run_aarch64 %t3 | FileCheck %S/tail-switch.c %}
// RUN: %if llvm-22 %{ %clang %aarch64_flags -O1 -fomit-frame-pointer -I%cacs_include %S/tail-switch.c $(%cacs_rt_objs %clang %aarch64_flags -O1 -fomit-frame-pointer -I%cacs_include) -o %t1 && %run_aarch64 %t1 | FileCheck %S/tail-switch.c %}
// Stock clang (no shield around the base-pointer frame's call; see
// tail-switch.c):
// RUN: %if llvm-22 %{ %stock_clang %aarch64_flags -O0 -I%cacs_include %S/tail-switch.c $(%cacs_rt_objs %stock_clang %aarch64_flags -O0 -I%cacs_include) -o %ts0 && %run_aarch64 %ts0 | FileCheck %S/tail-switch.c %}
// RUN: %if llvm-19 %{ %stock_clang %aarch64_flags -O2 -I%cacs_include %S/tail-switch.c $(%cacs_rt_objs %stock_clang %aarch64_flags -O2 -I%cacs_include) -o %ts2 && %run_aarch64 %ts2 | FileCheck %S/tail-switch.c %}
