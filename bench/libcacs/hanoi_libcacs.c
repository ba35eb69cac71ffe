//===- bench/libcacs/hanoi_libcacs.c - Hanoi, libcacs generator
//------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/generator.h"
#include "hanoi.h"

typedef struct {
  unsigned n;
  uint64_t times;
} job;

static void hanoi_gen(cacs_gen *g, unsigned n, char f, char t, char a) {
  if (n == 0)
    return;
  hanoi_gen(g, n - 1, f, a, t);
  cacs_gen_yield(g, HANOI_MOVE(n, f, t));
  hanoi_gen(g, n - 1, a, t, f);
}

static void body(cacs_gen *g, void *arg) {
  job *j = (job *)arg;
  for (uint64_t i = 0; i < j->times; ++i)
    hanoi_gen(g, j->n, 'a', 'b', 'c');
}

static __attribute__((noinline)) uint64_t run(job *j) {
  cacs_gen *g = cacs_gen_create(body, j, 0);
  uint64_t h = 0, v;
  while (cacs_gen_next(g, &v))
    h = hanoi_fold(h, (uint32_t)v);
  cacs_gen_destroy(g);
  return h;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 20);
  bench_run r = bench_begin("hanoi", "libcacs-gen", a.n);
  job j = {(unsigned)a.n, hanoi_times((unsigned)a.n)};
  uint64_t ops = j.times * (((uint64_t)1 << a.n) - 1);
  uint64_t expected = hanoi_expected(j.n, j.times);
  for (int rep = 0; rep < a.reps; ++rep) {
    uint64_t t0 = bench_now_ns();
    uint64_t h = run(&j);
    uint64_t t1 = bench_now_ns();
    bench_record(&r, t1 - t0, ops, h, expected);
  }
  return bench_end(&r);
}
