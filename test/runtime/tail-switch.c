// The tail form (CACS_TAIL_SWITCH_BP) in a user preserve_none function:
// values round-trip, the caller's live values survive, and a caller whose
// frame is addressed through the base pointer (realigned frame + alloca)
// finds its frame after every switch although the partner trashes the
// base-pointer register, at every -O level (the runtime is compiled from
// source here too).
//
// The -O levels whose runtime objects no other test shares are split between
// the LLVMs (CI runs both, so one CI run covers every row); the ASan and
// stock -O0 rows, whose runtime objects other tests build anyway, run on both.
// RUN: %if llvm-19 %{ %clang -O0 -I%cacs_include %s $(%cacs_rt_objs %clang -O0 -I%cacs_include) -o %t0 && %t0 | FileCheck %s %}
// RUN: %if llvm-19 %{ %clang -O2 -I%cacs_include %s $(%cacs_rt_objs %clang -O2 -I%cacs_include) -o %t2 && %t2 | FileCheck %s %}
// RUN: %if llvm-22 %{ %clang -O1 -I%cacs_include %s $(%cacs_rt_objs %clang -O1 -I%cacs_include) -o %t1 && %t1 | FileCheck %s %}
// RUN: %if llvm-22 %{ %clang -O3 -fno-omit-frame-pointer -I%cacs_include %s $(%cacs_rt_objs %clang -O3 -fno-omit-frame-pointer -I%cacs_include) -o %t3 && %t3 | FileCheck %s %}
// RUN: %if llvm-22 %{ %clang -O2 -fomit-frame-pointer -I%cacs_include %s $(%cacs_rt_objs %clang -O2 -fomit-frame-pointer -I%cacs_include) -o %t4 && %t4 | FileCheck %s %}
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=address -I%cacs_include) -o %tasan && %tasan | FileCheck %s
// Stock clang does not shield the preserve_none call from a base-pointer
// frame (cacs's safety pass does): the runtime's own handling of rbx is
// what keeps bp_frame's frame.
// RUN: %stock_clang -O0 -I%cacs_include %s $(%cacs_rt_objs %stock_clang -O0 -I%cacs_include) -o %ts0 && %ts0 | FileCheck %s
// RUN: %if llvm-22 %{ %stock_clang -O2 -I%cacs_include %s $(%cacs_rt_objs %stock_clang -O2 -I%cacs_include) -o %ts2 && %ts2 | FileCheck %s %}
// RUN: %if llvm-19 %{ %stock_clang -O3 -fno-omit-frame-pointer -I%cacs_include %s $(%cacs_rt_objs %stock_clang -O3 -fno-omit-frame-pointer -I%cacs_include) -o %ts3 && %ts3 | FileCheck %s %}
// RUN: %clang -O2 -I%cacs_include -E -dM %s | FileCheck %s --check-prefix=MACRO
//
// MACRO: #define CACS_HAS_TAIL_SWITCH 1
// CHECK: ping-pong ok
// CHECK: base pointer ok
// CHECK: PASS

#include "cacs/coro.h"

#include <stdio.h>
#include <string.h>

static cacs_context a_ctx, b_ctx;
static int failures;

// A user switching function: the switch is its tail, the resumer lands in
// our caller and the value it carries becomes our return value. Static:
// under -fpreserve-none-callee-saved=none the tail form needs a function
// that saves nothing (tail-switch-none.test; tail-switch-keeps-rbp.cpp).
__attribute__((noinline)) CACS_PRESERVE_NONE static uint64_t
pingpong(cacs_context *from, cacs_context *to, uint64_t v) {
  CACS_SAVE_CALLER_BP(bp);
  CACS_TAIL_SWITCH_BP(from, to, v, bp);
}

static void partner(void *arg, uint64_t v) {
  (void)arg;
  for (;;)
    v = pingpong(&b_ctx, &a_ctx, v * 3 + 1);
}

static volatile uint64_t seed = 5;

static void test_pingpong(void) {
  static char stack[64 * 1024] __attribute__((aligned(16)));
  cacs_context_init(&b_ctx, stack + sizeof stack, partner, NULL);
  uint64_t x = seed, y = x * 7, z = y * 11, ok = 1;
  for (uint64_t i = 0; i < 1000; ++i) {
    uint64_t r = pingpong(&a_ctx, &b_ctx, i);
    ok &= r == i * 3 + 1;
    x += y; // x, y, z live across the switch
    y ^= z;
    z += i;
  }
  uint64_t ex = seed, ey = ex * 7, ez = ey * 11;
  for (uint64_t i = 0; i < 1000; ++i) {
    ex += ey;
    ey ^= ez;
    ez += i;
  }
  ok &= x == ex && y == ey && z == ez;
  failures += !ok;
  printf("ping-pong %s\n", ok ? "ok" : "WRONG");
}

// A caller whose frame is addressed through the base pointer (rbx / x19:
// an over-aligned local and a dynamic allocation; on AArch64 also 256 bytes
// of locals or more) switches through the tail form, and the partner puts
// garbage into the base-pointer register before every switch back. After
// each switch the caller reads its locals through the base pointer and
// compares them (and the value the switch carried) with what it computes
// from a volatile seed.
static cacs_context bpa_ctx, bpb_ctx;
static volatile uint64_t bp_seed = 0x9e3779b97f4a7c15ull;

static void bp_partner(void *arg, uint64_t v) {
  (void)arg;
  for (;;) {
#if defined(__x86_64__)
    __asm__ volatile("movabsq $0x5a5a5a5aa5a5a5a5, %%rbx" ::: "rbx");
#elif defined(__aarch64__)
    __asm__ volatile("mov x19, #0x5a5a" ::: "x19");
#endif
    v = pingpong(&bpb_ctx, &bpa_ctx, v + 1);
  }
}

__attribute__((noinline)) static int bp_frame(int n) {
  _Alignas(64) volatile uint64_t big[8];
  volatile uint64_t pad[40];
  volatile uint64_t *vla = __builtin_alloca(n * sizeof *vla);
  uint64_t s = bp_seed;
  for (int i = 0; i < 8; ++i)
    big[i] = s * (i + 1);
  for (int i = 0; i < 40; ++i)
    pad[i] = s + i;
  for (int k = 0; k < n; ++k)
    vla[k] = s ^ (uint64_t)k;
  int bad = 0;
  for (uint64_t r = 0; r < 20; ++r) {
    uint64_t got = pingpong(&bpa_ctx, &bpb_ctx, 2 * r);
    uint64_t s2 = bp_seed;
    bad += got != 2 * r + 1;
    for (int i = 0; i < 8; ++i)
      bad += big[i] != s2 * (i + 1);
    for (int i = 0; i < 40; ++i)
      bad += pad[i] != s2 + i;
    for (int k = 0; k < n; ++k)
      bad += vla[k] != (s2 ^ (uint64_t)k);
  }
  return bad;
}

static void test_base_pointer(void) {
  static char stack[64 * 1024] __attribute__((aligned(16)));
  cacs_context_init(&bpb_ctx, stack + sizeof stack, bp_partner, NULL);
  int bad = bp_frame(5 + (int)(bp_seed & 3));
  failures += bad != 0;
  printf("base pointer %s\n", bad ? "WRONG" : "ok");
}

int main(void) {
  test_pingpong();
  test_base_pointer();
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
