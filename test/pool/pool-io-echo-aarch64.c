// AArch64 (under qemu) runs of pool-io-echo.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/pool-io-echo.c %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t 1 | FileCheck %S/pool-io-echo.c
// RUN: %run_aarch64 %t 2 | FileCheck %S/pool-io-echo.c
