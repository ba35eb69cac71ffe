// The lifecycle benchmark (lifecycle.h) on libaco, built only from a libaco
// source tree the user gives (run.sh: LIBACO_DIR=...; libaco is not
// packaged, and this repository neither vendors nor fetches it). Every
// coroutine runs on one share (copy) stack, as libaco's own benchmarks do:
// none of them yields, so nothing is ever copied.
//
//   lifecycle_aco <lifecycle.h arguments>

#include "aco.h"
#include "lifecycle.h"

static aco_t **coros;
static aco_t *main_co;
static aco_share_stack_t *sstk;

static void body(void) {
  lc_sum += (uint64_t)(uintptr_t)aco_get_arg();
  aco_exit();
}

static void lc_create(long i) {
  coros[i] = aco_create(main_co, sstk, 0, body, (void *)(uintptr_t)(i + 1));
}

static void lc_join(long i) {
  aco_resume(coros[i]);
  aco_destroy(coros[i]);
}

static void lc_touch(long n) { memset(coros, 0, (size_t)n * sizeof *coros); }

int main(int argc, char **argv) {
  coros = malloc(LC_MAX * sizeof *coros);
  aco_thread_init(NULL);
  main_co = aco_create(NULL, NULL, 0, NULL, NULL);
  sstk = aco_share_stack_new(0);
  return lc_main("libaco", argc, argv);
}
