// AArch64 (under qemu) runs of pool-tls.c: with -fcoroutine-migration a
// migrated pool coroutine's &errno and &tls are the new thread's; without
// it, -O2 keeps the first thread's.
// REQUIRES: qemu-aarch64
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -I%cacs_include %S/pool-tls.c %cacs_rt_aarch64 -lpthread -o %t/O2
// RUN: %run_aarch64 %t/O2 | FileCheck %S/pool-tls.c
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -fPIC -I%cacs_include %S/pool-tls.c %cacs_rt_aarch64 -lpthread -o %t/pic
// RUN: %run_aarch64 %t/pic | FileCheck %S/pool-tls.c
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/pool-tls.c %cacs_rt_aarch64 -lpthread -o %t/stale
// RUN: %run_aarch64 %t/stale | FileCheck %S/pool-tls.c --check-prefix=STALE
