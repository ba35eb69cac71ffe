// The tail form (CACS_TAIL_SWITCH_BP) in a user preserve_none function and in
// cacs_yield: values round-trip, the caller's live values survive, the
// caller's base pointer (realigned frame + alloca) survives, at every -O
// level of both the test and the runtime itself (compiled from source here).
//
// RUN: %clang -O0 -I%cacs_include %s %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c %S/../../runtime/lib/yield_x86_64.S %S/../../runtime/lib/yield_aarch64.S -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -I%cacs_include %s %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c %S/../../runtime/lib/yield_x86_64.S %S/../../runtime/lib/yield_aarch64.S -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c %S/../../runtime/lib/yield_x86_64.S %S/../../runtime/lib/yield_aarch64.S -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -fno-omit-frame-pointer -I%cacs_include %s %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c %S/../../runtime/lib/yield_x86_64.S %S/../../runtime/lib/yield_aarch64.S -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -fomit-frame-pointer -I%cacs_include %s %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c %S/../../runtime/lib/yield_x86_64.S %S/../../runtime/lib/yield_aarch64.S -o %t4 && %t4 | FileCheck %s
// RUN: %clang -O1 -g -fsanitize=address -I%cacs_include %s %S/../../runtime/lib/coro.c %S/../../runtime/lib/generator.c %S/../../runtime/lib/stack.c %S/../../runtime/lib/switch.c %S/../../runtime/lib/yield_x86_64.S %S/../../runtime/lib/yield_aarch64.S -o %tasan && %tasan | FileCheck %s
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
// our caller and the value it carries becomes our return value.
__attribute__((noinline)) CACS_PRESERVE_NONE uint64_t
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

// Over-aligned local + alloca: the compiler addresses locals through the
// base pointer (rbx / x19) across the preserve_none call to cacs_yield.
__attribute__((noinline)) static int bp_user(int n, int tag) {
  char *p = __builtin_alloca(n);
  char big[64] __attribute__((aligned(64)));
  memset(p, tag, n);
  memset(big, tag + 1, sizeof big);
  for (int k = 0; k < 50; ++k)
    cacs_yield();
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += p[i] != tag;
  for (int i = 0; i < 64; ++i)
    bad += big[i] != tag + 1;
  return bad;
}

static int bad_total;
static void bp_entry(void *arg) {
  bad_total += bp_user(100 + (int)(intptr_t)arg, (int)(intptr_t)arg);
}

static void test_base_pointer(void) {
  cacs_coro *c[4];
  for (int i = 0; i < 4; ++i)
    c[i] = cacs_create(bp_entry, (void *)(intptr_t)(i + 1), 0);
  bad_total += bp_user(77, 9); // main participates too
  for (int i = 0; i < 4; ++i)
    cacs_join(c[i]);
  failures += bad_total != 0;
  printf("base pointer %s\n", bad_total ? "WRONG" : "ok");
}

int main(void) {
  test_pingpong();
  test_base_pointer();
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
