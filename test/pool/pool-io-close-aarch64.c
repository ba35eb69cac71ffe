// AArch64 (under qemu) runs of pool-io-close.c.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %S/pool-io-close.c %cacs_io_aarch64 %cacs_rt_aarch64 -lpthread -o %t
// RUN: %run_aarch64 %t hangup 2 | FileCheck %S/pool-io-close.c --check-prefix=HANGUP
// RUN: %run_aarch64 %t close 2 | FileCheck %S/pool-io-close.c --check-prefix=CLOSE
// RUN: %run_aarch64 %t outside 2 | FileCheck %S/pool-io-close.c --check-prefix=CLOSE
// RUN: %run_aarch64 %t otherpool 2 | FileCheck %S/pool-io-close.c --check-prefix=CLOSE
// RUN: %run_aarch64 %t closing 1 | FileCheck %S/pool-io-close.c --check-prefix=CLOSING
// RUN: %run_aarch64 %t closingreuse 1 | FileCheck %S/pool-io-close.c --check-prefix=CLOSING-REUSE
// RUN: %run_aarch64 %t closeinread 2 | FileCheck %S/pool-io-close.c --check-prefix=CLOSE-IN-READ
// RUN: %run_aarch64 %t epipe 2 | FileCheck %S/pool-io-close.c --check-prefix=EPIPE
// RUN: %run_aarch64 %t shutdown 2 | FileCheck %S/pool-io-close.c --check-prefix=SHUTDOWN
// RUN: %run_aarch64 %t close2 2 | FileCheck %S/pool-io-close.c --check-prefix=CLOSE2
// RUN: %run_aarch64 %t reuse 2 | FileCheck %S/pool-io-close.c --check-prefix=REUSE
// RUN: %run_aarch64 %t forever 2 | FileCheck %S/pool-io-close.c --check-prefix=CLOSE2
// RUN: %run_aarch64 %t reuseforever 2 | FileCheck %S/pool-io-close.c --check-prefix=CLOSE2
