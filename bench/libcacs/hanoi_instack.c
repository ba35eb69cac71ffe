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

static __attribute__((noinline)) uint64_t run_gen(unsigned n, uint64_t times,
                                                  void *state) {
  (void)state;
  job jb = {n, times}, *j = &jb;
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
static __attribute__((noinline)) uint64_t run_plain(unsigned n, uint64_t times,
                                                    void *state) {
  (void)state;
  job jb = {n, times}, *j = &jb;
  uint64_t h = 0;
  move_fn volatile cb = fold_cb; // an opaque callback, as a real consumer's
  for (uint64_t i = 0; i < j->times; ++i)
    hanoi_cb(j->n, 'a', 'b', 'c', cb, &h);
  return h;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 20);
  int plain = a.variant && !strcmp(a.variant, "plain-callback");
  return plain ? hanoi_bench(&a, "plain-callback", run_plain, NULL)
               : hanoi_bench(&a, "libcacs-instack", run_gen, NULL);
}
