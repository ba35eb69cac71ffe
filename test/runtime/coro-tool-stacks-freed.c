// A coroutine's tool stacks come and go with it (coro.c: tools_init and
// cacs__coro_free, which skip the tools' calls when none was on at its
// creation). Under SafeStack every coroutine has an unsafe stack of its own
// besides its stack: joined, both wait in the thread's cache for reuse, and
// a thousand creations and joins leave the same two. Without a tool only its
// stack does.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t0
// RUN: %t0 | FileCheck %s --check-prefix=PLAIN
// RUN: %clang -O1 -fsanitize=safe-stack -I%cacs_include %s %cacs_rt_x86_64 -o %t1
// RUN: %t1 | FileCheck %s --check-prefix=SAFE
//
// PLAIN: one: ran 1, cached 1
// PLAIN-NEXT: thousand: ran 1001, cached 1
// SAFE: one: ran 1, cached 2
// SAFE-NEXT: thousand: ran 1001, cached 2

#include "cacs/coro.h"
#include "cacs/stack.h"
#include <stdio.h>
#include <string.h>

static void body(void *arg) {
  char buf[64]; // address-taken: on the unsafe stack under SafeStack
  memset(buf, 1, sizeof buf);
  __asm__ volatile("" : : "r"(buf) : "memory");
  ++*(int *)arg;
}

int main(void) {
  int ran = 0;
  size_t before = cacs_stack_pool_count();
  cacs_join(cacs_create(body, &ran, 0));
  printf("one: ran %d, cached %zu\n", ran, cacs_stack_pool_count() - before);
  for (int i = 0; i < 1000; ++i)
    cacs_join(cacs_create(body, &ran, 0));
  printf("thousand: ran %d, cached %zu\n", ran,
         cacs_stack_pool_count() - before);
  return 0;
}
