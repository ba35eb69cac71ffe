// The x86-64 red zone: a leaf-like function (its only "call" is the inline
// switch) keeps spills in the 128 bytes below %rsp without moving %rsp. The
// switch must not push anything there (the paper's push-based template
// would overwrite the slot at -8(%rsp)). ASM checks that the test function
// really spills into the red zone around the switch.
//
// RUN: %clang -O2 -I%cacs_include %s -S -o - | FileCheck %s --check-prefix=ASM
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t4 && %t4 | FileCheck %s
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t5 && %t5 | FileCheck %s
//
// ASM-LABEL: leaf:
// ASM-NOT: call
// ASM: {{movq.*, -[0-9]+\(%rsp\)}}
// ASM: jmpq *8(%rsi)
// ASM: {{-[0-9]+\(%rsp\)}}
// ASM: .cfi_endproc
//
// CHECK: leaf 0 bad=0
// CHECK: leaf 99 bad=0
// CHECK: PASS

#include "cacs/switch.h"

#include <stdio.h>
#include <string.h>

static cacs_context leaf_ctx, other_ctx;
volatile uint64_t seed = 0xfeedface12345678ull;

// The partner runs real code on its own stack between switches (a call
// chain with a large frame), then comes back.
__attribute__((noinline)) static uint64_t busy(int depth) {
  volatile char buf[512];
  memset((char *)buf, depth, sizeof buf);
  return depth ? busy(depth - 1) + buf[7] : buf[3];
}

static void other(void *arg, uint64_t v) {
  (void)arg;
  for (;;) {
    v = busy(8) + v;
    v = cacs_switch(&other_ctx, &leaf_ctx, v);
  }
}

// No calls: the compiler is free to use the red zone for its spills.
__attribute__((noinline)) int leaf(uint64_t s) {
#define V(n)                                                                   \
  uint64_t v##n = s * (n + 3) ^ (uint64_t)n << 40;                             \
  __asm__ volatile("" : "+r"(v##n));
  V(0) V(1) V(2) V(3) V(4) V(5) V(6) V(7) V(8) V(9) V(10) V(11) V(12) V(13)
  cacs_switch(&leaf_ctx, &other_ctx, s);
  int bad = 0;
#define C(n) bad += v##n != (s * (n + 3) ^ (uint64_t)n << 40);
  C(0) C(1) C(2) C(3) C(4) C(5) C(6) C(7) C(8) C(9) C(10) C(11) C(12) C(13)
  return bad;
}

static char stack[256 * 1024] __attribute__((aligned(16)));

int main(void) {
  cacs_context_init(&other_ctx, stack + sizeof stack, other, NULL);
  int total = 0;
  for (int i = 0; i < 100; ++i) {
    int bad = leaf(seed + (uint64_t)i);
    total += bad;
    if (i == 0 || i == 99)
      printf("leaf %d bad=%d\n", i, bad);
  }
  if (total)
    return 1;
  printf("PASS\n");
  return 0;
}
