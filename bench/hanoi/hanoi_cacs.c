//===- bench/hanoi/hanoi_cacs.c - Hanoi: plain recursion and CACS ---------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// -n is the number of disks. Variants (-v):
//   plain-callback  recursion calling a callback through a pointer per move
//                   (the baseline every variant is normalized to);
//   cacs-switch     recursive generator on its own stack, yielding every move
//                   with an inline cacs_switch() (bgen.h).
//
//===----------------------------------------------------------------------===//

#define BCO_DEFINE_ASM
#include "bench.h"
#include "bgen.h"
#include "hanoi.h"

#define STACK_SIZE (64 * 1024)

typedef void (*move_cb)(void *ctx, uint32_t move);

static __attribute__((noinline)) void fold_cb(void *ctx, uint32_t move) {
  uint64_t *h = (uint64_t *)ctx;
  *h = hanoi_fold(*h, move);
}

static __attribute__((noinline)) void hanoi_cb(unsigned n, char f, char t,
                                               char a, move_cb cb, void *ctx) {
  if (n == 0)
    return;
  hanoi_cb(n - 1, f, a, t, cb, ctx);
  cb(ctx, HANOI_MOVE(n, f, t));
  hanoi_cb(n - 1, a, t, f, cb, ctx);
}

// An opaque pointer, so the callback stays an indirect call.
move_cb volatile the_cb = fold_cb;

// HANOI_GEN_PN: make the recursive generator function preserve_none, so it
// saves no callee-saved registers in its prologue (the switch inside clobbers
// them all anyway; the caller spills only what it needs).
#ifdef HANOI_GEN_PN
#define GEN_CC CACS_PRESERVE_NONE
#else
#define GEN_CC
#endif

static GEN_CC void hanoi_gen(bgen *g, unsigned n, char f, char t, char a) {
  if (n == 0)
    return;
  hanoi_gen(g, n - 1, f, a, t);
  bgen_yield(g, HANOI_MOVE(n, f, t));
  hanoi_gen(g, n - 1, a, t, f);
}

typedef struct {
  unsigned n;
  uint64_t times;
} job;

static void hanoi_body(bgen *g, void *arg) {
  job *j = (job *)arg;
  for (uint64_t i = 0; i < j->times; ++i)
    hanoi_gen(g, j->n, 'a', 'b', 'c');
}

static __attribute__((noinline)) uint64_t run_gen(char *stack, job *j) {
  bgen g;
  bgen_init(&g, stack, STACK_SIZE, hanoi_body, j);
  uint64_t h = 0;
  for (;;) {
    uint64_t v = bgen_resume(&g);
    if (g.done)
      break;
    h = hanoi_fold(h, (uint32_t)v);
  }
  return h;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 20);
  const char *v = a.variant ? a.variant : "cacs-switch";
  int gen = !strcmp(v, "cacs-switch");
#ifdef HANOI_GEN_PN
  v = gen ? "cacs-switch+pn" : v;
#endif
  if (!gen && strcmp(v, "plain-callback")) {
    fprintf(stderr, "unknown variant %s\n", v);
    return 64;
  }
  bench_run r = bench_begin("hanoi", v, a.n);
  job j = {(unsigned)a.n, hanoi_times((unsigned)a.n)};
  uint64_t ops = j.times * (((uint64_t)1 << a.n) - 1);
  uint64_t expected = hanoi_expected(j.n, j.times);
  char *stack = (char *)aligned_alloc(4096, STACK_SIZE);
  for (int rep = 0; rep < a.reps; ++rep) {
    uint64_t t0 = bench_now_ns(), h = 0;
    if (gen) {
      h = run_gen(stack, &j);
    } else {
      move_cb cb = the_cb;
      for (uint64_t i = 0; i < j.times; ++i)
        hanoi_cb(j.n, 'a', 'b', 'c', cb, &h);
    }
    uint64_t t1 = bench_now_ns();
    bench_record(&r, t1 - t0, ops, h, expected);
  }
  return bench_end(&r);
}
