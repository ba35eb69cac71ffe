// AArch64 (under qemu) run of stack-many-guarded.c, scaled down: slab stacks
// with their guard (qemu-user ignores MADV_GUARD_INSTALL, which the probe
// sees, so this is the fallback guard) hold coroutines suspended deep down.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O1 -I%cacs_include %S/stack-many-guarded.c %cacs_rt_aarch64 -o %t
// RUN: %run_aarch64 %t 3000 2>&1 | FileCheck %s
//
// CHECK: guard {{madvise|mprotect}}
// CHECK-NEXT: created 3000
// CHECK-NEXT: suspended 3000
// CHECK-NEXT: finished 3000, locals ok
// CHECK-NEXT: PASS
