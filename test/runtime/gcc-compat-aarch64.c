// gcc-compat.c built by the AArch64 cross gcc against the clang-built
// AArch64 libcacs, under qemu.
// REQUIRES: gcc, qemu-aarch64
// RUN: command -v aarch64-linux-gnu-gcc >/dev/null || exit 0; \
// RUN:   aarch64-linux-gnu-gcc -O2 -I%cacs_include %S/gcc-compat.c %cacs_rt_aarch64 -o %t && %run_aarch64 %t | FileCheck %S/gcc-compat.c
