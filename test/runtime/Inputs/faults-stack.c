// A fault-injection program (scripts/faults): the stack cache that learns
// its bound from its misses and the live-handle table that keeps its size
// through create/join rounds (runtime/stack-cache.c checks what they learn;
// here every allocation, mapping and advice on their paths may fail).
// Rounds with more alive than the cache's floor raise its bound; rounds
// with few alive end epochs that give the learned stacks back in batches
// and shrink the cache's array (over 1,024 entries) and the handle table;
// generators take stacks of the same cache; then a trim. Every fallible
// call is checked; a failure is reported ("handled: WHAT: ERRNO") and the
// program joins what it made, so a run with any one call failing ends with
// exit 0 and nothing leaked, or in a documented abort.

#define _GNU_SOURCE 1 // strerrorname_np
#include "cacs/coro.h"
#include "cacs/generator.h"
#include "cacs/stack.h"
#include "faults-check.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { MAX_ALIVE = 1100 };
static cacs_coro *coros[MAX_ALIVE];
static long ran, made;

static void body(void *arg) { ran += (long)(intptr_t)arg; }

// One round: `alive` coroutines created, then all joined.
static void round_(int alive) {
  int n = 0;
  for (; n < alive; n++)
    if (!check((coros[n] = cacs_create(body, (void *)(intptr_t)1, 0)) != NULL,
               "cacs_create"))
      break;
  for (int i = 0; i < n; i++)
    check(cacs_join(coros[i]) == 0, "cacs_join");
  made += n;
}

static void gen_body(cacs_gen *g, void *arg) {
  (void)arg;
  cacs_gen_yield(g, 1);
}

static void gens(int n) {
  for (int i = 0; i < n; i++) {
    cacs_gen *g = cacs_gen_create(gen_body, NULL, 0);
    if (!check(g != NULL, "cacs_gen_create"))
      continue;
    uint64_t v;
    check(cacs_gen_next(g, &v) && v == 1, "cacs_gen_next");
    cacs_gen_destroy(g);
  }
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  // A low floor, so that a few dozen alive already teach the cache.
  cacs_stack_set_cache(16);
  for (int r = 0; r < 3; r++)
    round_(64);
  // Fewer alive for several epochs (2 x the learned bound each): the
  // stacks it kept go back in batches.
  for (int r = 0; r < 100; r++)
    round_(4);
  gens(200);
  printf("learned: %ld run of %ld made\n", ran, made);
  // A cache array and a handle table of over 1,024 entries, then epochs of
  // one alive: both shrink.
  for (int r = 0; r < 2; r++)
    round_(MAX_ALIVE);
  for (int r = 0; r < 5000; r++)
    round_(1);
  printf("large: %ld run of %ld made\n", ran, made);
  cacs_stack_pool_trim();
  // After the trim the bound is learned again.
  for (int r = 0; r < 3; r++)
    round_(64);
  cacs_stack_pool_trim();
  check(ran == made, "every coroutine made ran once");
  printf("done: %d handled, %ld run of %ld made\n", handled, ran, made);
  return ran != made;
}
