// A function list whose glob also matches a C library function: the README's
// own example entry `fun:sched_*` (for a coroutine scheduler's sched_step)
// matches glibc's sched_getaffinity and sched_yield as well, which this
// program declares through <sched.h>. The list gives the declarations
// preserve_none, so every call of them passes its arguments in preserve_none's
// registers (x86-64: r12, r13, r14; AArch64: x20, x21, x22) to a C library
// compiled with the C convention: sched_getaffinity reads garbage and fails,
// silently (no diagnostic, exit status 0), at -O0 and -O2, on both targets and
// both LLVMs. Found by the red team's real-code runs (a list naming qsort
// turns mawk's for-in loops into a crash the same way).
//
// Functions declared in system headers never match a glob (the clang plugin
// marks them for the list pass), so the calls stay C calls and the program
// prints what stock clang -O0 prints, while sched_step, which the entry is
// meant for, takes the convention.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:sched_*' > %t/list
// RUN: %stock_clang -O0 %s -o %t/ref && %t/ref > %t/expected
// RUN: %clang -O2 -fpreserve-none-list=%t/list %s -o %t/o2
// RUN: %t/o2 > %t/o2.out && diff %t/expected %t/o2.out
// RUN: %clang -O0 -fpreserve-none-list=%t/list %s -o %t/o0
// RUN: %t/o0 > %t/o0.out && diff %t/expected %t/o0.out
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fpreserve-none-list=%t/list %s -o %t/a64 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected %t/a64.out %}
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>

static int steps;
void sched_step(void) { steps++; } // the function the entry is meant for

int main(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  int r = sched_getaffinity(0, sizeof set, &set);
  sched_step();
  int y = sched_yield();
  printf("sched_getaffinity %d, some cpu %d, sched_yield %d, steps %d\n", r,
         CPU_COUNT(&set) > 0, y, steps);
  return 0;
}
