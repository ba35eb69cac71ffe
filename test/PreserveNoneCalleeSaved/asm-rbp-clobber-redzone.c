// Why cacs/switch.h saves rbp by hand instead of declaring it clobbered:
// LLVM 22 pushes the frame pointer around an inline asm that clobbers rbp,
// and in a function without calls (whose locals live in the red zone, below
// sp) the push lands on a spilled local. Stock clang 22 at -O2 with frame
// pointers returns garbage here, silently; -O0 (and LLVM 19) return 42.
// When this test fails, upstream has fixed it and the switch may stop
// storing rbp (one store per switch: sumseq 30 -> 28 instructions/value).
// REQUIRES: llvm-22
// RUN: %stock_clang -O0 %s -o %t0 && %t0 | FileCheck %s --check-prefix=GOOD
// RUN: %stock_clang -O2 -fno-omit-frame-pointer %s -o %t2 && %t2 | FileCheck %s --check-prefix=BAD
// RUN: %stock_clang -O2 -fno-omit-frame-pointer -S %s -o - | FileCheck %s --check-prefix=ASM
// GOOD: 42
// BAD-NOT: {{^}}42{{$}}
// ASM-LABEL: leaf:
// ASM: movq %rax, -48(%rbp)
// ASM-NEXT: pushq %rbp

#include <stdio.h>

__attribute__((noinline)) long leaf(long *p, long *q) {
  long a = *p, b = *q;
  __asm__ volatile("" ::: "rbp", "rbx", "r12", "r13", "r14", "r15", "rcx",
                   "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "rax",
                   "memory");
  return a + b;
}

int main(void) {
  long x = 40, y = 2;
  printf("%ld\n", leaf(&x, &y));
  return 0;
}
