//===- bench/libcacs/sumseq_libcacs.c - Sum of sequence, libcacs generator ===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/generator.h"

static void producer(cacs_gen *g, void *arg) {
  uint64_t count = *(uint64_t *)arg;
  for (; count != 0; --count)
    cacs_gen_yield(g, count);
}

static __attribute__((noinline)) uint64_t sum_of(uint64_t n) {
  cacs_gen *g = cacs_gen_create(producer, &n, 0);
  uint64_t sum = 0, v;
  while (cacs_gen_next(g, &v))
    sum += v;
  cacs_gen_destroy(g);
  return sum;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 100000000);
  bench_run r = bench_begin("sumseq", "libcacs-gen", a.n);
  uint64_t expected = a.n % 2 ? a.n * ((a.n + 1) / 2) : (a.n / 2) * (a.n + 1);
  for (int rep = 0; rep < a.reps; ++rep) {
    uint64_t t0 = bench_now_ns();
    uint64_t got = sum_of(a.n);
    uint64_t t1 = bench_now_ns();
    bench_record(&r, t1 - t0, a.n, got, expected);
  }
  return bench_end(&r);
}
