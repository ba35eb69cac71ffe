// A CACS_STACK_NOPOOL stack is a mapping of its own, unmapped when freed;
// its descriptor lies in that mapping, so freeing it must not read the
// descriptor once the mapping is gone (it did: a SIGSEGV at the first
// free). Guarded and unguarded ones, allocated and freed in turn.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: %t | FileCheck %s
// RUN: env CACS_STACK_GUARD=mprotect %t | FileCheck %s
//
// CHECK: freed 8 guarded, 8 unguarded

#include "cacs/stack.h"

#include <stdio.h>

static int one(unsigned flags) {
  void *h = cacs_stack_alloc(16384, 0, CACS_STACK_NOPOOL | flags);
  if (!h)
    return 0;
  cacs_stack *s = (cacs_stack *)h;
  ((volatile char *)s->top)[-1] = 1; // the stack is usable
  cacs_stack_free(s);
  return 1;
}

int main(void) {
  int guarded = 0, unguarded = 0;
  for (int i = 0; i < 8; ++i) {
    guarded += one(0);
    unguarded += one(CACS_STACK_NOGUARD);
  }
  printf("freed %d guarded, %d unguarded\n", guarded, unguarded);
  return 0;
}
