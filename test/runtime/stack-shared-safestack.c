// SafeStack (-fsanitize=safe-stack) with CACS_STACK_SHARED: the coroutines'
// address-taken locals live on their unsafe stacks, which are never copied,
// so each shared-stack coroutine must have an unsafe stack of its own (a
// shared one would put two coroutines' unsafe frames at the same
// addresses, and the shared execution stack would hold both safe and
// unsafe frames). Two coroutines on one shared stack each fill a buffer
// with their own pattern and check it after yielding to the other; the
// summary must equal the stock clang -O0 build's.
//
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t0
// RUN: %t0 > %t0.out
// RUN: %clang -O1 -fsanitize=safe-stack -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t1
// RUN: %t1 > %t1.out
// RUN: diff %t0.out %t1.out
// RUN: FileCheck %s < %t1.out
//
// CHECK: shared: checked=40 bad=0
// CHECK-NEXT: PASS

#include "cacs/coro.h"

#include <stdio.h>

#include "Inputs/unsafe-frames.h"

static void body(void *arg) {
  int tag = (int)(long)arg;
  char buf[512];
  for (int i = 0; i < 20; i++) {
    fill(buf, 512, tag + i);
    cacs_yield(); // the other one fills its buffer
    check(buf, 512, tag + i);
  }
}

int main(void) {
  cacs_coro_attr attr = {0, CACS_STACK_SHARED, 0, "s"};
  cacs_coro *a = cacs_create_ex(body, (void *)1L, &attr);
  cacs_coro *b = cacs_create_ex(body, (void *)2L, &attr);
  if (!a || !b) {
    perror("cacs_create_ex");
    return 1;
  }
  cacs_join(a);
  cacs_join(b);
  printf("shared: checked=%ld bad=%ld\n", checked, bad);
  puts(checked == 40 && bad == 0 ? "PASS" : "FAIL");
  return 0;
}
