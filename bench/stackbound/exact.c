// Exact stacks against guarded 64 KiB private stacks and shared stacks
// (issue 34, part 4): N coroutines of one entry that parses, handles and
// answers three calls deep. Built with -fcacs-stack-bounds, so the entry
// has a proven bound; the modes that do not use it say so at creation.
//
//   exact MODE N               MODE: exact | private64k | shared
//   exact_ring MODE N ROUNDS   (this file built with -DSHAPE_RING)
//
// `exact`: each coroutine runs the shape once, to its end. Prints one
// line: the mode, whether the entry's coroutines really ran on an exact
// stack, RSS per coroutine once all N are created (idle, not started),
// creation time per coroutine, run time per coroutine (the first switch
// in, the body, cacs_exit, the switch to the next), join time per
// coroutine, and how many came back with the right answer.
//
// `exact_ring`: the ring of switches. Each coroutine runs ROUNDS rounds of
// the shape and yields (cacs_yield) in each, inside its deepest call, the
// wait the server parks in: libcacs's switches state their stack budget
// (cacs/detail/contract.h), so this entry has a bound as well (the yield's
// budget below its frames). main is one member of the ready ring: each of
// its cacs_yield calls is one round of all N. Prints RSS per coroutine
// with all N parked in their yield, and per coroutine: creation, the first
// round (the first switch in, to the yield), a round (the resume, the
// shape's rest and next start, the yield: one switch; main's turn adds
// 1/N of one), the joins (the last round and the exit), and the shape
// alone per round (run again without the yield: shape_ns).
// bench/stackbound/run.sh runs the modes interleaved, pinned.

#include "cacs/coro.h"
#include "cacs/stack.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef SHAPE_RING
#define SHAPE_YIELD() cacs_yield()
#define ENTRY serve_rounds
#else
#define ENTRY serve
#endif
#include "shape.h"

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "exact";
  long n = argc > 2 ? atol(argv[2]) : 100000;
  cacs_coro_attr a = {0, 0, 0, NULL};
  if (!strcmp(mode, "private64k"))
    a.stack_flags = CACS_STACK_NOBOUND;
  else if (!strcmp(mode, "shared"))
    a.stack_flags = CACS_STACK_SHARED;
  else if (strcmp(mode, "exact"))
    return fprintf(stderr, "exact: unknown mode %s\n", mode), 2;
#ifdef SHAPE_RING
  shape_rounds = argc > 3 ? atol(argv[3]) : 100;
  if (shape_rounds < 2)
    return fprintf(stderr, "exact_ring: ROUNDS must be at least 2\n"), 2;
#endif
  size_t bytes = 0;
  int exact = !strcmp(mode, "exact") && cacs_stack_exact(ENTRY, &bytes);
  req *rs = calloc((size_t)n, sizeof *rs);
  cacs_coro **cs = calloc((size_t)n, sizeof *cs);
  if (!rs || !cs)
    return 1;
  for (long i = 0; i < n; ++i) // in the baseline
    rs[i].id = (uint32_t)i, cs[i] = NULL;
  cacs_yield(); // the scheduler exists
  long rss0 = rss();
  double t[6];
  t[0] = now();
  for (long i = 0; i < n; ++i)
    if (!(cs[i] = cacs_create_ex(ENTRY, &rs[i], &a)))
      return fprintf(stderr, "create %ld failed\n", i), 1;
  t[1] = now();
#ifdef SHAPE_RING
  cacs_yield(); // the first round: each starts and parks in its yield
  t[2] = now();
  long rss1 = rss(); // all N parked
  t[3] = now();
  for (long k = 1; k < shape_rounds; ++k)
    cacs_yield(); // one round of the ring
  t[4] = now();
  for (long i = 0; i < n; ++i) // the last round, the exits
    cacs_join(cs[i]);
  t[5] = now();
  return rounds_report(mode, n, exact, bytes, rss0, rss1, t, rs);
#else
  long rss1 = rss();
  cacs_yield(); // every one runs to its end
  t[2] = now();
  for (long i = 0; i < n; ++i)
    cacs_join(cs[i]);
  t[3] = now();
  return ring_report(mode, n, exact, bytes, rss0, rss1, t, rs);
#endif
}
