// Functions that APN makes preserve_none (they call apn_switch) and a list
// of every function, across the less common ways in and out: x86-64's
// __builtin_setjmp/__builtin_longjmp (SjLj: only the frame and stack
// pointers are saved) out of two infected levels into a C function and into
// an infected one; a target_clones function (its resolver calls libgcc's
// __cpu_indicator_init on x86-64, compiler-rt's feature check on AArch64);
// an ifunc. Also built with -mgeneral-regs-only (no target_clones there).
// Every build prints what stock clang -O0 prints, on x86-64 and AArch64.
//
// RUN: rm -rf %t && mkdir %t
// RUN: echo 'fun:*' > %t/list
// RUN: %clang -O2 -fauto-preserve-none -Rpass=auto-preserve-none -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: made 'deep' preserve_none
// REMARK-DAG: made 'tc_caller' preserve_none
// REMARK-DAG: made 'ifunc_caller' preserve_none
// RUN: %stock_clang -O0 %s -o %t/ref && %t/ref > %t/expected
// RUN: for M in "-O0 -fauto-preserve-none" "-O2 -fauto-preserve-none" "-O2 -flto -fauto-preserve-none" \
// RUN:          "-O0 -fpreserve-none-list=%t/list" "-O2 -fpreserve-none-list=%t/list" \
// RUN:          "-O2 -fauto-preserve-none -mgeneral-regs-only -DNO_TC" "-O2 -fpreserve-none-list=%t/list -mgeneral-regs-only -DNO_TC"; do \
// RUN:   %clang $M %s -o %t/prog && %t/prog > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O0 %s -o %t/ref-a64 && %run_aarch64 %t/ref-a64 > %t/expected-a64 && \
// RUN:   for M in "-O0 -fauto-preserve-none" "-O2 -fauto-preserve-none" "-O2 -fpreserve-none-list=%t/list" \
// RUN:            "-O2 -fauto-preserve-none -mgeneral-regs-only -DNO_TC" "-O0 -fpreserve-none-list=%t/list -mgeneral-regs-only -DNO_TC"; do \
// RUN:   %clang %aarch64_flags $M %s -o %t/a64 && %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected-a64 %t/a64.out || exit 1; \
// RUN: done %}
#include <stdio.h>
// The seed: writes garbage into the integer registers the C convention
// calls callee-saved (no FP register: the unit may be built with
// -mgeneral-regs-only).
volatile long apn_sink;
__attribute__((preserve_none, noinline)) void apn_switch(long v) {
#if defined(__x86_64__)
  __asm__ volatile("movq $0x5a5a5a5a, %%rbx\n\tmovq %%rbx, %%r12\n\t"
                   "movq %%rbx, %%r13\n\tmovq %%rbx, %%r14\n\tmovq %%rbx, %%r15"
                   ::: "rbx", "r12", "r13", "r14", "r15", "memory");
#else
  __asm__ volatile("mov x19, #0x5a5a\n\tmov x20, x19\n\tmov x21, x19\n\t"
                   "mov x22, x19\n\tmov x23, x19\n\tmov x24, x19\n\t"
                   "mov x25, x19\n\tmov x26, x19\n\tmov x27, x19\n\tmov x28, x19"
                   ::: "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26",
                       "x27", "x28", "memory");
#endif
  apn_sink = v;
}
#define NI __attribute__((noinline))
static volatile long one = 1;
#define K(n) ((n) * one)
#ifdef __x86_64__
#define TC_ALT "arch=x86-64-v3"
#define HAVE_BSJ 1
#else
#define TC_ALT "sve2"
#define HAVE_BSJ 0
#define __builtin_setjmp(b) 0
#define __builtin_longjmp(b, v) __builtin_trap()
#endif
static void *bjb[5];
NI static long deep(long a, long b, long c, long d, long e, long f, long g, long h, long i, long j, long k, long l) {
  apn_switch(a);
  if (a + l > 3) __builtin_longjmp(bjb, 1);
  return a + b + c + d + e + f + g + h + i + j + k + l;
}
NI static long mid(long s) { apn_switch(s); long r = deep(s, K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9), K(10), K(11), K(12)); apn_switch(r); return r + 1; }
NI static long top(long s) {
  volatile long keep = s * 7;
  long x = s * 13, y = s ^ 0x77, z = s + 1000;
  if (__builtin_setjmp(bjb) == 0) { long r = mid(s); return r + x + y + z; }
  return -(keep + x + y + z);
}
NI static long bsetjmp_in_apn(long s) {
  apn_switch(s);
  long x = s * 3, y = s * 5, z = s * 11, w = s * 17;
  if (__builtin_setjmp(bjb) == 0) { apn_switch(x); long r = mid(s); return r + x + y + z + w; }
  return -(x + y + z + w);
}
#ifndef NO_TC
__attribute__((target_clones("default", TC_ALT)))
#endif
static long tc(long a, long b, long c, long d, long e, long f, long g, long h, long i, long j, long k, long l) {
  apn_switch(a); return a * 2 + b * 3 + c + d + e + f + g + h + i + j + k * 5 + l * 7;
}
NI static long tc_caller(long s) { apn_switch(s); return tc(s, K(2), K(3), K(4), K(5), K(6), K(7), K(8), K(9), K(10), K(11), K(12)) + s; }
static long impl(long a, long b) { return a * 100 + b; }
static long (*resolve(void))(long, long) { return impl; }
long viaifunc(long, long) __attribute__((ifunc("resolve")));
NI static long ifunc_caller(long s) { apn_switch(s); long x = s * 9, y = s * 4; long r = viaifunc(s, K(3)); apn_switch(r); return r + x + y; }
int main(int argc, char **argv) {
  (void)argv; long s = argc;
  if (HAVE_BSJ) printf("top %ld %ld\n", top(s), top(s + 5));
  if (HAVE_BSJ) printf("bsj %ld %ld\n", bsetjmp_in_apn(s), bsetjmp_in_apn(s + 5));
  printf("tc %ld\n", tc_caller(s));
  printf("ifunc %ld\n", ifunc_caller(s));
  return 0;
}
