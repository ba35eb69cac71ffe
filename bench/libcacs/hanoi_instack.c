//===- bench/libcacs/hanoi_instack.c - Hanoi: in-stack generator ----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Variants (-v):
//   libcacs-instack  the recursive generator of cacs/instack.h: every move
//                    is yielded from the depth where it happens
//   plain-callback   the same recursion calling a callback through a
//                    pointer per move (the baseline every Hanoi row is
//                    normalized to)
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/instack.h"
#include "hanoi.h"

#include <string.h>

typedef struct {
  unsigned n;
  uint64_t times;
} job;

static void hanoi_gen(cacs_isg_ctx *ctx, unsigned n, char f, char t, char a) {
  if (n == 0)
    return;
  hanoi_gen(ctx, n - 1, f, a, t);
  cacs_isg_yield(ctx, HANOI_MOVE(n, f, t));
  hanoi_gen(ctx, n - 1, a, t, f);
}

static uint64_t body(cacs_isg_ctx *ctx, void *arg) {
  job *j = (job *)arg;
  for (uint64_t i = 0; i < j->times; ++i)
    hanoi_gen(ctx, j->n, 'a', 'b', 'c');
  return 0;
}

static __attribute__((noinline)) uint64_t run_gen(job *j) {
  cacs_isg g;
  uint64_t h = 0;
  for (uint64_t v = cacs_isg_start(&g, body, j); !cacs_isg_done(&g);
       v = cacs_isg_next(&g))
    h = hanoi_fold(h, (uint32_t)v);
  return h;
}

typedef void (*move_fn)(void *, uint32_t);
static __attribute__((noinline)) void hanoi_cb(unsigned n, char f, char t,
                                               char a, move_fn cb, void *c) {
  if (n == 0)
    return;
  hanoi_cb(n - 1, f, a, t, cb, c);
  cb(c, HANOI_MOVE(n, f, t));
  hanoi_cb(n - 1, a, t, f, cb, c);
}
static __attribute__((noinline)) void fold_cb(void *c, uint32_t m) {
  *(uint64_t *)c = hanoi_fold(*(uint64_t *)c, m);
}
static __attribute__((noinline)) uint64_t run_plain(job *j) {
  uint64_t h = 0;
  move_fn volatile cb = fold_cb; // an opaque callback, as a real consumer's
  for (uint64_t i = 0; i < j->times; ++i)
    hanoi_cb(j->n, 'a', 'b', 'c', cb, &h);
  return h;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 20);
  int plain = a.variant && !strcmp(a.variant, "plain-callback");
  bench_run r =
      bench_begin("hanoi", plain ? "plain-callback" : "libcacs-instack", a.n);
  job j = {(unsigned)a.n, hanoi_times((unsigned)a.n)};
  uint64_t ops = j.times * (((uint64_t)1 << a.n) - 1);
  uint64_t expected = hanoi_expected(j.n, j.times);
  for (int rep = 0; rep < a.reps; ++rep) {
    uint64_t t0 = bench_now_ns();
    uint64_t h = plain ? run_plain(&j) : run_gen(&j);
    uint64_t t1 = bench_now_ns();
    bench_record(&r, t1 - t0, ops, h, expected);
  }
  return bench_end(&r);
}
