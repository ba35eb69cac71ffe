// pool-pinned-tls.c built by gcc -O2 (which also keeps errno's address
// across calls): the default pool never moves a started coroutine, so
// every address after every wait is the thread's; with
// CACS_POOL_MIGRATE_RUNNING the same program reads stale ones.
// REQUIRES: gcc
// RUN: rm -rf %t && mkdir -p %t
// RUN: gcc -O2 -I%cacs_include -I%S/Inputs %S/pool-pinned-tls.c %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/pinned
// RUN: %t/pinned 200 | FileCheck %S/pool-pinned-tls.c
// RUN: gcc -O2 -DMIGRATE_RUNNING -I%cacs_include -I%S/Inputs %S/pool-pinned-tls.c %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/running
// RUN: %t/running 200 | FileCheck %S/pool-pinned-tls.c --check-prefix=RUNNING
