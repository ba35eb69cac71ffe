// live-values.c on AArch64 (qemu): with x19-x28 and d8-d15 wiped by the
// preserve_none function, infected callers keep their values, at -O0 to -O3,
// with and without -fauto-preserve-none.
//
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O1 -fauto-preserve-none -Rpass=auto-preserve-none -c %S/live-values.c -o /dev/null 2>&1 \
// RUN:   | FileCheck %S/live-values.c --check-prefix=REMARK
// RUN: %clang %aarch64_flags -O0 %S/live-values.c -o %t.off0 && %run_aarch64 %t.off0 | FileCheck %S/live-values.c
// RUN: %clang %aarch64_flags -O2 %S/live-values.c -o %t.off2 && %run_aarch64 %t.off2 | FileCheck %S/live-values.c
// RUN: %clang %aarch64_flags -O0 -fauto-preserve-none %S/live-values.c -o %t.on0 && %run_aarch64 %t.on0 | FileCheck %S/live-values.c
// RUN: %clang %aarch64_flags -O1 -fauto-preserve-none %S/live-values.c -o %t.on1 && %run_aarch64 %t.on1 | FileCheck %S/live-values.c
// RUN: %clang %aarch64_flags -O2 -fauto-preserve-none %S/live-values.c -o %t.on2 && %run_aarch64 %t.on2 | FileCheck %S/live-values.c
// RUN: %clang %aarch64_flags -O3 -fauto-preserve-none %S/live-values.c -o %t.on3 && %run_aarch64 %t.on3 | FileCheck %S/live-values.c
