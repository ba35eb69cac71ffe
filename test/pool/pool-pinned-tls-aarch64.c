// AArch64 (under qemu) runs of pool-pinned-tls.c: the default pool keeps a
// started coroutine on its home worker, so stock clang -O2 code that keeps
// &errno and &tls across waits stays right; CACS_POOL_MIGRATE_RUNNING
// shows the moves and stale addresses it prevents.
// REQUIRES: qemu-aarch64
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stock_clang %aarch64_flags -O2 -I%cacs_include -I%S/Inputs %S/pool-pinned-tls.c %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t/pinned
// RUN: %run_aarch64 %t/pinned 200 | FileCheck %S/pool-pinned-tls.c
// RUN: %stock_clang %aarch64_flags -O2 -DMIGRATE_RUNNING -I%cacs_include -I%S/Inputs %S/pool-pinned-tls.c %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t/running
// RUN: %run_aarch64 %t/running 200 | FileCheck %S/pool-pinned-tls.c --check-prefix=RUNNING
