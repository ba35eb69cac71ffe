// A fresh shared-stack coroutine starts in cacs__shared_start (yield_<arch>.S),
// which calls its entry with no frame of its own: the entry's frame record
// (saved frame pointer and return address) is the top 16 bytes of the
// shared stack, so a suspended coroutine saves nothing of the start
// trampoline and coro_main (32 bytes more on x86-64 before). Entries that
// return normally finish through cacs_exit there, and are joined.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: %t 1000 2>&1 | FileCheck %s
//
// CHECK: suspended 1000, entry frame record at the stack top: yes
// CHECK-NEXT: finished 1000, locals ok, joined 1000
// CHECK-NEXT: PASS
//
// A64: suspended 300, entry frame record at the stack top: yes
// A64-NEXT: finished 300, locals ok, joined 300
// A64-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/stack.h"

#include <stdio.h>
#include <stdlib.h>

static long finished, bad;
static char *top_seen; // the frame address of the first body to run

// One local kept across the yield; the entry returns (no cacs_exit call).
static void body(void *arg) {
  volatile long x = (long)arg;
  if (!top_seen)
    top_seen = __builtin_frame_address(0);
  cacs_yield();
  if (x != (long)arg)
    bad++;
  finished++;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  cacs_coro **cs = calloc((size_t)n, sizeof *cs);
  cacs_coro_attr a = {0, CACS_STACK_SHARED, 0, NULL};
  for (long i = 0; i < n; ++i)
    if (!(cs[i] = cacs_create_ex(body, (void *)(i * 7 + 1), &a))) {
      perror("cacs_create_ex");
      return 1;
    }
  cacs_yield(); // each runs to its yield
  // The frame pointer points at the entry's frame record (x86-64: saved
  // rbp, return address above it; AArch64: x29, x30): the top 16 bytes.
  char *top = cacs_stack_shared(0)->top;
  long below = (long)(top - top_seen);
  printf("suspended %ld, entry frame record at the stack top: %s\n", n,
         below == 16 ? "yes" : "no");
  if (below != 16)
    printf("it lies %ld bytes below the top\n", below);
  long joined = 0;
  for (long i = 0; i < n; ++i)
    joined += cacs_join(cs[i]) == 0;
  printf("finished %ld, locals %s, joined %ld\n", finished, bad ? "BAD" : "ok",
         joined);
  free(cs);
  puts(finished == n && !bad && joined == n ? "PASS" : "FAIL");
  return 0;
}
