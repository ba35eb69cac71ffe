//===- bench/libcacs/yield_libcacs.c - yield() of libcacs
//------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The runtime's own cacs_yield() (coro.h): 10 participants yield to one
// another round-robin: 9 cacs_create()d coroutines plus main itself, so the
// ring holds exactly 10. -v small: 4112-byte stacks. Checksum: yields done.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/coro.h"

#ifndef BENCH_VARIANT
#define BENCH_VARIANT "libcacs"
#endif

#define NCO 10

static uint64_t iters_per_co, yields_done;

static __attribute__((noinline)) uint64_t yield_loop(uint64_t k) {
  uint64_t i = 0;
  for (; i < k; ++i)
    cacs_yield();
  return i;
}

static void body(void *arg) {
  (void)arg;
  yields_done += yield_loop(iters_per_co);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 100000000);
  int small = a.variant && !strcmp(a.variant, "small");
  char name[128];
  snprintf(name, sizeof name, "%s%s", BENCH_VARIANT,
           small ? "+small-stack" : "");
  bench_run r = bench_begin("yield", name, a.n);
  iters_per_co = a.n / NCO;
  uint64_t total = iters_per_co * NCO;
  for (int rep = 0; rep < a.reps; ++rep) {
    cacs_coro *c[NCO - 1];
    yields_done = 0;
    for (int i = 0; i < NCO - 1; ++i)
      c[i] = cacs_create(body, NULL, small ? 4112 : 0);
    uint64_t t0 = bench_now_ns();
    body(NULL); // main is the 10th participant
    for (int i = 0; i < NCO - 1; ++i)
      cacs_join(c[i]);
    uint64_t t1 = bench_now_ns();
    bench_record(&r, t1 - t0, total, yields_done, total);
  }
  return bench_end(&r);
}
