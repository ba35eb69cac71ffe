// A fresh shared-stack coroutine starts in cacs__shared_start (yield_<arch>.S),
// which calls its entry with no frame of its own: the entry is called by
// the start itself (not by coro_main above the start trampoline), and on
// x86-64 its frame record (saved rbp, return address) is the top 16 bytes
// of the shared stack, so a suspended coroutine saves nothing of the start
// (48 bytes below the top before: 32 more bytes in every saved copy).
// Entries that return normally finish through cacs_exit there, and are
// joined.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: %t 1000 2>&1 | FileCheck %s
//
// CHECK: suspended 1000, called by the start, frame at the top: yes
// CHECK-NEXT: finished 1000, locals ok, joined 1000
// CHECK-NEXT: PASS
//
// A64: suspended 300, called by the start, frame at the top: yes
// A64-NEXT: finished 300, locals ok, joined 300
// A64-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/stack.h"

#include <stdio.h>
#include <stdlib.h>

static long finished, bad;
static char *top_seen; // the frame address of the first body to run
static char *ret_seen; // and its return address
// In libcacs (hidden, linked statically): where a fresh one starts.
extern char cacs__shared_start[];

// One local kept across the yield; the entry returns (no cacs_exit call).
static void body(void *arg) {
  volatile long x = (long)arg;
  if (!top_seen) {
    top_seen = __builtin_frame_address(0);
    ret_seen = __builtin_return_address(0);
  }
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
  // The return address lies in the start (a few instructions long). On
  // x86-64 the frame pointer points at the entry's frame record, whose
  // saved rbp and return address are then the top 16 bytes (AArch64 puts
  // the record below the callee-saved registers).
  int by_start = ret_seen >= cacs__shared_start && ret_seen < cacs__shared_start + 64;
  char *top = cacs_stack_shared(0)->top;
  long below = (long)(top - top_seen);
#if defined(__x86_64__)
  int at_top = below == 16;
#else
  int at_top = 1;
#endif
  printf("suspended %ld, called by the start, frame at the top: %s\n", n,
         by_start && at_top ? "yes" : "no");
  if (!by_start || !at_top)
    printf("return address %p (start %p), frame %ld bytes below the top\n",
           (void *)ret_seen, (void *)cacs__shared_start, below);
  long joined = 0;
  for (long i = 0; i < n; ++i)
    joined += cacs_join(cs[i]) == 0;
  printf("finished %ld, locals %s, joined %ld\n", finished, bad ? "BAD" : "ok",
         joined);
  free(cs);
  puts(finished == n && !bad && joined == n ? "PASS" : "FAIL");
  return 0;
}
