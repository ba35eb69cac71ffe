// The bounds hold: every entry of the program's table runs on a stack
// filled with a pattern, and uses no more of it, below the stack pointer of
// its call, than its bound says. Shapes that are easy to get wrong: a leaf
// in the x86-64 red zone, a deep frame, arguments on the stack, an
// over-aligned frame (x86-64 realigns; AArch64 has no bound there).
// RUN: rm -rf %t && mkdir %t
// RUN: for O in -O0 -O2; do \
// RUN:   %clang $O -fcacs-stack-bounds %S/Inputs/measured.c -o %t/prog && \
// RUN:   %t/prog | FileCheck %s --check-prefixes=CHECK,X86 || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ for O in -O0 -O2; do \
// RUN:   %clang %aarch64_flags $O -fcacs-stack-bounds %S/Inputs/measured.c -o %t/a64 && \
// RUN:   %run_aarch64 %t/a64 | FileCheck %s --check-prefixes=CHECK,A64 || exit 1; \
// RUN: done %}

// CHECK-NOT: OVERFLOW
// CHECK: red_zone: bound {{[0-9]+}}, used {{[0-9]+}}{{$}}
// CHECK-NEXT: chain: bound {{[0-9]+}}, used {{[0-9]+}}{{$}}
// CHECK-NEXT: stack_args: bound {{[0-9]+}}, used {{[0-9]+}}{{$}}
// X86-NEXT: aligned: bound {{[0-9]+}}, used {{[0-9]+}}{{$}}
// X86-NEXT: 4 entries
// A64-NEXT: 3 entries
