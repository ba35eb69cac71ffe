// A spawned tree runs depth first on one worker, in both modes: a
// coroutine woken by a join's end runs before the coroutines that wait in
// the worker's deque (cacs/pool.h, "Scheduling"). Every node of a tree
// (fan-out 8, depth 3: 585 coroutines, as skynet's) spawns its children,
// then joins them in spawn order. Depth first, a node woken by the end of
// the child it joins runs at once, joins the rest (finished), ends and
// frees its stack, so the live coroutines (started, not ended) are never
// more than one path from the root: depth + 1. Had the woken ones to wait
// behind the deque (it happened once: skynet took 5 s instead of 0.3 s),
// each woken node would stay live while its parent's other subtrees ran,
// and whole levels would be live at once (seen: 65 in the default mode
// with its woken queue read after the deque). The count does not depend
// on timing: one worker, no timers.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t pinned | FileCheck %s
// RUN: %t migrate | FileCheck %s
// CHECK: coroutines 585, live at most 4 (one path: 4): depth first yes

#include "cacs/pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FANOUT = 8, DEPTH = 3 };

// One worker: no two coroutines run at once, plain counters suffice.
static int live, peak, total;
static cacs_pool *the_pool;

static void node(void *arg) {
  long level = (long)arg;
  ++total;
  if (++live > peak)
    peak = live;
  if (level < DEPTH) {
    cacs_pool_task *kids[FANOUT];
    for (int i = 0; i < FANOUT; ++i)
      if (!(kids[i] = cacs_pool_spawn(the_pool, node, (void *)(level + 1))))
        abort();
    for (int i = 0; i < FANOUT; ++i)
      if (cacs_pool_join(kids[i]) != 0)
        abort();
  }
  --live;
}

int main(int argc, char **argv) {
  int migrate = argc > 1 && !strcmp(argv[1], "migrate");
  cacs_pool_attr attr = {
      1, 0, migrate ? CACS_POOL_MIGRATE_RUNNING : CACS_POOL_MIGRATE_UNSTARTED};
  the_pool = cacs_pool_create_ex(&attr);
  if (!the_pool)
    return 1;
  cacs_pool_task *root = cacs_pool_spawn(the_pool, node, (void *)0L);
  if (!root || cacs_pool_join(root) != 0)
    return 1;
  cacs_pool_destroy(the_pool);
  printf("coroutines %d, live at most %d (one path: %d): depth first %s\n",
         total, peak, DEPTH + 1, peak <= DEPTH + 1 ? "yes" : "no");
  return 0;
}
