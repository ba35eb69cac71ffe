// What the register-survival tests of the scheduler's switches share
// (yield-slow-registers.c, park-registers.c): a trasher coroutine calls
// trash() right before yield_bad_fp(), which switches away with garbage in
// the frame pointer register too, so that whatever a resumed coroutine
// finds in a register its switch did not restore is 0x5a5a5a5aa5a5a5a5; the
// holder keeps LIVE_VALUES from `seed` and `dseed` across its switch and
// reads the frame pointer register before and after it (READ_FP).

#ifndef CACS_TEST_TRASH_H
#define CACS_TEST_TRASH_H

#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "live-values.h"

volatile uint64_t seed = 0x0123456789abcdefull;
volatile double dseed = 1.25;

static void check(const char *what, int i, int ok) {
  if (!ok) {
    printf("FAIL %s[%d] clobbered\n", what, i);
    ++failures;
  }
}

#if defined(__x86_64__)
#define READ_FP(v) __asm__ volatile("movq %%rbp, %0" : "=r"(v))
#else
#define READ_FP(v) __asm__ volatile("mov %0, x29" : "=r"(v))
#endif

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

#endif // CACS_TEST_TRASH_H
