// A function with an over-aligned local and a variable-length array addresses
// its frame through a base pointer (rbx on x86-64, x19 on AArch64). A
// preserve_none callee may clobber that register, and LLVM 19 (x86-64) and
// LLVM 19 and 22 (AArch64) reload through it after the call. cacs routes such
// calls through a shield that saves it; the program must print the right sum.
//
// The stock compiler shows the miscompile this guards against (the callee
// really clobbers the base pointer, so the caller reads garbage or crashes):
// RUN: %stock_clang -O2 %s -o %t.stock
// RUN: { %t.stock || true; } > %t.stock.out 2>&1
// RUN: %if llvm-19 %{ not FileCheck %s --input-file %t.stock.out %} %else %{ FileCheck %s --input-file %t.stock.out %}
//
// RUN: %clang -O0 %s -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 %s -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O2 -fno-omit-frame-pointer %s -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none %s -o %t4 && %t4 | FileCheck %s
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O2 %s -o %t.a64.stock %}
// RUN: %if qemu-aarch64 %{ { %run_aarch64 %t.a64.stock || true; } > %t.a64.stock.out 2>&1 %}
// RUN: %if qemu-aarch64 %{ not FileCheck %s --input-file %t.a64.stock.out %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 %s -o %t.a64 && %run_aarch64 %t.a64 | FileCheck %s %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O0 %s -o %t.a64.0 && %run_aarch64 %t.a64.0 | FileCheck %s %}
//
// CHECK: sum=4950 aligned=64
// CHECK-NEXT: sum=4950 locals=1

#include <stdint.h>
#include <stdio.h>
#include <string.h>

// Clobbers the base-pointer register, as any preserve_none function may.
__attribute__((preserve_none, noinline)) void clobber(void) {
#if defined(__x86_64__)
  __asm__ volatile("movq $0x10, %%rbx" ::: "rbx", "memory");
#elif defined(__aarch64__)
  __asm__ volatile("mov x19, #0x10" ::: "x19", "memory");
#endif
}

__attribute__((noinline)) long frame_with_base_pointer(int n) {
  _Alignas(64) char aligned[64];
  long vla[n];
  memset(aligned, 1, sizeof aligned);
  for (int i = 0; i < n; i++)
    vla[i] = i;
  __asm__ volatile("" ::"r"(aligned), "r"(vla) : "memory");
  clobber();
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += vla[i];
  int ok = ((uintptr_t)aligned % 64 == 0) && aligned[63] == 1;
  printf("sum=%ld aligned=%d\n", sum, ok ? 64 : 0);
  return sum;
}

// AArch64 also uses x19 as base pointer for a variable-sized object with 256
// bytes of locals or more, without any realignment.
__attribute__((noinline)) long large_frame_with_vla(int n) {
  char locals[300];
  long vla[n];
  memset(locals, 1, sizeof locals);
  for (int i = 0; i < n; i++)
    vla[i] = i;
  __asm__ volatile("" ::"r"(locals), "r"(vla) : "memory");
  clobber();
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += vla[i];
  printf("sum=%ld locals=%d\n", sum, locals[299]);
  return sum;
}

int main(void) {
  return frame_with_base_pointer(100) + large_frame_with_vla(100) == 9900 ? 0
                                                                           : 1;
}
