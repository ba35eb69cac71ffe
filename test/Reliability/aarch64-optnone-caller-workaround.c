// The other way around the AArch64 FastISel preserve_none bug (see
// aarch64-optnone-caller.c; cacs now shields the calls itself): with
// FastISel off, the optnone caller passes
// the arguments in x20, x21, x22, per TU and at the LTO link.
// REQUIRES: qemu-aarch64
// RUN: %clang %aarch64_flags -O2 -mllvm -fast-isel=false %S/aarch64-optnone-caller.c -o %t.o2
// RUN: %run_aarch64 %t.o2 | FileCheck %S/aarch64-optnone-caller.c
// RUN: %clang %aarch64_flags -O0 -flto -DNO_OPTNONE -c %S/aarch64-optnone-caller.c -o %t.lto.o
// RUN: %clang %aarch64_flags -O2 -flto -Wl,-mllvm,-fast-isel=false %t.lto.o -o %t.lto
// RUN: %run_aarch64 %t.lto | FileCheck %S/aarch64-optnone-caller.c
