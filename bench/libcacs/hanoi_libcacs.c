//===- bench/libcacs/hanoi_libcacs.c - Hanoi, libcacs generator
//------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

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

static __attribute__((noinline)) uint64_t run(unsigned n, uint64_t times,
                                              void *state) {
  (void)state;
  job j = {n, times};
  cacs_gen *g = cacs_gen_create(body, &j, 0);
  uint64_t h = 0, v;
  while (cacs_gen_next(g, &v))
    h = hanoi_fold(h, (uint32_t)v);
  cacs_gen_destroy(g);
  return h;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 20);
  return hanoi_bench(&a, "libcacs-gen", run, NULL);
}
