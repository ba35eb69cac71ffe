// setjmp.c on AArch64 (qemu).
//
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none -Rpass=auto-preserve-none -c %S/setjmp.c -o /dev/null 2>&1 \
// RUN:   | FileCheck %S/setjmp.c --check-prefix=REMARK
// RUN: %clang %aarch64_flags -O0 %S/setjmp.c -o %t.off0 && %run_aarch64 %t.off0 | FileCheck %S/setjmp.c
// RUN: %clang %aarch64_flags -O2 %S/setjmp.c -o %t.off2 && %run_aarch64 %t.off2 | FileCheck %S/setjmp.c
// RUN: %clang %aarch64_flags -O0 -fauto-preserve-none %S/setjmp.c -o %t.on0 && %run_aarch64 %t.on0 | FileCheck %S/setjmp.c
// RUN: %clang %aarch64_flags -O1 -fauto-preserve-none %S/setjmp.c -o %t.on1 && %run_aarch64 %t.on1 | FileCheck %S/setjmp.c
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none %S/setjmp.c -o %t.on2 && %run_aarch64 %t.on2 | FileCheck %S/setjmp.c
// RUN: %clang %aarch64_flags -O3 -fauto-preserve-none %S/setjmp.c -o %t.on3 && %run_aarch64 %t.on3 | FileCheck %S/setjmp.c
