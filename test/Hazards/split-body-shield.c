// A listed function whose frame is realigned and dynamic (a VLA beside an
// over-aligned local, or any local once AddressSanitizer instruments it) is
// split by the final check: its body moves into a C-convention function
// `<name>.cacs.body`, which addresses its frame through the base pointer (rbx
// on x86-64). The calls the body makes to preserve_none functions, which may
// clobber rbx, must go through a shield as any such caller's do; the bodies
// were made after the final check had listed the functions whose calls it
// visits, so they were not visited: on x86-64 with LLVM 19 the body read its
// locals through rbx = 0 after the call and crashed (found building mawk with
// -fsanitize=address and a list of all its functions; LLVM 22 saves the base
// pointer around such calls itself). The output must be stock clang -O0's.
//
// RUN: rm -rf %t && mkdir %t
// RUN: printf 'fun:clobber\nfun:caller\n' > %t/list
// RUN: %stock_clang -O0 %s -o %t/ref && %t/ref > %t/expected
// RUN: %clang -O2 -fpreserve-none-list=%t/list %s -o %t/o2
// RUN: %t/o2 > %t/o2.out && diff %t/expected %t/o2.out
// RUN: %clang -O2 -fsanitize=address -fpreserve-none-list=%t/list %s -o %t/asan
// RUN: %t/asan > %t/asan.out && diff %t/expected %t/asan.out
// LLVM 19 splits caller (LLVM 22 lowers its frame under preserve_none); the
// split body calls the shield, not clobber itself:
// RUN: %if llvm-19 %{ %clang -O2 -fsanitize=address -fpreserve-none-list=%t/list -S %s -o - | FileCheck %s %}
// CHECK-LABEL: .Lcaller.preserve_none_list.cacs.body:
// CHECK-NOT: callq clobber
// CHECK: callq {{.*}}clobber.preserve_none_list.cacs.shield
// CHECK-LABEL: .Lfunc_end
//
// AArch64 (the frame without ASan, under qemu):
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fpreserve-none-list=%t/list %s -o %t/a64 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected %t/a64.out %}
#include <stdio.h>
#include <string.h>

// Clobbers every callee-saved register, as any preserve_none function may.
__attribute__((noinline)) long clobber(long x) {
#if defined(__x86_64__)
  __asm__ volatile("movq $0, %%rbx" ::: "rbx", "r12", "r13", "r14", "r15",
                   "memory");
#elif defined(__aarch64__)
  __asm__ volatile("mov x19, #0" ::: "x19", "x20", "x21", "x22", "x23", "x24",
                   "x25", "x26", "x27", "x28", "memory");
#endif
  return x + 1;
}

__attribute__((noinline)) void fill(char *p, int n) { memset(p, 'a', n); }

// A dynamic (the VLA) and realigned (the over-aligned local) frame.
__attribute__((noinline)) long caller(long x, int n) {
  char vla[n];
  _Alignas(64) char buf[40];
  fill(buf, sizeof buf);
  fill(vla, n);
  long r = clobber(x);
  buf[39] = 0;
  vla[n - 1] = 0;
  return r + (long)strlen(buf) + (long)strlen(vla);
}

volatile int len = 24;

int main(void) {
  printf("%ld\n", caller(1, len));
  return 0;
}
