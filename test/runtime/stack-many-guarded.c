// Many live coroutines with default (guarded) stacks: slabs with guard
// regions (MADV_GUARD_INSTALL) take one mapping for many stacks, so 40,000
// coroutines fit under the default vm.max_map_count of 65,530 (one mapping
// pair per stack stopped at 32,753). Each coroutine has run and is
// suspended at a yield five frames deep with live locals; all resume and
// check them. The fallback guard (forced: CACS_STACK_GUARD=mprotect) splits
// mappings and so has a budget: past it cacs_create fails with ENOMEM and a
// message naming vm.max_map_count, and everything created still runs.
//
// The fallback runs in stack-guard-fallback.c.
//
// REQUIRES: madv-guard
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: %t 40000 2>&1 | FileCheck %s
//
// CHECK: guard madvise
// CHECK-NEXT: created 40000
// CHECK-NEXT: suspended 40000
// CHECK-NEXT: finished 40000, locals ok
// CHECK-NEXT: PASS
//
// FALLBACK: guard mprotect
// FALLBACK-NEXT: cacs: cannot allocate a coroutine stack: no mappings left for guard pages (this kernel lacks MADV_GUARD_INSTALL: each guard splits a mapping) (vm.max_map_count = {{[0-9]+}}); raise vm.max_map_count, or use CACS_STACK_NOGUARD or shared stacks
// FALLBACK-NEXT: create failed: ENOMEM after {{[1-9][0-9][0-9][0-9]+}}
// FALLBACK-NEXT: suspended [[N:[0-9]+]]
// FALLBACK-NEXT: finished [[N]], locals ok
// FALLBACK-NEXT: PASS

#include "cacs/coro.h"
#include "Inputs/deep-yield.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long *results;

static void body(void *arg) {
  long id = (long)(intptr_t)arg;
  results[id] = deep(4, id, 1);
}

int main(int argc, char **argv) {
  int budget = argc > 1 && !strcmp(argv[1], "budget");
  long n = budget ? 200000 : (argc > 1 ? atol(argv[1]) : 1000);
  printf("guard %s\n", cacs_stack_guard_kind() == CACS_STACK_GUARD_MADVISE
                           ? "madvise"
                           : "mprotect");
  fflush(stdout);
  results = calloc((size_t)n, sizeof *results);
  cacs_coro **co = calloc((size_t)n, sizeof *co);
  long made = 0;
  for (; made < n; ++made) {
    co[made] = cacs_create(body, (void *)(intptr_t)made, 0);
    if (!co[made])
      break;
  }
  if (made < n) {
    fflush(stderr);
    printf("create failed: %s after %ld\n",
           errno == ENOMEM ? "ENOMEM" : strerror(errno), made);
    if (!budget)
      return 1;
  } else {
    printf("created %ld\n", made);
    if (budget)
      return 1; // the budget must have stopped it
  }
  cacs_yield(); // every coroutine runs to its yield
  printf("suspended %ld\n", reached);
  cacs_yield(); // every coroutine finishes
  long ok = 0;
  for (long i = 0; i < made; ++i) {
    cacs_join(co[i]);
    ok += results[i] == deep(4, i, 0);
  }
  printf("finished %ld, locals %s\n", ok, ok == made ? "ok" : "WRONG");
  free(co);
  free(results);
  if (reached != made || ok != made)
    return 1;
  printf("PASS\n");
  return 0;
}
