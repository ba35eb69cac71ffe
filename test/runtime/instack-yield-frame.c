// The frame of a function that yields (x86-64). Compiled by cacs, a C
// generator's yield has no cancel test and no call on its cold path; the
// pass plugin gives the function around the yield a call-aligned frame
// without a red zone instead (llvm/lib/Transforms/InstackYield.cpp). The
// consumer runs below the yielding function's stack pointer, so it checks,
// after every resume, that its own calls are 16-byte aligned and that a deep
// call chain leaves the generator's locals alone, for yields from
//   - a leaf with nothing of its own across the yield (no frame at all
//     without the pass: the consumer would run 8 bytes off);
//   - a leaf with locals across the yield (in the red zone without it);
//   - a function that calls on one path only and yields on the other
//     (shrink-wrapping would set the frame up on the calling path only);
//   - the same functions inlined into the generator (always_inline), and
//     at a full-LTO link.
// Stock clang takes the header's other path (the cancel call): same result.
// AArch64 needs no treatment (instack-aarch64.c runs this file under qemu).
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -DINLINE=1 -I%cacs_include %s %cacs_rt_x86_64 -o %ti && %ti | FileCheck %s
// RUN: %clang -O2 -flto -I%cacs_include %s %cacs_rt_x86_64 -o %tl && %tl | FileCheck %s
// RUN: %clang -O2 -flto=thin -I%cacs_include %s %cacs_rt_x86_64 -o %tt && %tt | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %ts && %ts | FileCheck %s
// The cacs build has no call in its yield's path:
// RUN: %clang -O2 -I%cacs_include %s -S -o - | FileCheck %s --check-prefix=ASM
// ASM-NOT: cacs__isg_cancelled_c
//
// CHECK: leaf ok
// CHECK: red zone ok
// CHECK: shrink-wrapped ok
// CHECK: PASS

#include "cacs/instack.h"

#include <stdio.h>
#include <string.h>

#include "Inputs/check.h"

#if defined(INLINE) && INLINE
#define YIELDER __attribute__((always_inline)) static inline
#else
#define YIELDER __attribute__((noinline)) static
#endif

// The generator works on a copy of its context in a global (copied back
// before it returns, as instack.h allows): its address is a constant, so
// nothing of the yielding function's own is live across its yield.
static cacs_isg_ctx gctx;

YIELDER void yield_leaf(uint64_t v) { cacs_isg_yield(&gctx, v); }

YIELDER uint64_t yield_locals(uint64_t v) {
  volatile uint64_t local[8];
  for (int i = 0; i < 8; ++i)
    local[i] = v + i;
  cacs_isg_yield(&gctx, v);
  uint64_t s = 0;
  for (int i = 0; i < 8; ++i)
    s += local[i];
  return s - 8 * v - 28; // 0 unless the consumer overwrote them
}

__attribute__((noinline)) static void opaque(uint64_t v) {
  __asm__ volatile("" : : "r"(v) : "memory");
}
YIELDER void yield_or_call(uint64_t v) {
  if (v & 1) {
    cacs_isg_yield(&gctx, v);
    return;
  }
  opaque(v);
  opaque(v);
}

enum { Rounds = 64 };

// One generator per case, so that each is a leaf where its yielder is
// (inlined or not).
static uint64_t gen_leaf(cacs_isg_ctx *ctx, void *arg) {
  (void)arg;
  gctx = *ctx;
  for (uint64_t v = 1; v <= Rounds; ++v)
    yield_leaf(v);
  *ctx = gctx;
  return 0;
}
static uint64_t gen_locals(cacs_isg_ctx *ctx, void *arg) {
  (void)arg;
  uint64_t bad = 0;
  gctx = *ctx;
  for (uint64_t v = 1; v <= Rounds; ++v)
    bad += yield_locals(v);
  *ctx = gctx;
  return bad;
}
static uint64_t gen_or_call(cacs_isg_ctx *ctx, void *arg) {
  (void)arg;
  gctx = *ctx;
  for (uint64_t v = 1; v <= 2 * Rounds; ++v)
    yield_or_call(v);
  *ctx = gctx;
  return 0;
}

// Called by the consumer: is its caller's stack pointer 16-byte aligned
// (on x86-64 the call leaves it 8 off)? In assembly: a compiled function
// would have moved its stack pointer first at -O0.
int misaligned(void);
#if defined(__x86_64__)
__asm__(".text\n"
        "misaligned:\n\t"
        "movl %esp, %eax\n\t"
        "andl $15, %eax\n\t"
        "xorl $8, %eax\n\t"
        "ret\n");
#else
__asm__(".text\n"
        "misaligned:\n\t"
        "mov x0, sp\n\t"
        "and x0, x0, #15\n\t"
        "ret\n");
#endif

// Deep frames below the consumer's stack pointer, over whatever is there.
__attribute__((noinline)) static uint64_t deep(int n) {
  volatile char pad[256];
  memset((char *)pad, n, sizeof pad);
  return n ? deep(n - 1) + pad[n % 256] : 0;
}

__attribute__((noinline)) static void run(cacs_isg_fn gen, const char *name) {
  cacs_isg g;
  int bad = 0, k = 0;
  uint64_t v = cacs_isg_start(&g, gen, NULL);
  for (; !cacs_isg_done(&g); v = cacs_isg_next(&g), ++k) {
    bad += misaligned();
    bad += deep(20) != deep(20);
  }
  bad += v != 0; // the generator's count of overwritten locals
  bad += k != Rounds;
  EXPECT(!bad);
  printf("%s %s\n", name, bad ? "WRONG" : "ok");
}

int main(void) {
  run(gen_leaf, "leaf");
  run(gen_locals, "red zone");
  run(gen_or_call, "shrink-wrapped");
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
