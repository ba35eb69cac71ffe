// Register survival across cacs_switch: `holder` keeps many known values
// live (all allocatable GPRs, xmm0-15 / v0-v31 incl. d8-d15, x87 on x86-64)
// across switches to a context that trashes every register, including the
// hand-saved ones (rbp/rbx, x29/x19/x18). Every value must survive.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O0 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t4 && %t4 | FileCheck %s
// RUN: %clang -O2 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t5 && %t5 | FileCheck %s
// RUN: %clang -O3 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t6 && %t6 | FileCheck %s
// RUN: %clang -O2 -mavx2 -I%cacs_include %s %cacs_rt_x86_64 -o %t7 && %t7 | FileCheck %s
//
// CHECK: holder round 0 ok
// CHECK: holder round 1 ok
// CHECK: holder round 2 ok
// CHECK: trasher ran 3 times
// CHECK: PASS

#include "cacs/switch.h"

#include <stdio.h>

#include "Inputs/live-values.h"
#include <stdlib.h>

static cacs_context holder_ctx, trasher_ctx;
static int trashes;
// Hand-saved registers of the trasher live here while it runs with garbage
// in them; the asm addresses it by symbol so it needs no free register.
void *cacs_test_saved[4] __asm__("cacs_test_saved");

// Like cacs_switch, but first fills *every* register with garbage,
// including rbp/rbx (x29/x19/x18), so the resumed side sees nothing of ours.
static inline __attribute__((always_inline)) void
trash_switch(cacs_context *from, const cacs_context *to) {
#if defined(__x86_64__)
  __asm__ volatile(
      "movq %%rbp, cacs_test_saved(%%rip)\n\t"
      "movq %%rbx, cacs_test_saved+8(%%rip)\n\t"
      "movabsq $0x5a5a5a5aa5a5a5a5, %%rax\n\t"
      "movq %%rax, %%rbx\n\t movq %%rax, %%rbp\n\t movq %%rax, %%rcx\n\t"
      "movq %%rax, %%rdx\n\t movq %%rax, %%r8\n\t movq %%rax, %%r9\n\t"
      "movq %%rax, %%r10\n\t movq %%rax, %%r11\n\t movq %%rax, %%r12\n\t"
      "movq %%rax, %%r13\n\t movq %%rax, %%r14\n\t movq %%rax, %%r15\n\t"
      "movq %%rax, %%xmm0\n\t pshufd $0x44, %%xmm0, %%xmm0\n\t"
      "movdqa %%xmm0, %%xmm1\n\t movdqa %%xmm0, %%xmm2\n\t"
      "movdqa %%xmm0, %%xmm3\n\t movdqa %%xmm0, %%xmm4\n\t"
      "movdqa %%xmm0, %%xmm5\n\t movdqa %%xmm0, %%xmm6\n\t"
      "movdqa %%xmm0, %%xmm7\n\t movdqa %%xmm0, %%xmm8\n\t"
      "movdqa %%xmm0, %%xmm9\n\t movdqa %%xmm0, %%xmm10\n\t"
      "movdqa %%xmm0, %%xmm11\n\t movdqa %%xmm0, %%xmm12\n\t"
      "movdqa %%xmm0, %%xmm13\n\t movdqa %%xmm0, %%xmm14\n\t"
      "movdqa %%xmm0, %%xmm15\n\t"
      // x87: fninit empties the register stack, losing anything the holder
      // would keep there if "st" were missing from the clobbers.
      "fninit\n\t"
      "leaq 1f(%%rip), %%rcx\n\t"
      "movq %%rsp, 0(%%rdi)\n\t movq %%rcx, 8(%%rdi)\n\t"
      "movq %%rbp, 16(%%rdi)\n\t movq %%rbx, 24(%%rdi)\n\t"
      "movq 16(%%rsi), %%rbp\n\t movq 24(%%rsi), %%rbx\n\t"
      "movq 0(%%rsi), %%rsp\n\t jmpq *8(%%rsi)\n"
      "1:\n\t"
      "movq cacs_test_saved(%%rip), %%rbp\n\t"
      "movq cacs_test_saved+8(%%rip), %%rbx\n\t"
      : "+D"(from), "+S"(to)
      :
      : "rax", CACS__CLOBBERS);
#elif defined(__aarch64__)
  register cacs_context *x1 __asm__("x1") = from;
  register const cacs_context *x2 __asm__("x2") = to;
  __asm__ volatile(
      "adrp x9, cacs_test_saved\n\t add x9, x9, :lo12:cacs_test_saved\n\t"
      "stp x29, x19, [x9]\n\t str x18, [x9, #16]\n\t"
      "movz x0, #0xa5a5\n\t movk x0, #0x5a5a, lsl #16\n\t"
      "movk x0, #0xa5a5, lsl #32\n\t movk x0, #0x5a5a, lsl #48\n\t"
      "mov x3, x0\n\t mov x4, x0\n\t mov x5, x0\n\t mov x6, x0\n\t"
      "mov x7, x0\n\t mov x8, x0\n\t mov x11, x0\n\t mov x12, x0\n\t"
      "mov x13, x0\n\t mov x14, x0\n\t mov x15, x0\n\t mov x16, x0\n\t"
      "mov x17, x0\n\t mov x18, x0\n\t mov x19, x0\n\t mov x20, x0\n\t"
      "mov x21, x0\n\t mov x22, x0\n\t mov x23, x0\n\t mov x24, x0\n\t"
      "mov x25, x0\n\t mov x26, x0\n\t mov x27, x0\n\t mov x28, x0\n\t"
      "mov x29, x0\n\t mov x30, x0\n\t"
      "dup v0.2d, x0\n\t dup v1.2d, x0\n\t dup v2.2d, x0\n\t dup v3.2d, x0\n\t"
      "dup v4.2d, x0\n\t dup v5.2d, x0\n\t dup v6.2d, x0\n\t dup v7.2d, x0\n\t"
      "dup v8.2d, x0\n\t dup v9.2d, x0\n\t dup v10.2d, x0\n\t dup v11.2d, x0\n\t"
      "dup v12.2d, x0\n\t dup v13.2d, x0\n\t dup v14.2d, x0\n\t dup v15.2d, x0\n\t"
      "dup v16.2d, x0\n\t dup v17.2d, x0\n\t dup v18.2d, x0\n\t dup v19.2d, x0\n\t"
      "dup v20.2d, x0\n\t dup v21.2d, x0\n\t dup v22.2d, x0\n\t dup v23.2d, x0\n\t"
      "dup v24.2d, x0\n\t dup v25.2d, x0\n\t dup v26.2d, x0\n\t dup v27.2d, x0\n\t"
      "dup v28.2d, x0\n\t dup v29.2d, x0\n\t dup v30.2d, x0\n\t dup v31.2d, x0\n\t"
      "adr x9, 1f\n\t mov x10, sp\n\t stp x10, x9, [x1]\n\t"
      "stp x29, x19, [x1, #16]\n\t str x18, [x1, #32]\n\t"
      "ldp x29, x19, [x2, #16]\n\t ldr x18, [x2, #32]\n\t"
      "ldp x10, x9, [x2]\n\t mov sp, x10\n\t br x9\n"
      "1:\n\t"
      "adrp x9, cacs_test_saved\n\t add x9, x9, :lo12:cacs_test_saved\n\t"
      "ldp x29, x19, [x9]\n\t ldr x18, [x9, #16]\n\t"
      : "+r"(x1), "+r"(x2)
      :
      : "x0", CACS__CLOBBERS);
#endif
}

