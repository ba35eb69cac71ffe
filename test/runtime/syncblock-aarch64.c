// AArch64 (under qemu) runs of syncblock.c: the yield assembly's test of
// the sync bit, and the other checks.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -fno-sync-block-check -I%cacs_include %S/syncblock.c %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t ok 2>&1 | FileCheck %S/syncblock.c --check-prefix=OK
// RUN: not --crash %run_aarch64 %t yield 2>&1 | FileCheck %S/syncblock.c --check-prefix=YIELD
// RUN: not --crash %run_aarch64 %t yield-alone 2>&1 | FileCheck %S/syncblock.c --check-prefix=YIELD
// RUN: not --crash %run_aarch64 %t mutex 2>&1 | FileCheck %S/syncblock.c --check-prefix=YIELD
// RUN: not --crash %run_aarch64 %t exit 2>&1 | FileCheck %S/syncblock.c --check-prefix=EXIT
// RUN: not --crash %run_aarch64 %t perform 2>&1 | FileCheck %S/syncblock.c --check-prefix=PERFORM
// RUN: not --crash %run_aarch64 %t pool-yield 2>&1 | FileCheck %S/syncblock.c --check-prefix=POOL
// RUN: %run_aarch64 %t pool-spawn 2>&1 | FileCheck %S/syncblock.c --check-prefix=SPAWN
