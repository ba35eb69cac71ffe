// AddressSanitizer runs after the cacs passes of a compile (clang registers
// it after the plugin's OptimizerLast passes) and gives a frame with locals
// a 32-byte aligned frame of its own, addressed through rbx (x86-64) or x19
// (AArch64) when the function realigns. A preserve_none callee may clobber
// that register: a caller addressed its frame through it across an
// unshielded call and died (defect 6 of issue 11: x86-64 LLVM 19, AArch64 19
// and 22), and -O0 -fauto-preserve-none stopped with a fatal error (defect
// 7: APN infected functions that ASan later gave an aligned dynamic frame).
// cacs counts sanitize_address functions with locals as "may get a dynamic
// stack", so such calls are shielded and such functions are not infected.
// The output must be stock clang -O0's without the attribute.
//
// RUN: %stock_clang -O0 -DREFERENCE %s -o %t.ref && %t.ref > %t.expected
// RUN: %clang -O0 -fsanitize=address %s -o %t.a0 && %t.a0 > %t.a0.out && diff %t.expected %t.a0.out
// RUN: %clang -O2 -fsanitize=address %s -o %t.a2 && %t.a2 > %t.a2.out && diff %t.expected %t.a2.out
// RUN: %clang -O0 -fsanitize=address -fauto-preserve-none %s -o %t.apn0 && %t.apn0 > %t.apn0.out && diff %t.expected %t.apn0.out
// RUN: %clang -O2 -fsanitize=address -fauto-preserve-none %s -o %t.apn2 && %t.apn2 > %t.apn2.out && diff %t.expected %t.apn2.out
//
// AArch64: the frame, checked in the assembly (ASan under qemu is not run):
// the caller realigns and uses x19, and calls the shield, not the function.
// RUN: %clang %aarch64_flags -O2 -fsanitize=address -S %s -o - | FileCheck %s --check-prefix=A64
// A64-LABEL: caller:
// A64: mov x19, sp
// A64: bl {{.*}}clobber.cacs.shield
// A64-LABEL: .Lfunc_end
#include <stdio.h>
#include <string.h>

#ifdef REFERENCE
#define PN
#else
#define PN __attribute__((preserve_none))
#endif

// Clobbers every callee-saved register, as any preserve_none function may.
PN __attribute__((noinline)) long clobber(long x) {
#if defined(__x86_64__)
  __asm__ volatile("" ::: "rbx", "r12", "r13", "r14", "r15", "memory");
  __asm__ volatile("movq $0, %%rbx" ::: "rbx");
#elif defined(__aarch64__)
  __asm__ volatile("mov x19, #0" ::: "x19", "x20", "x21", "x22", "x23", "x24",
                   "x25", "x26", "x27", "x28", "memory");
#endif
  return x + 1;
}

__attribute__((noinline)) void fill(char *p, int n) { memset(p, 'a', n); }

__attribute__((noinline)) long caller(long x) {
  char buf[40];
  fill(buf, sizeof buf);
  long r = clobber(x);
  buf[39] = 0;
  return r + (long)strlen(buf);
}

// APN would infect this one (static, calls preserve_none).
__attribute__((noinline)) static long infected(long x) {
  char buf[40];
  fill(buf, sizeof buf);
  buf[10] = 0;
  return clobber(x) + (long)strlen(buf);
}

int main(void) {
  printf("%ld %ld\n", caller(1), infected(2));
  return 0;
}
