// Two translation units compiled with the same list agree: the definitions
// and the calls are preserve_none (arguments in r12, r13, ... instead of rdi,
// rsi, ...; a disagreement gives wrong numbers), the address of a listed
// function is its plain name, a C entry, the same in both units.
//
// RUN: rm -rf %t && mkdir %t
// RUN: for O in -O0 -O2; do \
// RUN:   %clang $O -c %S/Inputs/two-tu-def.c -o %t/def.o -fpreserve-none-list=%S/Inputs/two-tu.list -fno-preserve-none-list-export-warning && \
// RUN:   %clang $O -c %S/Inputs/two-tu-use.c -o %t/use.o -fpreserve-none-list=%S/Inputs/two-tu.list && \
// RUN:   %clang %t/def.o %t/use.o -o %t/prog && %t/prog | FileCheck %s || exit 1; \
// RUN: done
// The calls really are preserve_none:
// RUN: %clang -O2 -S -emit-llvm %S/Inputs/two-tu-use.c -o - -fpreserve-none-list=%S/Inputs/two-tu.list | FileCheck %s --check-prefix=IR
// IR: call preserve_nonecc i64 @mix8.preserve_none_list(
// IR: ptr @apply{{[,)]}}

// CHECK: mix8 87654321
// CHECK-NEXT: fiber_step 6.5
// CHECK-NEXT: apply 26
// CHECK-NEXT: pointer 37
// CHECK-NEXT: same address 1
