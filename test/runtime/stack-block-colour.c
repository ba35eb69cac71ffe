// Control blocks of guarded stacks are spread over the page's cache lines
// (stack.c: the colour), not all at one page offset: a ring of coroutines
// reads the next block at every switch, and more than 8 blocks in one set of
// an L1 data cache indexed by the page offset missed on every switch
// (issue 22, ring10). 16 coroutines of 16 KiB and of 4112 bytes: no page
// offset line holds more than two blocks; CACS_STACK_NORANDOM keeps the
// block at the top. Each parked coroutine still touches a single page: its
// saved stack pointer is in the page of its block. (CACS_STACK_EAGER: the
// blocks on their stacks; a coroutine created with no warm stack cached
// gets its stack at its first run, its block elsewhere: coro-lazy-stack.c.)
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t && %t | FileCheck %s
// RUN: %clang %aarch64_flags -O2 -I%cacs_include %s %cacs_rt_aarch64 -o %ta && %run_aarch64 %ta | FileCheck %s
// CHECK: 16384: max per line 1, one page 1
// CHECK-NEXT: 4112: max per line 1, one page 1
// CHECK-NEXT: norandom: max per line 16

#include "cacs/coro.h"
#include "cacs/stack.h"
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

static void body(void *arg) {
  (void)arg;
  cacs_yield();
}

static void report(const char *name, size_t size, unsigned flags) {
  enum { N = 16 };
  cacs_coro *c[N];
  unsigned per_line[4096 / 64] = {0}, max = 0;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  for (int i = 0; i < N; ++i) {
    cacs_coro_attr a = {.stack_size = size,
                        .stack_flags = flags | CACS_STACK_EAGER};
    c[i] = cacs_create_ex(body, 0, &a);
    if (!c[i])
      return;
    unsigned l = (unsigned)(((uintptr_t)c[i] % 4096) / 64);
    if (++per_line[l] > max)
      max = per_line[l];
  }
  cacs_yield(); // every coroutine parks in its first yield
  int one_page = 1;
  for (int i = 0; i < N; ++i) {
    uintptr_t sp = (uintptr_t)*(void **)c[i]; // saved sp: the block's first word
    one_page &= sp / page == (uintptr_t)c[i] / page;
  }
  for (int i = 0; i < N; ++i)
    cacs_join(c[i]);
  if (flags)
    printf("%s: max per line %u\n", name, max);
  else
    printf("%s: max per line %u, one page %d\n", name, max, one_page);
}

int main(void) {
  report("16384", 16384, 0);
  report("4112", 4112, 0);
  report("norandom", 16384, CACS_STACK_NORANDOM);
  return 0;
}
