// AArch64 (under qemu) runs of pool-io-wait.c (fewer race rounds: qemu is
// slow, and the timeouts race the writer all the same).
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/pool-io-wait.c %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t timeout | FileCheck %S/pool-io-wait.c --check-prefix=TIMEOUT
// RUN: %run_aarch64 %t race 2 100 | FileCheck %S/pool-io-wait.c --check-prefix=RACE
// RUN: %run_aarch64 %t pingpong 2 500 | FileCheck %S/pool-io-wait.c --check-prefix=PINGPONG
// RUN: %run_aarch64 %t tcp 2 | FileCheck %S/pool-io-wait.c --check-prefix=TCP
// RUN: %run_aarch64 %t kick | FileCheck %S/pool-io-wait.c --check-prefix=KICK
