// The peer of scale.c (shared mode) on libaco, built only from a libaco
// source tree the user gives (run.sh: LIBACO_DIR=...; libaco is not
// packaged, and this repository neither vendors nor fetches it): N
// coroutines on one shared (copy) stack, each run down DEPTH frames with
// live locals and suspended at aco_yield, the same measurements and
// output keys as scale.c.
//
//   aco_scale N [DEPTH]
//
// libaco is asymmetric: the main coroutine resumes each in turn, and each
// yields back to it; one round resumes every coroutine once.

#include "aco.h"

#define SCALE_YIELD() aco_yield()
#include "scale_common.h"

static void body(void) {
  long id = (long)(intptr_t)aco_get_arg();
  results[id] = deep(depth, id, 1);
  aco_exit();
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  if (argc > 2)
    depth = atol(argv[2]);
  results = scale_array(n, sizeof *results);
  aco_t **co = scale_array(n, sizeof *co);
  aco_thread_init(NULL);
  aco_t *main_co = aco_create(NULL, NULL, 0, NULL, NULL);
  aco_share_stack_t *sstk = aco_share_stack_new(0);
  scale_marks m;
  m.rss0 = rss_bytes();
  m.heap0 = heap_bytes();
  m.c[0] = cpu_ns(), m.t[0] = now_ns();
  for (long i = 0; i < n; ++i)
    co[i] = aco_create(main_co, sstk, 0, body, (void *)(intptr_t)i);
  m.c[1] = cpu_ns(), m.t[1] = now_ns();
  for (long i = 0; i < n; ++i) // each runs down to its yield
    aco_resume(co[i]);
  m.c[2] = cpu_ns(), m.t[2] = now_ns();
  m.rss1 = rss_bytes();
  m.heap1 = heap_bytes();
  double saved = 0;
  for (long i = 0; i < n; ++i)
    saved += (double)co[i]->save_stack.valid_sz;
  for (long i = 0; i < n; ++i) // one full round
    aco_resume(co[i]);
  m.c[3] = cpu_ns(), m.t[3] = now_ns();
  stop = 1;
  long ok = 0;
  for (long i = 0; i < n; ++i) {
    aco_resume(co[i]); // finishes
    if (!co[i]->is_end)
      return 1;
    aco_destroy(co[i]);
    ok += results[i] == deep(depth, i, 0);
  }
  m.t[4] = now_ns();
  int pass = scale_report("peer=libaco", n, &m, saved, ok);
  aco_share_stack_destroy(sstk);
  aco_destroy(main_co);
  free(co);
  free(results);
  return pass ? 0 : 1;
}
