// Stack overflow in a coroutine hits its guard page; the SIGSEGV handler
// (on an alternate signal stack) names the coroutine and aborts. Also checks
// stack pooling/reuse, randomized start offsets and the small-stack option.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: %t stacks | FileCheck %s --check-prefix=STACKS
// RUN: ulimit -c 0; not --crash %t overflow 2>&1 | FileCheck %s
// RUN: ulimit -c 0; not --crash %t overflow-gen 2>&1 | FileCheck %s --check-prefix=GEN
// RUN: ulimit -c 0; not --crash %t segv 2>&1 | FileCheck %s --check-prefix=OTHER
// A coroutine given no name is named when asked (coro.c), the report too:
// RUN: ulimit -c 0; not --crash %t overflow-unnamed 2>&1 | FileCheck %s --check-prefix=UNNAMED
// Stacks from the thread's cache and slots carved well into their slab
// (stack.c), with either guard:
// RUN: ulimit -c 0; not --crash %t overflow-carved 2>&1 | FileCheck %s --check-prefix=SLOT
// RUN: ulimit -c 0; not --crash %t overflow-cached 2>&1 | FileCheck %s --check-prefix=SLOT
// RUN: ulimit -c 0; env CACS_STACK_GUARD=mprotect not --crash %t overflow-carved 2>&1 | FileCheck %s --check-prefix=SLOT
// RUN: ulimit -c 0; env CACS_STACK_GUARD=mprotect not --crash %t overflow-cached 2>&1 | FileCheck %s --check-prefix=SLOT
// The fallback guard of kernels without MADV_GUARD_INSTALL (stack.h):
// RUN: env CACS_STACK_GUARD=mprotect %t stacks | FileCheck %s --check-prefix=STACKS
// RUN: ulimit -c 0; env CACS_STACK_GUARD=mprotect not --crash %t overflow 2>&1 | FileCheck %s
// RUN: %clang -O2 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t2
// RUN: ulimit -c 0; not --crash %t2 overflow 2>&1 | FileCheck %s
//
// CHECK: about to overflow
// CHECK: cacs: stack overflow in coroutine 'deep-diver' (id 1): fault at 0x{{[0-9a-f]+}}, guard page 0x{{[0-9a-f]+}}-0x{{[0-9a-f]+}}, stack size {{[0-9]+}}
// CHECK-NOT: survived
// GEN: cacs: stack overflow in coroutine 'generator#1'
// UNNAMED: cacs: stack overflow in coroutine 'coro#2' (id 2): fault at
// SLOT: cacs: stack overflow in coroutine 'deep-diver' (id 41): fault at
// SLOT-NOT: survived
// OTHER-NOT: cacs: stack overflow
// STACKS: reuse ok, pooled 1
// STACKS: offsets: {{[0-9]+}} distinct of 64
// STACKS: small stack ok
// STACKS: PASS

#include "cacs/coro.h"
#include "cacs/generator.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static int recurse(volatile char *prev, int n) {
  volatile char buf[256];
  buf[0] = (char)n;
  buf[255] = prev ? prev[0] : 0;
  return recurse(buf, n + 1) + buf[255]; // no tail call: grows forever
}

static void diver(void *arg) {
  (void)arg;
  printf("about to overflow\n");
  fflush(stdout);
  recurse(NULL, 0);
}

static void gen_diver(cacs_gen *g, void *arg) {
  (void)g, (void)arg;
  recurse(NULL, 0);
}

static uintptr_t ran_at; // a local of the last nop
static void nop(void *arg) {
  volatile int here = 0;
  ran_at = (uintptr_t)&here;
  *(int *)arg += 1 + here;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "stacks";
  if (!strncmp(mode, "overflow-", 9) && strcmp(mode, "overflow-gen")) {
    cacs_coro_attr a = {32 * 1024, 0, 0, "deep-diver"};
    cacs_coro *c[40];
    int n = !strcmp(mode, "overflow-unnamed") ? 1 : 40;
    for (int i = 0; i < n; ++i) // the diver's slot is the next one
      c[i] = cacs_create_ex(nop, &(int){0}, &a);
    if (strcmp(mode, "overflow-carved")) // the diver's stack: a cached one
      for (int i = 0; i < n; ++i)
        cacs_join(c[i]);
    if (!strcmp(mode, "overflow-unnamed"))
      a.name = NULL;
    cacs_join(cacs_create_ex(diver, NULL, &a));
    printf("survived\n");
    return 0;
  }
  if (!strcmp(mode, "overflow")) {
    cacs_coro_attr a = {32 * 1024, 0, 0, "deep-diver"};
    cacs_join(cacs_create_ex(diver, NULL, &a));
    printf("survived\n");
    return 0;
  }
  if (!strcmp(mode, "overflow-gen")) {
    cacs_gen *g = cacs_gen_create(gen_diver, NULL, 0);
    cacs_gen_resume(g, 0);
    printf("survived\n");
    return 0;
  }
  if (!strcmp(mode, "segv")) {
    // An ordinary crash must not be reported as an overflow.
    cacs_join(cacs_create(nop, &(int){0}, 0));
    *(volatile int *)16 = 1;
    return 0;
  }

  // Pooling: a joined coroutine's stack is reused by the next one. The
  // control block's cache-line colour rotates from one allocation to the
  // next and the start is randomized below it (stack.c), so the reused
  // stack shows as frames near the same top page, not at the same address.
  // (The first coroutine's block is not on its stack: it got the stack at
  // its first run, coro.c.)
  int hits = 0;
  cacs_coro *c = cacs_create(nop, &hits, 0);
  cacs_join(c);
  uintptr_t first = ran_at;
  size_t pooled = cacs_stack_pool_count();
  c = cacs_create(nop, &hits, 0);
  cacs_join(c);
  long page = sysconf(_SC_PAGESIZE);
  uintptr_t d = ran_at > first ? ran_at - first : first - ran_at;
  int reused = d < 2 * (uintptr_t)page;
  printf("reuse %s, pooled %zu\n", reused && hits == 2 ? "ok" : "WRONG",
         pooled);

  // Randomized start: offsets (multiples of 64 below the control block)
  // differ between stacks.
  char seen[64] = {0};
  int distinct = 0;
  for (int i = 0; i < 200; ++i) {
    cacs_stack *s = cacs_stack_alloc(0, sizeof(cacs_stack), 0);
    size_t off = (size_t)((char *)s - (char *)s->top);
    if (off / 64 < 64 && !seen[off / 64]++)
      ++distinct;
    cacs_stack_free(s);
  }
  printf("offsets: %d distinct of 64\n", distinct);

  // Small stacks without guard/randomization still run code.
  cacs_coro_attr small = {4096, CACS_STACK_NOGUARD | CACS_STACK_NORANDOM, 0,
                          "small"};
  int ran = 0;
  cacs_join(cacs_create_ex(nop, &ran, &small));
  printf("small stack %s\n", ran == 1 ? "ok" : "WRONG");

  if (!reused || pooled != 1 || distinct < 16 || ran != 1)
    return 1;
  printf("PASS\n");
  return 0;
}
