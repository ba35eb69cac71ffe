// AArch64 (under qemu) runs of sysstack.c: the frame-record call of
// sysstack_aarch64.S, the pool worker's stack, the aborts naming the call.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/sysstack.c %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t ok 2>&1 | FileCheck %S/sysstack.c --check-prefix=OK
// RUN: not --crash %run_aarch64 %t direct 2>&1 | FileCheck %S/sysstack.c --check-prefix=DIRECT
// RUN: not --crash %run_aarch64 %t yield 2>&1 | FileCheck %S/sysstack.c --check-prefix=YIELD
// RUN: not --crash %run_aarch64 %t pool-yield 2>&1 | FileCheck %S/sysstack.c --check-prefix=POOLYIELD
// RUN: not --crash %run_aarch64 %t gen-main 2>&1 | FileCheck %S/sysstack.c --check-prefix=GENMAIN
// RUN: not --crash %run_aarch64 %t gen-nested 2>&1 | FileCheck %S/sysstack.c --check-prefix=GENNESTED
// RUN: not --crash %run_aarch64 %t sync-around 2>&1 | FileCheck %S/sysstack.c --check-prefix=AROUND
// RUN: %run_aarch64 %t spawn 2>&1 | FileCheck %S/sysstack.c --check-prefix=SPAWN
