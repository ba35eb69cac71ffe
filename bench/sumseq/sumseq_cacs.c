//===- bench/sumseq/sumseq_cacs.c - Sum of sequence, CACS switch ----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The producer runs on its own stack; resume and yield are inline
// cacs_switch() (bgen.h). Checksum: n(n+1)/2 mod 2^64.
//
//===----------------------------------------------------------------------===//

#define BCO_DEFINE_ASM
#include "bench.h"
#include "bgen.h"

#define STACK_SIZE (64 * 1024)

static void producer(bgen *g, void *arg) {
  uint64_t count = *(uint64_t *)arg;
  for (; count != 0; --count)
    bgen_yield(g, count);
}

static __attribute__((noinline)) uint64_t sum_of(char *stack, uint64_t n) {
  bgen g;
  bgen_init(&g, stack, STACK_SIZE, producer, &n);
  uint64_t sum = 0;
  for (;;) {
    uint64_t v = bgen_resume(&g);
    if (g.done)
      break;
    sum += v;
  }
  return sum;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 100000000);
  bench_run r = bench_begin("sumseq", "cacs-switch", a.n);
  uint64_t expected = a.n % 2 ? a.n * ((a.n + 1) / 2) : (a.n / 2) * (a.n + 1);
  char *stack = (char *)aligned_alloc(4096, STACK_SIZE);
  for (int rep = 0; rep < a.reps; ++rep) {
    uint64_t t0 = bench_now_ns();
    uint64_t got = sum_of(stack, a.n);
    uint64_t t1 = bench_now_ns();
    bench_record(&r, t1 - t0, a.n, got, expected);
  }
  return bench_end(&r);
}
