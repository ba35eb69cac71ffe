// migrate.c on AArch64 (qemu runs the two threads).
//
// REQUIRES: qemu-aarch64
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %aarch64_flags -O0 -fcoroutine-migration -I%cacs_include %S/migrate.c %cacs_rt_aarch64 -lpthread -o %t/O0
// RUN: %run_aarch64 %t/O0 | FileCheck %S/migrate.c
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -I%cacs_include %S/migrate.c %cacs_rt_aarch64 -lpthread -o %t/O2
// RUN: %run_aarch64 %t/O2 | FileCheck %S/migrate.c
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -ftls-model=local-exec -I%cacs_include %S/migrate.c %cacs_rt_aarch64 -lpthread -o %t/le
// RUN: %run_aarch64 %t/le | FileCheck %S/migrate.c
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -fPIC -ftls-model=global-dynamic -I%cacs_include %S/migrate.c %cacs_rt_aarch64 -lpthread -o %t/gd
// RUN: %run_aarch64 %t/gd | FileCheck %S/migrate.c
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -fPIC -ftls-model=local-dynamic -I%cacs_include %S/migrate.c %cacs_rt_aarch64 -lpthread -o %t/ld
// RUN: %run_aarch64 %t/ld | FileCheck %S/migrate.c
// RUN: %clang %aarch64_flags -O2 -fcoroutine-migration -flto -I%cacs_include %S/migrate.c %cacs_rt_aarch64 -lpthread -o %t/lto
// RUN: %run_aarch64 %t/lto | FileCheck %S/migrate.c
//
// Stock clang on AArch64: MachineLICM and MachineCSE move the read of
// TPIDR_EL0 across calls, so even local-exec is wrong at -O2, and at -O0 one
// basic block reads it once:
// RUN: %stock_clang %aarch64_flags -O0 -I%cacs_include %S/migrate.c %cacs_rt_aarch64 -lpthread -o %t/stock-O0
// RUN: %run_aarch64 %t/stock-O0 | FileCheck %s --check-prefix=STOCK-O0
// RUN: %stock_clang %aarch64_flags -O2 -ftls-model=local-exec -I%cacs_include %S/migrate.c %cacs_rt_aarch64 -lpthread -o %t/stock-le
// RUN: %run_aarch64 %t/stock-le | FileCheck %S/migrate.c --check-prefix=STOCK-DYNAMIC
// RUN: %stock_clang %aarch64_flags -O2 -fPIC -ftls-model=global-dynamic -I%cacs_include %S/migrate.c %cacs_rt_aarch64 -lpthread -o %t/stock-gd
// RUN: %run_aarch64 %t/stock-gd | FileCheck %S/migrate.c --check-prefix=STOCK-DYNAMIC
//
// STOCK-O0:      errno-address: fresh
// STOCK-O0-NEXT: errno-store: fresh
// STOCK-O0-NEXT: tls-value: stale
// STOCK-O0-NEXT: tls-compare: stale
// STOCK-O0-NEXT: tls-escape: stale
// STOCK-O0-NEXT: tls-loop: fresh
// STOCK-O0-NEXT: stale: 3
