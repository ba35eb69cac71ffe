//===- bench/memory/memory.c - Resident memory per idle coroutine ---------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Creates n coroutines (default 1,000,000) on small stacks carved from one
// anonymous mapping (stack size -v BYTES, default 4112, the paper's small
// stack), runs each one until it parks in bco_yield() (so its stack really
// holds a suspended frame chain), and reports the growth of VmRSS from
// /proc/self/status divided by n. `ns` holds bytes-per-coroutine * 1000 here
// (not a time); ops = n. Checksum: the number of coroutines that ran.
//
//===----------------------------------------------------------------------===//

#define BCO_DEFINE_ASM
#include "bcoro.h"
#include "bench.h"

#include <sys/mman.h>

static uint64_t started, n_total;
static int release;
static long rss_all_idle;

static void idle_body(void *arg) {
  (void)arg;
  if (++started == n_total) {
    // Everybody else is parked in bco_yield(): measure, then let all go.
    rss_all_idle = vm_rss_kib();
    release = 1;
  }
  while (!release)
    bco_yield();
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 1000000);
  size_t stack = a.variant ? strtoul(a.variant, NULL, 0) : 4112;
  stack = (stack + 15) & ~(size_t)15;
  char name[64];
  snprintf(name, sizeof name, "stack-%zu", stack);
  bench_run r = bench_begin("memory", name, a.n);
  for (int rep = 0; rep < a.reps; ++rep) {
    size_t n = (size_t)a.n;
    // Control blocks and stacks both count: they are what a coroutine costs.
    long before = vm_rss_kib();
    bco *cos = (bco *)mmap(NULL, n * sizeof(bco), PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    char *stacks =
        (char *)mmap(NULL, n * stack, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (cos == MAP_FAILED || stacks == MAP_FAILED) {
      perror("mmap");
      return 1;
    }
    started = 0;
    n_total = n;
    release = 0;
    rss_all_idle = -1;
    for (size_t i = 0; i < n; ++i)
      bco_create(&cos[i], stacks + i * stack, stack, idle_body, NULL);
    bco_run();
    // Bytes per idle coroutine, x1000 (fixed point, in the "ns" slot).
    uint64_t per =
        rss_all_idle < 0
            ? 0
            : (uint64_t)((rss_all_idle - before) * 1024.0 * 1000 / n);
    bench_record(&r, per, n, started, n);
    munmap(stacks, n * stack);
    munmap(cos, n * sizeof(bco));
  }
  return bench_end(&r);
}
