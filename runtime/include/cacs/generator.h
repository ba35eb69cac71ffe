//===- cacs/generator.h - Asymmetric coroutines (generators) ----*- C -*-===//
//
// A generator runs fn(g, arg) on its own small pooled stack. The resumer and
// the generator exchange a 64-bit value in a register on every switch:
//
//   uint64_t v = cacs_gen_resume(g, in);   // runs g until it yields/ends
//   uint64_t in = cacs_gen_yield(g, v);    // inside fn: back to the resumer
//
// Both are inline CACS switches: the compiler spills only what is live at
// each call site. Yielding works from any call depth inside fn (recursive
// generators). A generator may be resumed from any coroutine of the thread
// that created it, but is not re-entrant (never resume a running one).
//
// Destroying a generator that has not finished releases its stack without
// unwinding it: C++ destructors of its frames do not run (cacs::generator in
// generator.hpp cancels by unwinding first).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_GENERATOR_H
#define CACS_GENERATOR_H

#include "cacs/detail/generator.h"
#include "cacs/stack.h"
#include "cacs/switch.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Create a generator (stack_size 0: CACS_STACK_SMALL_SIZE). Aborts in a
/// program with -fsplit-stack code (not supported).
/// \return the generator, or NULL with errno set: ENOMEM (no memory, or a
/// `stack_size` no mapping can hold), mmap(2)'s and mprotect(2)'s errors.
cacs_gen *cacs_gen_create(cacs_gen_fn fn, void *arg, size_t stack_size);
/// Free the generator (finished or not) and return its stack to the pool.
/// Aborts naming the misuse if `g` is running (called from its own body,
/// or from a generator it resumed). NULL: nothing.
void cacs_gen_destroy(cacs_gen *g);

/// Whether `g` has finished: its function returned. Only reads `g`.
/// \return 1 once the resume that ran `g` to its end has returned, else 0
/// (also before the first resume).
static inline int cacs_gen_done(const cacs_gen *g) { return g->done; }

/// Run `g` until it yields (returns the yielded value) or finishes (returns
/// 0 and cacs_gen_done(g) becomes true). `in` is returned by the pending
/// cacs_gen_yield inside the generator (ignored on the first resume).
/// Aborts naming the misuse if `g` is running (a generator resuming itself,
/// or one of the generators that resumed it).
static CACS_ALWAYS_INLINE uint64_t cacs_gen_resume(cacs_gen *g, uint64_t in) {
  if (__builtin_expect(g->done | g->running, 0)) {
    if (g->running)
      cacs__gen_running(g, "cacs_gen_resume");
    return 0;
  }
  g->running = 1;
  cacs__gen_asan_resume_out(g);
  cacs__gen_unsafe_out(&g->unsafe_caller, &g->unsafe_self);
  cacs__gen_tsan_out(&g->tsan_caller, &g->tsan_self);
  uint64_t v = cacs_switch(&g->caller, &g->self, in);
  cacs__gen_tsan_in(&g->tsan_caller, &g->tsan_self);
  cacs__gen_unsafe_in(&g->unsafe_caller, &g->unsafe_self);
  cacs__gen_asan_resume_in(g);
  g->running = 0; // it yielded, or finished
  return v;
}

/// Inside the generator: hand `v` to the resumer and wait for the next
/// resume; returns the value that resume passed in.
static CACS_ALWAYS_INLINE uint64_t cacs_gen_yield(cacs_gen *g, uint64_t v) {
  cacs__gen_asan_yield_out(g);
  cacs__gen_unsafe_out(&g->unsafe_self, &g->unsafe_caller);
  cacs__gen_tsan_out(&g->tsan_self, &g->tsan_caller);
  uint64_t in = cacs_switch(&g->self, &g->caller, v);
  cacs__gen_tsan_in(&g->tsan_self, &g->tsan_caller);
  cacs__gen_unsafe_in(&g->unsafe_self, &g->unsafe_caller);
  cacs__gen_asan_yield_in(g);
  return in;
}

/// Convenience loop form: resume; if a value was yielded store it in *out
/// and return 1, return 0 once the generator has finished.
static CACS_ALWAYS_INLINE int cacs_gen_next(cacs_gen *g, uint64_t *out) {
  uint64_t v = cacs_gen_resume(g, 0);
  if (cacs_gen_done(g))
    return 0;
  *out = v;
  return 1;
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_GENERATOR_H
