//===- bench/skynet/skynet_pool.c - skynet on libcacs's pool --------------===//
//
// skynet: a tree of coroutines, 10 children each, down to N leaves (-n,
// 1,000,000: 1,111,111 coroutines); leaf i returns i, every node returns
// the sum of its children's. -v sets the worker count (default 1). Each
// repetition creates its pool, runs the tree from the main thread (spawn
// the root, join it) and destroys the pool. Timed from the root's spawn to
// its join as the process's CPU time (every worker's: on a machine shared
// with other jobs, wall-clock time measures the load) in `ns`, and as
// wall-clock time in the WALL line (what a second worker can shorten).
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/pool.h"
#include "skynet.h"

typedef struct node {
  cacs_pool *pool;
  uint64_t num, size, sum;
} node;

static void skynet(void *arg) {
  node *n = arg;
  if (n->size == 1) {
    n->sum = n->num;
    return;
  }
  node kids[10];
  cacs_pool_task *t[10];
  uint64_t part = n->size / 10;
  for (int i = 0; i < 10; ++i) {
    kids[i] = (node){n->pool, n->num + (uint64_t)i * part, part, 0};
    t[i] = cacs_pool_spawn(n->pool, skynet, &kids[i]);
    if (!t[i])
      abort();
  }
  uint64_t sum = 0;
  for (int i = 0; i < 10; ++i) {
    if (cacs_pool_join(t[i]) != 0)
      abort();
    sum += kids[i].sum;
  }
  n->sum = sum;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 1000000);
  unsigned workers = a.variant ? (unsigned)atoi(a.variant) : 1;
  char variant[32];
  snprintf(variant, sizeof variant, "libcacs-pool-%uw", workers);
  bench_run r = bench_begin("skynet", variant, a.n);
  uint64_t coros = skynet_coroutines(a.n);
  uint64_t wall[BENCH_MAX_REPS];
  for (int rep = 0; rep < a.reps; ++rep) {
    // Built with -fcoroutine-migration: its running coroutines may move.
    cacs_pool_attr attr = {workers, 16 * 1024, CACS_POOL_MIGRATE_RUNNING};
    cacs_pool *p = cacs_pool_create_ex(&attr);
    if (!p)
      return 1;
    node root = {p, 0, a.n, 0};
    uint64_t c0 = bench_process_cpu_ns(), t0 = bench_now_ns();
    cacs_pool_join(cacs_pool_spawn(p, skynet, &root));
    uint64_t t1 = bench_now_ns(), c1 = bench_process_cpu_ns();
    cacs_pool_destroy(p);
    wall[rep] = t1 - t0;
    bench_record(&r, c1 - c0, coros, root.sum, a.n * (a.n - 1) / 2);
  }
  bench_print_wall(wall, a.reps);
  return bench_end(&r);
}
