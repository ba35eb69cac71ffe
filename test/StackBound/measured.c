// The bounds hold: every entry of the program's table runs on a stack
// filled with a pattern, and uses no more of it, below the stack pointer of
// its call, than its bound says. Shapes that are easy to get wrong: a leaf
// in the x86-64 red zone, a deep frame, arguments on the stack, an
// over-aligned frame (x86-64 realigns; AArch64 has no bound there), a
// shrink-wrapped frame (its saves after an early exit: at -O2 its bound is
// the bytes written plus the leaf's red zone, not a byte more), the same
// reached by a tail call (one return address for the two functions).
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O0 -fcacs-stack-bounds %S/Inputs/measured.c -o %t/prog
// RUN: %t/prog | FileCheck %s --check-prefixes=CHECK,X86,O0
// RUN: %clang -O2 -fcacs-stack-bounds %S/Inputs/measured.c -o %t/prog
// RUN: %t/prog | FileCheck %s --check-prefixes=CHECK,X86,O2
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O0 -fcacs-stack-bounds %S/Inputs/measured.c -o %t/a64 && \
// RUN:   %run_aarch64 %t/a64 | FileCheck %s --check-prefixes=CHECK,A64,O0 %}
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O2 -fcacs-stack-bounds %S/Inputs/measured.c -o %t/a64 && \
// RUN:   %run_aarch64 %t/a64 | FileCheck %s --check-prefixes=CHECK,A64,O2 %}
//
// Breaking it: session 39's walk (the shrink-wrapped saves counted as
// decrements after the prologue and again in the frame size; AArch64's
// pre-indexed pair's offset scaled by 16, not 8) gives "margin over the red
// zone 40" on x86-64 and 80 on AArch64 at -O2; a tail call's target
// counted below its caller's whole frame (its return address twice):
// tail_call's margin 8 on x86-64.

// CHECK-NOT: OVERFLOW
// CHECK-DAG: red_zone: bound {{[0-9]+}}, used {{[0-9]+}}{{$}}
// CHECK-DAG: chain: bound {{[0-9]+}}, used {{[0-9]+}}{{$}}
// CHECK-DAG: stack_args: bound {{[0-9]+}}, used {{[0-9]+}}{{$}}
// CHECK-DAG: shrink_wrapped: bound {{[0-9]+}}, used {{[0-9]+}}{{$}}
// CHECK-DAG: tail_call: bound {{[0-9]+}}, used {{[0-9]+}}{{$}}
// X86-DAG: aligned: bound {{[0-9]+}}, used {{[0-9]+}}{{$}}
// X86: 6 entries
// A64: 5 entries
// O0-NEXT: shrink_wrapped: margin over the red zone {{[0-9]+}}{{$}}
// O0-NEXT: tail_call: margin over the red zone {{[0-9]+}}{{$}}
// O2-NEXT: shrink_wrapped: margin over the red zone 0{{$}}
// O2-NEXT: tail_call: margin over the red zone 0{{$}}
