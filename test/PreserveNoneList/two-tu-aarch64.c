// two-tu-x86_64.c for AArch64, run under qemu: with preserve_none the
// arguments go in x20, x21, ... instead of x0, x1, ...; a disagreement
// between the two units gives wrong numbers.
// REQUIRES: qemu-aarch64
//
// RUN: rm -rf %t && mkdir %t
// RUN: for O in -O0 -O2; do \
// RUN:   %clang %aarch64_flags $O -c %S/Inputs/two-tu-def.c -o %t/def.o -fpreserve-none-list=%S/Inputs/two-tu.list -fno-preserve-none-list-export-warning && \
// RUN:   %clang %aarch64_flags $O -c %S/Inputs/two-tu-use.c -o %t/use.o -fpreserve-none-list=%S/Inputs/two-tu.list && \
// RUN:   %clang %aarch64_flags %t/def.o %t/use.o -o %t/prog && %run_aarch64 %t/prog | FileCheck %S/two-tu-x86_64.c || exit 1; \
// RUN: done
// RUN: %clang %aarch64_flags -O2 -S -emit-llvm %S/Inputs/two-tu-use.c -o - -fpreserve-none-list=%S/Inputs/two-tu.list | FileCheck %s --check-prefix=IR
// IR: call preserve_nonecc i64 @mix8.preserve_none_list(
// IR: ptr @apply{{[,)]}}