static void trasher(void *arg, uint64_t v) {
  (void)arg, (void)v;
  for (;;) {
    ++trashes;
    trash_switch(&trasher_ctx, &holder_ctx);
  }
}

volatile uint64_t seed = 0x0123456789abcdefull;
volatile double dseed = 1.25;
static int failures;

static void check(const char *what, int i, int ok) {
  if (!ok) {
    printf("FAIL %s[%d] clobbered\n", what, i);
    ++failures;
  }
}

// Many live values across each switch; with one clobber missing from the
// asm, the compiler keeps a value in that register and the trasher kills it.
__attribute__((noinline)) static void holder(int round) {
  LIVE_VALUES_DEFINE(seed, dseed);
  uint64_t got = cacs_switch(&holder_ctx, &trasher_ctx, 0);
  (void)got;
  // Recompute the expectations from the (volatile) seeds after the switch.
  LIVE_VALUES_CHECK(seed, dseed, check);
  printf("holder round %d %s\n", round, failures ? "FAILED" : "ok");
}

static char stack[64 * 1024] __attribute__((aligned(16)));

int main(void) {
  cacs_context_init(&trasher_ctx, stack + sizeof stack, trasher, NULL);
  for (int r = 0; r < 3; ++r)
    holder(r);
  printf("trasher ran %d times\n", trashes);
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
