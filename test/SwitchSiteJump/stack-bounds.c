// -fcacs-stack-bounds still proves the bound of an entry whose yield is
// jump-entered: the compile records the call of cacs_yield's entry with its
// budget before the site replaces it, and the link's walk gives the jump
// entry that budget and follows the jump to it as to a callee. The bound
// holds the yield's budget, and the coroutine runs on its exact stack.
//
// RUN: %clang -O2 -fswitch-site-jumps -fcacs-stack-bounds -Rpass=cacs-stack-bound -Rpass-missed=cacs-stack-bound -I%cacs_include %s %cacs_rt_x86_64 -o %t 2>&1 | FileCheck %s
// RUN: %t | FileCheck %s --check-prefix=PROG
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=step %t | FileCheck %s --check-prefix=SITE
//
// CHECK: remark: stack bound of 'yields': {{[0-9]+}} bytes [-Rpass=cacs-stack-bound]
// CHECK-NOT: no stack bound
// PROG: yields: bound holds the yield budget
// PROG-NEXT: sum 4950
// SITE: movq %r11, -0x8(%rsp)
// SITE-NEXT: jmp {{.*}} <cacs__yield_pn_jmp>

#include "cacs/coro.h"

#include <stdint.h>
#include <stdio.h>

static volatile int sum, again;

__attribute__((noinline)) static int step(int i) {
  volatile char buf[96];
  buf[i & 63] = (char)i;
  do // in a loop (run once)
    cacs_yield();
  while (again);
  return i + buf[0] * 0;
}
static void yields(void *p) {
  (void)p;
  for (int i = 0; i < 100; ++i)
    sum += step(i);
}

struct bound {
  const void *entry;
  uint64_t bytes;
};
extern const struct bound __start_cacs_stack_bounds[] __attribute__((weak)),
    __stop_cacs_stack_bounds[] __attribute__((weak));

int main(void) {
  for (const struct bound *b = __start_cacs_stack_bounds;
       b && b < __stop_cacs_stack_bounds; ++b)
    if (b->entry == (const void *)yields)
      printf("yields: %s\n", b->bytes >= CACS_CONTRACT_YIELD_STACK_BUDGET + 96
                                 ? "bound holds the yield budget"
                                 : "bound too small");
  cacs_coro *c = cacs_create(yields, NULL, 0);
  if (!c || cacs_join(c) != 0)
    return 1;
  printf("sum %d\n", sum);
  return 0;
}
