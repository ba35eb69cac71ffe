// AArch64 (under qemu) runs of pool-detach.c, without ASan.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -I%cacs_include %S/pool-detach.c %cacs_rt_aarch64 -lpthread -o %t2
// RUN: %run_aarch64 %t2 1 | FileCheck %S/pool-detach.c --check-prefix=W1
// RUN: %run_aarch64 %t2 2 | FileCheck %S/pool-detach.c --check-prefix=W2
