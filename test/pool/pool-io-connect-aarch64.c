// AArch64 (under qemu) run of pool-io-connect.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/pool-io-connect.c %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t | FileCheck %S/pool-io-connect.c
