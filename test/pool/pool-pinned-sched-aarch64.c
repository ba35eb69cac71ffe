// AArch64 (under qemu) runs of pool-pinned-sched.c: unstarted coroutines
// are still balanced over the workers, started ones stay home, and wakes
// across workers are not lost (futex and epoll sleepers).
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/pool-pinned-sched.c %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t balance | FileCheck %S/pool-pinned-sched.c --check-prefix=BALANCE
// RUN: %run_aarch64 %t pingpong 2000 | FileCheck %S/pool-pinned-sched.c --check-prefix=PINGPONG2K
