// Register survival across cacs_yield on its slow path (cacs__yield_slow,
// the C switch taken while a coroutine has CACS_CORO_SAVE_FPENV, and always
// in an ASan build of the runtime). `holder` keeps many known values live
// (integer, FP; x87 on x86-64) across every yield while a trasher coroutine
// fills every register but the stack pointer with garbage before each of
// its yields. What cacs_yield promises a
// preserve_none caller must survive: the frame pointer register (compared
// before and after; the caller's compiler may also keep a value there), the
// stack, and each side's FP environment (the holder rounds down, the trasher
// toward zero).
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -lm -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lm -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -lm -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -lm -o %ta && %ta | FileCheck %s
// The runtime built with ASan takes the slow path for every yield, also
// without an FP environment:
// RUN: %clang -O1 -fsanitize=address -DNO_FPENV -I%cacs_include %s %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c %S/../../runtime/lib/yield_x86_64.S %S/../../runtime/lib/yield_aarch64.S %S/../../runtime/lib/instack_x86_64.S %S/../../runtime/lib/instack_aarch64.S -lm -o %tasan && %tasan | FileCheck %s
//
// CHECK: holder round 0 ok
// CHECK: holder round 1 ok
// CHECK: holder round 2 ok
// CHECK: trasher ran 3 times
// CHECK: PASS

#include "cacs/coro.h"

#include <fenv.h>
#include <stdint.h>
#include <stdio.h>

#include "Inputs/live-values.h"

static int trashes, stop, failures;

// Every register the compiler may hold a value in, but the stack and frame
// pointers, gets garbage; the trasher's compiler saved its own callee-saved
// registers in its prologue, so they stay garbage until its next yield.
static inline __attribute__((always_inline)) void trash(void) {
#if defined(__x86_64__)
  __asm__ volatile(
      "movabsq $0x5a5a5a5aa5a5a5a5, %%rax\n\t"
      "movq %%rax, %%rbx\n\t movq %%rax, %%rcx\n\t movq %%rax, %%rdx\n\t"
      "movq %%rax, %%rsi\n\t movq %%rax, %%rdi\n\t movq %%rax, %%r8\n\t"
      "movq %%rax, %%r9\n\t movq %%rax, %%r10\n\t movq %%rax, %%r11\n\t"
      "movq %%rax, %%r12\n\t movq %%rax, %%r13\n\t movq %%rax, %%r14\n\t"
      "movq %%rax, %%r15\n\t"
      "movq %%rax, %%xmm0\n\t pshufd $0x44, %%xmm0, %%xmm0\n\t"
      "movdqa %%xmm0, %%xmm1\n\t movdqa %%xmm0, %%xmm2\n\t"
      "movdqa %%xmm0, %%xmm3\n\t movdqa %%xmm0, %%xmm4\n\t"
      "movdqa %%xmm0, %%xmm5\n\t movdqa %%xmm0, %%xmm6\n\t"
      "movdqa %%xmm0, %%xmm7\n\t movdqa %%xmm0, %%xmm8\n\t"
      "movdqa %%xmm0, %%xmm9\n\t movdqa %%xmm0, %%xmm10\n\t"
      "movdqa %%xmm0, %%xmm11\n\t movdqa %%xmm0, %%xmm12\n\t"
      "movdqa %%xmm0, %%xmm13\n\t movdqa %%xmm0, %%xmm14\n\t"
      "movdqa %%xmm0, %%xmm15\n\t"
      :
      :
      : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11",
        "r12", "r13", "r14", "r15", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
        "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",
        "xmm13", "xmm14", "xmm15", "memory", "cc");
#elif defined(__aarch64__)
  __asm__ volatile(
      "movz x0, #0xa5a5\n\t movk x0, #0x5a5a, lsl #16\n\t"
      "movk x0, #0xa5a5, lsl #32\n\t movk x0, #0x5a5a, lsl #48\n\t"
      "mov x1, x0\n\t mov x2, x0\n\t mov x3, x0\n\t mov x4, x0\n\t"
      "mov x5, x0\n\t mov x6, x0\n\t mov x7, x0\n\t mov x8, x0\n\t"
      "mov x9, x0\n\t mov x10, x0\n\t mov x11, x0\n\t mov x12, x0\n\t"
      "mov x13, x0\n\t mov x14, x0\n\t mov x15, x0\n\t mov x16, x0\n\t"
      "mov x17, x0\n\t mov x18, x0\n\t mov x19, x0\n\t mov x20, x0\n\t mov x21, x0\n\t"
      "mov x22, x0\n\t mov x23, x0\n\t mov x24, x0\n\t mov x25, x0\n\t"
      "mov x26, x0\n\t mov x27, x0\n\t mov x28, x0\n\t"
      "dup v0.2d, x0\n\t dup v1.2d, x0\n\t dup v2.2d, x0\n\t dup v3.2d, x0\n\t"
      "dup v4.2d, x0\n\t dup v5.2d, x0\n\t dup v6.2d, x0\n\t dup v7.2d, x0\n\t"
      "dup v8.2d, x0\n\t dup v9.2d, x0\n\t dup v10.2d, x0\n\t dup v11.2d, x0\n\t"
      "dup v12.2d, x0\n\t dup v13.2d, x0\n\t dup v14.2d, x0\n\t dup v15.2d, x0\n\t"
      "dup v16.2d, x0\n\t dup v17.2d, x0\n\t dup v18.2d, x0\n\t dup v19.2d, x0\n\t"
      "dup v20.2d, x0\n\t dup v21.2d, x0\n\t dup v22.2d, x0\n\t dup v23.2d, x0\n\t"
      "dup v24.2d, x0\n\t dup v25.2d, x0\n\t dup v26.2d, x0\n\t dup v27.2d, x0\n\t"
      "dup v28.2d, x0\n\t dup v29.2d, x0\n\t dup v30.2d, x0\n\t dup v31.2d, x0\n\t"
      :
      :
      : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
        "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21",
        "x22", "x23", "x24", "x25", "x26", "x27", "x28", "v0", "v1", "v2",
        "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13",
        "v14", "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23",
        "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31", "memory", "cc");
#endif
}

