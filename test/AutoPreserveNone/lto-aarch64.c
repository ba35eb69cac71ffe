// lto.c on AArch64 (qemu): the cross-TU function is infected at link time
// and the program runs the same.
//
// REQUIRES: qemu-aarch64
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang %aarch64_flags -O2 -flto -fauto-preserve-none -c %S/lto.c -o %t/main.o
// RUN: %clang %aarch64_flags -O2 -flto -fauto-preserve-none -c %S/Inputs/lto-other.c -o %t/other-on.o
// RUN: %clang %aarch64_flags -O2 -flto %t/main.o %t/other-on.o -o %t/on -Wl,--save-temps
// RUN: %run_aarch64 %t/on | FileCheck %S/lto.c
// RUN: llvm-dis %t/on.0.5.precodegen.bc -o - | FileCheck %S/lto.c --check-prefix=ON-IR
