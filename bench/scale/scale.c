// Many idle coroutines (issue 24): memory per coroutine, creation time per
// coroutine and one full yield round, every coroutine suspended at a yield
// some frames deep with live locals (one that never ran would cost only its
// control block, which proves nothing).
//
//   scale N [private|noguard4k] [DEPTH]
//
//   private    default stacks (64 KiB, guard page): at most one mapping per
//              slab of stacks, so N is not bounded by vm.max_map_count
//   noguard4k  4 KiB stacks without guard page (the smallest private stack)
//   shared     CACS_STACK_SHARED: one shared execution stack, each coroutine
//              keeps its control block and the copy of the frames it used
//
// Prints one line of key=value pairs, times per coroutine in ns (wall and
// process CPU), and where the memory goes: saved_per_coro_B, the copies
// of shared-stack coroutines' frames; heap_per_coro_B, all malloc'd
// bytes (control blocks of shared-stack coroutines, saved copies, the
// runtime's tables, malloc's headers); exits non-zero unless every
// coroutine ran, was suspended, came back with its locals intact and
// finished.

#include "cacs/coro.h"

#define SCALE_YIELD() cacs_yield()
#include "scale_common.h"

static void body(void *arg) {
  long id = (long)(intptr_t)arg;
  results[id] = deep(depth, id, 1);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  const char *mode = argc > 2 ? argv[2] : "private";
  if (argc > 3)
    depth = atol(argv[3]);
  cacs_coro_attr attr = {0, 0, 0, "s"};
  if (!strcmp(mode, "noguard4k")) {
    attr.stack_size = 4096;
    attr.stack_flags = CACS_STACK_NOGUARD | CACS_STACK_NORANDOM;
  } else if (!strcmp(mode, "shared")) {
    attr.stack_flags = CACS_STACK_SHARED;
  } else if (strcmp(mode, "private")) {
    fprintf(stderr, "scale: unknown mode '%s'\n", mode);
    return 2;
  }
  // The program's own arrays are in the baseline.
  results = scale_array(n, sizeof *results);
  cacs_coro **co = scale_array(n, sizeof *co);
  cacs_yield(); // the scheduler exists
  scale_marks m;
  m.rss0 = rss_bytes();
  m.heap0 = heap_bytes();

  m.c[0] = cpu_ns(), m.t[0] = now_ns();
  for (long i = 0; i < n; ++i) {
    co[i] = cacs_create_ex(body, (void *)(intptr_t)i, &attr);
    if (!co[i]) {
      perror("scale: cacs_create");
      return 1;
    }
  }
  m.c[1] = cpu_ns(), m.t[1] = now_ns();
  cacs_yield(); // each runs down to its yield
  m.c[2] = cpu_ns(), m.t[2] = now_ns();
  m.rss1 = rss_bytes();
  m.heap1 = heap_bytes();
  double saved = (double)cacs_stack_shared_saved(); // shared: copies kept
  cacs_yield(); // one full round: every coroutine resumed and yields again
  m.c[3] = cpu_ns(), m.t[3] = now_ns();
  stop = 1;
  cacs_yield(); // all finish
  long ok = 0;
  for (long i = 0; i < n; ++i) {
    cacs_join(co[i]);
    ok += results[i] == deep(depth, i, 0);
  }
  m.t[4] = now_ns();
  char head[64];
  snprintf(head, sizeof head, "mode=%s", mode);
  int pass = scale_report(head, n, &m, saved, ok);
  free(co);
  free(results);
  return pass ? 0 : 1;
}
