// Shared (copy) stacks: what a suspended shared-stack coroutine keeps is
// its own frames, not the slow switch's. Without tools, the assembly of
// cacs_yield suspends the outgoing coroutine as the fast path does and runs
// the copying on the switcher stack (core.h: offstack); a switch whose C
// frames (callee-saved registers, a red-zone gap) stayed on the outgoing
// stack was saved with it, about 300 bytes more per coroutine. A coroutine
// that yields from its entry function keeps at most the start trampoline's
// words, its entry frames and the return address: under 320 bytes on both
// targets. Locals survive, the FP-environment coroutines (the same slow
// path, with S.offstack) too.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -lm -o %t
// RUN: %t | FileCheck %s
// RUN: %clang %aarch64_flags -O1 -I%cacs_include %s %cacs_rt_aarch64 -lm -o %ta
// RUN: %run_aarch64 %ta | FileCheck %s
//
// CHECK: suspended 200, saved per coroutine under 320 bytes: ok
// CHECK-NEXT: locals ok, fpenv ok
// CHECK-NEXT: PASS

#include "cacs/coro.h"

#include <fenv.h>
#include <stdint.h>
#include <stdio.h>

enum { N = 200 };
static long good, fp_good, reached;

static void body(void *arg) {
  volatile long x = (long)(intptr_t)arg * 3 + 1;
  ++reached;
  cacs_yield();
  good += x == (long)(intptr_t)arg * 3 + 1;
}

// A private FP environment: switched by the off-stack slow path too.
static void fp_body(void *arg) {
  (void)arg;
  fesetround(FE_UPWARD);
  cacs_yield();
  fp_good += fegetround() == FE_UPWARD;
}

int main(void) {
  cacs_coro *co[N + 1];
  cacs_coro_attr a = {0, CACS_STACK_SHARED, 0, "s"};
  for (long i = 0; i < N; ++i)
    co[i] = cacs_create_ex(body, (void *)(intptr_t)i, &a);
  cacs_coro_attr f = {0, CACS_STACK_SHARED, CACS_CORO_SAVE_FPENV, "fp"};
  co[N] = cacs_create_ex(fp_body, NULL, &f);
  cacs_yield(); // each runs to its yield
  // All but the last one to run are copied out (it stays resident).
  size_t per = cacs_stack_shared_saved() / N;
  printf("suspended %ld, saved per coroutine under 320 bytes: %s\n", reached,
         per > 0 && per < 320 ? "ok" : "WRONG");
  if (!(per > 0 && per < 320))
    printf("saved per coroutine: %zu\n", per);
  cacs_yield(); // all finish
  for (int i = 0; i <= N; ++i)
    cacs_join(co[i]);
  printf("locals %s, fpenv %s\n", good == N ? "ok" : "WRONG",
         fp_good == 1 && fegetround() == FE_TONEAREST ? "ok" : "WRONG");
  printf("%s\n", good == N && fp_good == 1 ? "PASS" : "FAIL");
  return 0;
}
