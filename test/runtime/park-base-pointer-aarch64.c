// AArch64 (under qemu) runs of park-base-pointer.c: x19 is the base
// pointer; stock clang 19 and 22 do not save it around a preserve_none call.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/park-base-pointer.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %t && %run_aarch64 %t | FileCheck %S/park-base-pointer.c
// RUN: %stock_clang %aarch64_flags -O2 -I%cacs_include %S/park-base-pointer.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %ts && %run_aarch64 %ts | FileCheck %S/park-base-pointer.c
// RUN: %stock_clang %aarch64_flags -O2 -DCACS_YIELD_SAVE_BP=0 -I%cacs_include %S/park-base-pointer.c %cacs_io_aarch64 %cacs_rt_aarch64 -o %tu
// RUN: ulimit -c 0; ! %run_aarch64 %tu
