// AArch64 (under qemu) runs of pool-overflow.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O1 -I%cacs_include %S/pool-overflow.c %cacs_rt_aarch64 -lpthread -o %t
// RUN: ulimit -c 0; not --crash %run_aarch64 %t migrated 2>&1 | FileCheck %S/pool-overflow.c
// RUN: ulimit -c 0; not --crash %run_aarch64 %t home 2>&1 | FileCheck %S/pool-overflow.c --check-prefix=HOME
