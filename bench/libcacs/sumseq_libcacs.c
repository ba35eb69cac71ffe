//===- bench/libcacs/sumseq_libcacs.c - Sum of sequence, libcacs generator ===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "sumseq.h"
#include "cacs/generator.h"

static void producer(cacs_gen *g, void *arg) {
  uint64_t count = *(uint64_t *)arg;
  for (; count != 0; --count)
    cacs_gen_yield(g, count);
}

static __attribute__((noinline)) uint64_t sum_of(uint64_t n, void *state) {
  (void)state;
  cacs_gen *g = cacs_gen_create(producer, &n, 0);
  uint64_t sum = 0, v;
  while (cacs_gen_next(g, &v))
    sum += v;
  cacs_gen_destroy(g);
  return sum;
}

int main(int argc, char **argv) {
  bench_args a = sumseq_args(argc, argv);
  return sumseq_bench(&a, "libcacs-gen", sum_of, NULL);
}
