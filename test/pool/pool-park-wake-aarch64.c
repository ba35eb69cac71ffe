// AArch64 (under qemu) runs of pool-park-wake.c (timeouts of 300 us: at
// qemu's speed 3 us expire before every wake and the run crawls).
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include -I%S/../../runtime/lib/pool %S/pool-park-wake.c %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t wake | FileCheck %S/pool-park-wake.c
// RUN: %run_aarch64 %t handoff | FileCheck %S/pool-park-wake.c
// RUN: %run_aarch64 %t timeout 300 | FileCheck %S/pool-park-wake.c
