// base-pointer.c on AArch64 (qemu), where the base pointer x19 is needed
// without any realignment.
//
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -Rpass-missed=auto-preserve-none -c %S/base-pointer.c -o /dev/null 2>&1 \
// RUN:   | FileCheck %S/base-pointer.c --check-prefix=REMARK19
// RUN: %clang %aarch64_flags -O2 %S/base-pointer.c -o %t.off && %run_aarch64 %t.off | FileCheck %S/base-pointer.c
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none %S/base-pointer.c -o %t.on && %run_aarch64 %t.on | FileCheck %S/base-pointer.c
// RUN: %clang %aarch64_flags -O0 -fauto-preserve-none %S/base-pointer.c -o %t.on0 && %run_aarch64 %t.on0 | FileCheck %S/base-pointer.c
