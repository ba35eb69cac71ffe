// AArch64 (under qemu) runs of coro-scheduler.c, with reduced counts.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O0 -I%cacs_include %S/coro-scheduler.c %cacs_rt_aarch64 -lpthread -lm -o %t0 && %run_aarch64 %t0 20000 20000 | FileCheck %S/coro-scheduler.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/coro-scheduler.c %cacs_rt_aarch64 -lpthread -lm -o %t2 && %run_aarch64 %t2 100000 100000 | FileCheck %S/coro-scheduler.c
// RUN: %clang %aarch64_flags -O3 -fno-omit-frame-pointer -I%cacs_include %S/coro-scheduler.c %cacs_rt_aarch64 -lpthread -lm -o %t3 && %run_aarch64 %t3 100000 20000 | FileCheck %S/coro-scheduler.c
