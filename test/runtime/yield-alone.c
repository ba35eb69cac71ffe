// cacs_yield with nothing else ready returns to its caller, on every path
// of the switch: cacs__yield_pn has no "alone" test on its fast path (the
// coroutine switches to itself), the slow path tests it before any C runs,
// and a thread whose scheduler is not set up yet takes the slow path, so
// that its yields never write cacs__idle, the one "current" all such
// threads share (sched.c: S.slow starts set).
//   1. main alone, on a fresh thread (no scheduler yet): cacs__idle's sp
//      stays NULL (the runtime is a static library, so its hidden symbol
//      links here);
//   2. main alone once the scheduler is set up (fast path, switch to self);
//   3. a coroutine alone while main waits in cacs_join (fast path);
//   4. the same with a CACS_CORO_SAVE_FPENV coroutine (slow path).
// Each yields from a frame whose locals are checked after the yields.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t2 && %t2 | FileCheck %s
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %ts && %ts | FileCheck %s
// The same through cacs__yield_pn_jmp (each path returns to the address the
// site stored below its rsp, the fresh thread's and the alone slow path's by
// a `ret`):
// RUN: %clang -O2 -fswitch-site-jumps -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %tj && %tj | FileCheck %s
// RUN: llvm-objdump -d --no-show-raw-insn --disassemble-symbols=yield_n %tj | FileCheck %s --check-prefix=SITE
// SITE: leaq {{.*}}(%rip), %r11
// SITE-NEXT: movq %r11, -0x8(%rsp)
// SITE-NEXT: jmp {{.*}} <cacs__yield_pn_jmp>
//
// CHECK: fresh thread: ok, idle untouched
// CHECK-NEXT: main alone: ok
// CHECK-NEXT: coroutine alone: ok
// CHECK-NEXT: coroutine alone, own FP environment: ok
// CHECK-NEXT: PASS

#include "cacs/coro.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// The runtime's placeholder for "no scheduler yet" (lib/sched.c); its first
// field is the saved stack pointer (lib/coro_layout.h).
extern void *cacs__idle;

static int failed;

// Yields `n` times and checks that its locals survived.
static __attribute__((noinline)) int yield_n(int n, const char *what) {
  volatile int a = n * 7 + 1, b = n ^ 0x5a5a;
  int done = 0;
  for (int i = 0; i < n; i++) {
    cacs_yield();
    done++;
  }
  if (a != n * 7 + 1 || b != (n ^ 0x5a5a) || done != n) {
    printf("%s: locals lost\n", what);
    failed = 1;
    return 0;
  }
  return 1;
}

static void *fresh_thread(void *arg) {
  (void)arg;
  if (yield_n(1000, "fresh thread"))
    printf("fresh thread: ok, %s\n",
           cacs__idle == NULL ? "idle untouched" : "idle WRITTEN");
  if (cacs__idle != NULL)
    failed = 1;
  return NULL;
}

static void nothing(void *arg) { (void)arg; }

static void alone_body(void *arg) {
  if (yield_n(1000, (const char *)arg))
    printf("%s: ok\n", (const char *)arg);
}

int main(void) {
  pthread_t t;
  if (pthread_create(&t, NULL, fresh_thread, NULL) != 0 ||
      pthread_join(t, NULL) != 0)
    return 2;
  fflush(stdout);

  // Set the scheduler up, with nothing left on the ring but main.
  cacs_coro *c = cacs_create(nothing, NULL, 0);
  if (!c || cacs_join(c) != 0)
    return 2;
  if (yield_n(1000, "main alone"))
    printf("main alone: ok\n");

  c = cacs_create(alone_body, "coroutine alone", 0);
  if (!c || cacs_join(c) != 0)
    return 2;

  cacs_coro_attr attr = {0, 0, CACS_CORO_SAVE_FPENV, NULL};
  c = cacs_create_ex(alone_body, "coroutine alone, own FP environment",
                     &attr);
  if (!c || cacs_join(c) != 0)
    return 2;
  if (failed)
    return 1;
  printf("PASS\n");
  return 0;
}
