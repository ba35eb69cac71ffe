// The lifecycle benchmark (lifecycle.h) on libcacs's public API:
// cacs_create_ex, then cacs_join, which runs the coroutine to its end and
// frees it.
//
//   lifecycle_cacs private|shared|noguard <lifecycle.h arguments>
//
// private: the default stack (64 KiB, guarded, private); shared:
// CACS_STACK_SHARED; noguard: CACS_STACK_NOGUARD.

#include "lifecycle.h"

#include <cacs/coro.h>

static cacs_coro **coros;
static cacs_coro_attr attr;

static void body(void *arg) { lc_sum += (uint64_t)(uintptr_t)arg; }

static void lc_create(long i) {
  coros[i] = cacs_create_ex(body, (void *)(uintptr_t)(i + 1), &attr);
  if (!coros[i]) {
    perror("cacs_create_ex");
    exit(1);
  }
}

static void lc_join(long i) {
  if (cacs_join(coros[i]) != 0) {
    perror("cacs_join");
    exit(1);
  }
}

static void lc_touch(long n) { memset(coros, 0, (size_t)n * sizeof *coros); }

int main(int argc, char **argv) {
  const char *v = argc > 1 ? argv[1] : "private";
  if (!strcmp(v, "shared"))
    attr.stack_flags = CACS_STACK_SHARED;
  else if (!strcmp(v, "noguard"))
    attr.stack_flags = CACS_STACK_NOGUARD;
  else if (strcmp(v, "private"))
    return 64;
  coros = malloc(LC_MAX * sizeof *coros);
  char peer[32];
  snprintf(peer, sizeof peer, "libcacs-%s", v);
  return lc_main(peer, argc - 1, argv + 1);
}
