// cacs_detach: a detached coroutine frees itself when it finishes, so a
// program that starts one per request (a server) does not keep their stacks.
// 40,000 detached coroutines in turn, at most 100 alive at a time, with
// guard pages: without the reclaim the mappings (two per stack) run out
// near 32,750 (vm.max_map_count 65,530). Detaching a finished coroutine
// frees it at once; joining a detached one fails; a coroutine may detach
// itself.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O1 -fsanitize=address -I%cacs_include %s %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang --target=aarch64-linux-gnu -O2 -I%cacs_include %s %cacs_rt_aarch64 -o %tarm && %run_aarch64 %tarm | FileCheck %s
//
// CHECK: detached: 40000 ran and were freed ok
// CHECK-NEXT: detach a finished coroutine: freed at once ok
// CHECK-NEXT: join a detached coroutine: -1 ok
// CHECK-NEXT: self-detach: 1 ran, 0 alive ok
// CHECK-NEXT: PASS

#include "cacs/coro.h"

#include <stdio.h>

#include "Inputs/check.h"

static long ran;
static void short_lived(void *arg) {
  (void)arg;
  cacs_yield();
  ran++;
}

static void test_many(void) {
  enum { N = 40000 };
  for (long i = 0; i < N; i++) {
    cacs_coro *c = cacs_create(short_lived, NULL, 0);
    EXPECT(c != NULL);
    if (!c)
      break;
    EXPECT(cacs_detach(c) == 0);
    if (i % 100 == 99) {
      cacs_yield(); // each runs to its yield
      cacs_yield(); // and finishes
    }
  }
  cacs_yield();
  cacs_yield();
  EXPECT(ran == N && cacs_count() == 0);
  printf("detached: %ld ran and were freed %s\n", ran,
         failures ? "FAILED" : "ok");
}

static void test_finished(void) {
  cacs_coro *c = cacs_create(short_lived, NULL, 0);
  cacs_yield();
  cacs_yield(); // c has finished, not joined
  EXPECT(cacs_done(c) && cacs_count() == 1);
  EXPECT(cacs_detach(c) == 0);
  EXPECT(cacs_count() == 0);
  printf("detach a finished coroutine: freed at once %s\n",
         failures ? "FAILED" : "ok");
}

static void test_join_detached(void) {
  cacs_coro *c = cacs_create(short_lived, NULL, 0);
  EXPECT(cacs_detach(c) == 0);
  int r = cacs_join(c);
  EXPECT(r == -1);
  EXPECT(cacs_detach(c) == -1);           // once
  EXPECT(cacs_detach(cacs_self()) == -1); // main
  cacs_yield();
  cacs_yield();
  printf("join a detached coroutine: %d %s\n", r, failures ? "FAILED" : "ok");
}

static int self_ran;
static void self_detaching(void *arg) {
  (void)arg;
  EXPECT(cacs_detach(cacs_self()) == 0);
  cacs_yield();
  self_ran++;
}

static void test_self(void) {
  cacs_create(self_detaching, NULL, 0);
  cacs_yield();
  cacs_yield();
  cacs_sleep(1000); // parking reaps too
  printf("self-detach: %d ran, %zu alive %s\n", self_ran, cacs_count(),
         failures ? "FAILED" : "ok");
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  test_many();
  test_finished();
  test_join_detached();
  test_self();
  EXPECT(cacs_count() == 0);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
