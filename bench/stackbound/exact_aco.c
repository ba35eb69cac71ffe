// The ring of exact.c on libaco, the peer, built only from a libaco source
// tree the user gives (LIBACO_DIR=...: libaco is not packaged, and this
// repository neither vendors nor fetches it; run.sh build): N coroutines
// of the same server-shaped entry (shape.h), all created, then each run to
// its end, then destroyed, measured and printed as exact.c does.
//
//   exact_aco N
//
// Every coroutine runs on one share (copy) stack, as libaco's own
// benchmarks do: none of them yields, so nothing is ever copied. libaco is
// asymmetric: the main coroutine resumes each in turn and each exits back
// to it, two switches per coroutine where exact.c's scheduler makes one
// (each coroutine's exit switches to the next).

#include "aco.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "shape.h"

static void body(void) {
  serve(aco_get_arg());
  aco_exit();
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
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
  double t[4];
  t[0] = now();
  for (long i = 0; i < n; ++i)
    cs[i] = aco_create(main_co, sstk, 0, body, &rs[i]);
  t[1] = now();
  long rss1 = rss();
  for (long i = 0; i < n; ++i) // each runs to its end
    aco_resume(cs[i]);
  t[2] = now();
  for (long i = 0; i < n; ++i)
    aco_destroy(cs[i]);
  t[3] = now();
  return ring_report("aco", n, 0, 0, rss0, rss1, t, rs);
}
