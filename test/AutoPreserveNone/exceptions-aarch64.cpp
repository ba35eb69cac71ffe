// exceptions.cpp on AArch64 (qemu).
//
// REQUIRES: qemu-aarch64
// RUN: %clangxx %aarch64_flags -O2 -fauto-preserve-none -Rpass=auto-preserve-none -c %S/exceptions.cpp -o /dev/null 2>&1 \
// RUN:   | FileCheck %S/exceptions.cpp --check-prefix=REMARK
// RUN: %clangxx %aarch64_flags -O0 %S/exceptions.cpp -o %t.off0 && %run_aarch64 %t.off0 | FileCheck %S/exceptions.cpp
// RUN: %clangxx %aarch64_flags -O2 %S/exceptions.cpp -o %t.off2 && %run_aarch64 %t.off2 | FileCheck %S/exceptions.cpp
// RUN: %clangxx %aarch64_flags -O0 -fauto-preserve-none %S/exceptions.cpp -o %t.on0 && %run_aarch64 %t.on0 | FileCheck %S/exceptions.cpp
// RUN: %clangxx %aarch64_flags -O1 -fauto-preserve-none %S/exceptions.cpp -o %t.on1 && %run_aarch64 %t.on1 | FileCheck %S/exceptions.cpp
// RUN: %clangxx %aarch64_flags -O2 -fauto-preserve-none %S/exceptions.cpp -o %t.on2 && %run_aarch64 %t.on2 | FileCheck %S/exceptions.cpp
// RUN: %clangxx %aarch64_flags -O3 -fauto-preserve-none %S/exceptions.cpp -o %t.on3 && %run_aarch64 %t.on3 | FileCheck %S/exceptions.cpp
