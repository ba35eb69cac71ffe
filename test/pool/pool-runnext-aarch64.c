// AArch64 (under qemu) runs of pool-runnext.c: the items of the chain
// (qemu's timing decides where the woken run, so only that all arrive) and
// the bound (a woken waiter runs while its waker runs on).
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %S/pool-runnext.c %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t cond | FileCheck %S/pool-runnext.c --check-prefix=ITEMS
// RUN: %run_aarch64 %t hog | FileCheck %S/pool-runnext.c --check-prefix=HOG
