// The ring of exact.c on libaco, the peer, built only from a libaco source
// tree the user gives (LIBACO_DIR=...: libaco is not packaged, and this
// repository neither vendors nor fetches it; run.sh build): N coroutines
// of the same server-shaped entry (shape.h), all created, then each run to
// its end, then destroyed, measured and printed as exact.c does.
//
//   exact_aco N
//   exact_aco_ring N ROUNDS   (this file built with -DSHAPE_RING)
//
// Every coroutine runs on one share (copy) stack, as libaco's own
// benchmarks do. libaco is asymmetric: the main coroutine resumes each in
// turn and each exits (or yields) back to it, two switches per coroutine
// where exact.c's scheduler makes one (each coroutine's exit or yield
// switches to the next). `exact_aco`: none of them yields, so nothing is
// ever copied. `exact_aco_ring`: each yields (aco_yield) inside the
// shape's deepest call in each of ROUNDS rounds, as exact_ring's; main
// resumes all N once per round, and each resume of a coroutine other than
// the share stack's last one copies the last one's frames out and its own
// back in.

#include "aco.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef SHAPE_RING
#define SHAPE_YIELD() aco_yield()
#define ENTRY serve_rounds
#else
#define ENTRY serve
#endif
#include "shape.h"

static void body(void) {
  ENTRY(aco_get_arg());
  aco_exit();
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
#ifdef SHAPE_RING
  shape_rounds = argc > 2 ? atol(argv[2]) : 100;
  if (shape_rounds < 2)
    return fprintf(stderr, "exact_aco_ring: ROUNDS must be at least 2\n"), 2;
#endif
  req *rs = calloc((size_t)n, sizeof *rs);
  aco_t **cs = calloc((size_t)n, sizeof *cs);
  if (!rs || !cs)
    return 1;
  for (long i = 0; i < n; ++i) // in the baseline
    rs[i].id = (uint32_t)i, cs[i] = NULL;
  aco_thread_init(NULL);
  aco_t *main_co = aco_create(NULL, NULL, 0, NULL, NULL);
  aco_share_stack_t *sstk = aco_share_stack_new(0);
  long rss0 = rss();
  double t[6];
  t[0] = now();
  for (long i = 0; i < n; ++i)
    cs[i] = aco_create(main_co, sstk, 0, body, &rs[i]);
  t[1] = now();
#ifdef SHAPE_RING
  for (long i = 0; i < n; ++i) // the first round: each parks in its yield
    aco_resume(cs[i]);
  t[2] = now();
  long rss1 = rss(); // all N parked
  t[3] = now();
  for (long k = 1; k < shape_rounds; ++k)
    for (long i = 0; i < n; ++i) // one round of the ring
      aco_resume(cs[i]);
  t[4] = now();
  for (long i = 0; i < n; ++i) { // the last round, the exits
    aco_resume(cs[i]);
    aco_destroy(cs[i]);
  }
  t[5] = now();
  return rounds_report("aco", n, 0, 0, rss0, rss1, t, rs);
#else
  long rss1 = rss();
  for (long i = 0; i < n; ++i) // each runs to its end
    aco_resume(cs[i]);
  t[2] = now();
  for (long i = 0; i < n; ++i)
    aco_destroy(cs[i]);
  t[3] = now();
  return ring_report("aco", n, 0, 0, rss0, rss1, t, rs);
#endif
}
