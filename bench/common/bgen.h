//===- bench/common/bgen.h - Bench-local stackful generator -----*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A generator on its own stack built directly on cacs_switch() (inlined on
// both sides, so each side spills only what it needs). This is the
// "separate stack" design; libcacs' in-stack generator (generator.h) is
// measured separately when present. Needs bcoro.h's trampoline
// (BCO_DEFINE_ASM in one translation unit).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_BGEN_H
#define CACS_BENCH_BGEN_H

#include "bcoro.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bgen {
  cacs_context gen;    ///< the generator's side
  cacs_context caller; ///< the consumer's side
  int done;
  void (*body)(struct bgen *, void *);
  void *arg;
} bgen;

static void bgen_entry_(void *g_, uint64_t unused) {
  (void)unused;
  bgen *g = (bgen *)g_;
  g->body(g, g->arg);
  g->done = 1;
  cacs_switch(&g->gen, &g->caller, 0);
  __builtin_trap();
}

static inline void bgen_init(bgen *g, void *stack, size_t size,
                             void (*body)(bgen *, void *), void *arg) {
  uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
  void **sp = (void **)(top - 16);
  sp[0] = (void *)bgen_entry_;
  sp[1] = g;
  g->gen.sp = sp;
  g->gen.pc = (void *)bco_cacs_tramp;
  g->gen.fp = 0;
  g->gen.bp = 0;
  g->done = 0;
  g->body = body;
  g->arg = arg;
}

/// Consumer side: run the generator to its next yield and return the value.
/// Check g->done afterwards.
static CACS_ALWAYS_INLINE uint64_t bgen_resume(bgen *g) {
  return cacs_switch(&g->caller, &g->gen, 0);
}

/// Generator side: hand v to the consumer.
static CACS_ALWAYS_INLINE void bgen_yield(bgen *g, uint64_t v) {
  cacs_switch(&g->gen, &g->caller, v);
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_BENCH_BGEN_H