// cacs_yield with garbage in the frame pointer register too (the runtime's
// preserve_none entry, called from asm: the compiler would not let us
// clobber the frame pointer around a call).
static inline __attribute__((always_inline)) void yield_bad_fp(void) {
#if defined(__x86_64__)
  __asm__ volatile("pushq %%rbp\n\t"
                   "subq $8, %%rsp\n\t"
                   "movabsq $0x5a5a5a5aa5a5a5a5, %%rbp\n\t"
                   "callq cacs__yield_pn\n\t"
                   "addq $8, %%rsp\n\t"
                   "popq %%rbp"
                   :
                   :
                   : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9",
                     "r10", "r11", "r12", "r13", "r14", "r15", "xmm0", "xmm1",
                     "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",
                     "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14",
                     "xmm15", "st", "st(1)", "st(2)", "st(3)", "st(4)",
                     "st(5)", "st(6)", "st(7)", "memory", "cc");
#elif defined(__aarch64__)
  __asm__ volatile("stp x29, x30, [sp, #-16]!\n\t"
                   "movz x29, #0xa5a5\n\t"
                   "movk x29, #0x5a5a, lsl #16\n\t"
                   "bl cacs__yield_pn\n\t"
                   "ldp x29, x30, [sp], #16"
                   :
                   :
                   : "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8",
                     "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
                     "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25",
                     "x26", "x27", "x28", "v0", "v1", "v2", "v3", "v4", "v5",
                     "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14",
                     "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22",
                     "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30",
                     "v31", "memory", "cc");
#endif
}

static void trasher(void *arg) {
  (void)arg;
  fesetround(FE_TOWARDZERO); // its own environment (CACS_CORO_SAVE_FPENV)
  while (!stop) {
    ++trashes;
    trash();
    yield_bad_fp();
  }
}

volatile uint64_t seed = 0x0123456789abcdefull;
volatile double dseed = 1.25;

static void check(const char *what, int i, int ok) {
  if (!ok) {
    printf("FAIL %s[%d] clobbered\n", what, i);
    ++failures;
  }
}

__attribute__((noinline)) static void holder(int round) {
  LIVE_VALUES_DEFINE(seed, dseed);
  // The frame pointer register, which a preserve_none callee preserves,
  // read before and after (volatile: the two reads cannot be merged).
  void *fp0, *fp1;
#if defined(__x86_64__)
#define READ_FP(v) __asm__ volatile("movq %%rbp, %0" : "=r"(v))
#else
#define READ_FP(v) __asm__ volatile("mov %0, x29" : "=r"(v))
#endif
  READ_FP(fp0);
  cacs_yield(); // to the trasher and back, through cacs__yield_slow
  READ_FP(fp1);
  LIVE_VALUES_CHECK(seed, dseed, check);
  check("frame pointer", 0, fp0 == fp1);
  // Rounding: 1/3 rounded down and toward zero agree, so divide -1 by 3.
  volatile double minus_one = -1.0, three = 3.0;
  volatile double third_down = minus_one / three; // before fesetround
  int round_ok = fegetround() == FE_DOWNWARD;
#ifndef NO_FPENV
  fesetround(FE_TONEAREST);
  volatile double third_near = minus_one / three;
  check("rounding mode", 0, round_ok && third_down != third_near);
  fesetround(FE_DOWNWARD);
#else
  (void)round_ok, (void)third_down;
#endif
  printf("holder round %d %s\n", round, failures ? "FAILED" : "ok");
}

int main(void) {
#ifdef NO_FPENV
  cacs_coro *t = cacs_create(trasher, NULL, 0);
#else
  cacs_coro_attr attr = {0, 0, CACS_CORO_SAVE_FPENV, "trasher"};
  cacs_coro *t = cacs_create_ex(trasher, NULL, &attr);
  fesetround(FE_DOWNWARD);
#endif
  for (int r = 0; r < 3; ++r)
    holder(r);
  stop = 1;
  cacs_join(t);
  printf("trasher ran %d times\n", trashes);
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
