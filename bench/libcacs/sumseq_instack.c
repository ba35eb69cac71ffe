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

#include "cacs/instack.h"
#include "sumseq.h"

static uint64_t producer(cacs_isg_ctx *ctx, void *arg) {
  cacs_isg_ctx c = *ctx; // a local copy stays in registers
  for (uint64_t count = (uintptr_t)arg; count != 0; --count)
    cacs_isg_yield(&c, count);
  *ctx = c;
  return 0;
}

static __attribute__((noinline)) uint64_t sum_of(uint64_t n, void *state) {
  (void)state;
  cacs_isg g;
  uint64_t sum = 0;
  for (uint64_t v = cacs_isg_start(&g, producer, (void *)(uintptr_t)n);
       !cacs_isg_done(&g); v = cacs_isg_next(&g))
    sum += v;
  return sum;
}

int main(int argc, char **argv) {
  bench_args a = sumseq_args(argc, argv);
  return sumseq_bench(&a, "libcacs-instack", sum_of, NULL);
}
