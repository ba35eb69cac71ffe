//===- bench/libcacs/memory_libcacs.c - Memory per idle libcacs coroutine
//--===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// memory.c with the runtime's coroutines: n coroutines from cacs_create_ex()
// with stack size -v BYTES (default 4112) and no guard page (a guard page
// per stack would need 2 VMAs each, over vm.max_map_count at 10^6). Main
// yields once, so every coroutine starts and parks in cacs_yield(); main
// then reads VmRSS, releases them and joins. `ns` holds bytes per coroutine
// x1000; checksum: coroutines that ran.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/coro.h"

#include <stdlib.h>

static uint64_t started;
static int release;

static void idle_body(void *arg) {
  (void)arg;
  ++started;
  while (!release)
    cacs_yield();
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 1000000);
  size_t stack = a.variant ? strtoul(a.variant, NULL, 0) : 4112;
  char name[64];
  snprintf(name, sizeof name, "libcacs-stack-%zu", stack);
  bench_run r = bench_begin("memory", name, a.n);
  size_t n = (size_t)a.n;
  cacs_coro **c = (cacs_coro **)malloc(n * sizeof *c);
  for (int rep = 0; rep < a.reps; ++rep) {
    started = 0;
    release = 0;
    long before = vm_rss_kib();
    cacs_coro_attr attr = {stack, CACS_STACK_NOGUARD, 0, "idle"};
    size_t made = 0;
    for (; made < n; ++made)
      if (!(c[made] = cacs_create_ex(idle_body, NULL, &attr)))
        break;
    if (made < n)
      fprintf(stderr, "cacs_create_ex failed after %zu coroutines\n", made);
    cacs_yield(); // one round of the ring: everybody starts and parks
    long after = vm_rss_kib();
    release = 1;
    for (size_t i = 0; i < made; ++i)
      cacs_join(c[i]);
    // The c[] array (8 bytes each) is outside the measured growth: it was
    // allocated before `before` (malloc'd but untouched pages count when
    // first written, so subtract it).
    double per = made ? ((after - before) * 1024.0 - 8.0 * made) / made : 0;
    bench_record(&r, (uint64_t)(per * 1000), n, started, n);
  }
  free(c);
  return bench_end(&r);
}
