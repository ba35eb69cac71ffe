// Exact stacks against guarded 64 KiB private stacks and shared stacks
// (issue 34, part 4, the part that exact stacks can run today): N
// coroutines of one entry that parses, handles and answers three calls
// deep, run to their end. Built with -fcacs-stack-bounds, so the entry has
// a proven bound; the modes that do not use it say so at creation.
//
//   exact MODE N      MODE: exact | private64k | shared
//
// Prints one line: the mode, whether the entry's coroutines really ran on
// an exact stack, RSS per coroutine once all N are created (idle, not
// started), creation time per coroutine, run time per coroutine (the
// first switch in, the body, cacs_exit, the switch to the next), join
// time per coroutine, and how many came back with the right answer. Not
// a ring of switches: an entry that yields has no bound today (libcacs's
// switch is code the link cannot see), so its coroutines run once.
// bench/stackbound/run.sh runs the modes interleaved, pinned.

#include "cacs/coro.h"
#include "cacs/stack.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
  size_t bytes = 0;
  int exact = !strcmp(mode, "exact") && cacs_stack_exact(serve, &bytes);
  req *rs = calloc((size_t)n, sizeof *rs);
  cacs_coro **cs = calloc((size_t)n, sizeof *cs);
  if (!rs || !cs)
    return 1;
  for (long i = 0; i < n; ++i) // in the baseline
    rs[i].id = (uint32_t)i, cs[i] = NULL;
  cacs_yield(); // the scheduler exists
  long rss0 = rss();
  double t[4];
  t[0] = now();
  for (long i = 0; i < n; ++i)
    if (!(cs[i] = cacs_create_ex(serve, &rs[i], &a)))
      return fprintf(stderr, "create %ld failed\n", i), 1;
  t[1] = now();
  long rss1 = rss();
  cacs_yield(); // every one runs to its end
  t[2] = now();
  for (long i = 0; i < n; ++i)
    cacs_join(cs[i]);
  t[3] = now();
  return ring_report(mode, n, exact, bytes, rss0, rss1, t, rs);
}
