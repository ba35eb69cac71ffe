//===- bench/libcacs/sumseq_instack.c - Sum of sequence, in-stack generator
//===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// libcacs's in-stack generator (cacs/instack.h): the producer runs as frames
// below sum_of's frame on the same stack.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/instack.h"

static uint64_t producer(cacs_isg_ctx *ctx, void *arg) {
  cacs_isg_ctx c = *ctx; // a local copy stays in registers
  for (uint64_t count = (uintptr_t)arg; count != 0; --count)
    cacs_isg_yield(&c, count);
  *ctx = c;
  return 0;
}

static __attribute__((noinline)) uint64_t sum_of(uint64_t n) {
  cacs_isg g;
  uint64_t sum = 0;
  for (uint64_t v = cacs_isg_start(&g, producer, (void *)(uintptr_t)n);
       !cacs_isg_done(&g); v = cacs_isg_next(&g))
    sum += v;
  return sum;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 100000000);
  bench_run r = bench_begin("sumseq", "libcacs-instack", a.n);
  uint64_t expected = a.n % 2 ? a.n * ((a.n + 1) / 2) : (a.n / 2) * (a.n + 1);
  for (int rep = 0; rep < a.reps; ++rep) {
    uint64_t t0 = bench_now_ns();
    uint64_t got = sum_of(a.n);
    uint64_t t1 = bench_now_ns();
    bench_record(&r, t1 - t0, a.n, got, expected);
  }
  return bench_end(&r);
}
