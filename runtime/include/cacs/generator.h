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

#include "cacs/stack.h"
#include "cacs/switch.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__SANITIZE_ADDRESS__)
#define CACS_GEN_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CACS_GEN_ASAN 1
#endif
#endif
#ifndef CACS_GEN_ASAN
#define CACS_GEN_ASAN 0
#endif
#if CACS_GEN_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(__has_feature)
#if __has_feature(safe_stack)
#define CACS_GEN_SAFESTACK 1
#endif
#endif
#ifndef CACS_GEN_SAFESTACK
#define CACS_GEN_SAFESTACK 0
#endif
#if defined(__SANITIZE_THREAD__)
#define CACS_GEN_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CACS_GEN_TSAN 1
#endif
#endif
#ifndef CACS_GEN_TSAN
#define CACS_GEN_TSAN 0
#endif
#if CACS_GEN_TSAN
#include <sanitizer/tsan_interface.h>
#endif

typedef struct cacs_gen cacs_gen;
typedef void (*cacs_gen_fn)(cacs_gen *g, void *arg);

struct cacs_gen {
  cacs_stack stack;    // first: the block lives at the top of its stack
  cacs_context self;   // where the generator continues
  cacs_context caller; // where the resumer continues
  int done;
  cacs_gen_fn fn;
  void *arg;
  // ASan fiber bookkeeping (always present: same layout with and without).
  void *asan_fake_self, *asan_fake_caller;
  const void *asan_lo, *asan_caller_lo;
  size_t asan_size, asan_caller_size;
  // The generator's unsafe stack (SafeStack), shadow call stack (its base
  // is the first x18 of `self`; every switch moves x18 with the context)
  // and TSan fiber; each side's unsafe stack pointer and TSan fiber while
  // the other runs.
  cacs__tool_stacks tools;
  void *unsafe_self, *unsafe_caller;
  void *tsan_self, *tsan_caller;
};

// SafeStack keeps address-taken locals on a thread-wide unsafe stack, a
// LIFO, through compiler-rt's thread-local __safestack_unsafe_stack_ptr. In
// a unit built with SafeStack, the side that switches saves its pointer and
// loads the other side's; the side resumed takes its own back if it finds
// another value: the switch came from a unit without SafeStack, which left
// the pointer as it was, so that value is the other side's. A program's
// switches are thus right if, of the resume and the yield that pair up, at
// least one is in a SafeStack unit (the generator's start and end, in
// libcacs, always are).
#if CACS_GEN_SAFESTACK
extern __thread void *__safestack_unsafe_stack_ptr
    __attribute__((tls_model("initial-exec")));
#endif

static CACS_ALWAYS_INLINE void cacs__gen_unsafe_out(void **mine,
                                                    void *const *other) {
#if CACS_GEN_SAFESTACK
  *mine = __safestack_unsafe_stack_ptr;
  __safestack_unsafe_stack_ptr = *other;
#else
  (void)mine, (void)other;
#endif
}

static CACS_ALWAYS_INLINE void cacs__gen_unsafe_in(void *const *mine,
                                                   void **other) {
#if CACS_GEN_SAFESTACK
  void *p = __safestack_unsafe_stack_ptr;
  if (__builtin_expect(p != *mine, 0)) {
    *other = p;
    __safestack_unsafe_stack_ptr = *mine;
  }
#else
  (void)mine, (void)other;
#endif
}

// ThreadSanitizer fibers, the same way round: the side that switches tells
// TSan it goes to the other side's fiber; the side resumed makes sure TSan
// is back in its own (a switch from a unit without TSan told it nothing).
static CACS_ALWAYS_INLINE void cacs__gen_tsan_out(void **mine,
                                                  void *const *other) {
#if CACS_GEN_TSAN
  *mine = __tsan_get_current_fiber();
  __tsan_switch_to_fiber(*other, 0);
#else
  (void)mine, (void)other;
#endif
}

static CACS_ALWAYS_INLINE void cacs__gen_tsan_in(void *const *mine,
                                                 void **other) {
#if CACS_GEN_TSAN
  void *f = __tsan_get_current_fiber();
  if (__builtin_expect(f != *mine, 0)) {
    *other = f;
    __tsan_switch_to_fiber(*mine, 0);
  }
#else
  (void)mine, (void)other;
#endif
}

/// Create a generator (stack_size 0: CACS_STACK_SMALL_SIZE). NULL on error.
cacs_gen *cacs_gen_create(cacs_gen_fn fn, void *arg, size_t stack_size);
/// Free the generator (finished or not) and return its stack to the pool.
void cacs_gen_destroy(cacs_gen *g);

static inline int cacs_gen_done(const cacs_gen *g) { return g->done; }

/// Run `g` until it yields (returns the yielded value) or finishes (returns
/// 0 and cacs_gen_done(g) becomes true). `in` is returned by the pending
/// cacs_gen_yield inside the generator (ignored on the first resume).
static CACS_ALWAYS_INLINE uint64_t cacs_gen_resume(cacs_gen *g, uint64_t in) {
  if (__builtin_expect(g->done, 0))
    return 0;
#if CACS_GEN_ASAN
  __sanitizer_start_switch_fiber(&g->asan_fake_caller, g->asan_lo,
                                 g->asan_size);
#endif
  cacs__gen_unsafe_out(&g->unsafe_caller, &g->unsafe_self);
  cacs__gen_tsan_out(&g->tsan_caller, &g->tsan_self);
  uint64_t v = cacs_switch(&g->caller, &g->self, in);
  cacs__gen_tsan_in(&g->tsan_caller, &g->tsan_self);
  cacs__gen_unsafe_in(&g->unsafe_caller, &g->unsafe_self);
#if CACS_GEN_ASAN
  __sanitizer_finish_switch_fiber(g->asan_fake_caller, NULL, NULL);
#endif
  return v;
}

/// Inside the generator: hand `v` to the resumer and wait for the next
/// resume; returns the value that resume passed in.
static CACS_ALWAYS_INLINE uint64_t cacs_gen_yield(cacs_gen *g, uint64_t v) {
#if CACS_GEN_ASAN
  __sanitizer_start_switch_fiber(&g->asan_fake_self, g->asan_caller_lo,
                                 g->asan_caller_size);
#endif
  cacs__gen_unsafe_out(&g->unsafe_self, &g->unsafe_caller);
  cacs__gen_tsan_out(&g->tsan_self, &g->tsan_caller);
  uint64_t in = cacs_switch(&g->self, &g->caller, v);
  cacs__gen_tsan_in(&g->tsan_self, &g->tsan_caller);
  cacs__gen_unsafe_in(&g->unsafe_self, &g->unsafe_caller);
#if CACS_GEN_ASAN
  __sanitizer_finish_switch_fiber(g->asan_fake_self, &g->asan_caller_lo,
                                  &g->asan_caller_size);
#endif
  return in;
}

/// Convenience loop form: resume; if a value was yielded store it in *out
/// and return 1, return 0 once the generator has finished.
static CACS_ALWAYS_INLINE int cacs_gen_next(cacs_gen *g, uint64_t *out) {
  uint64_t v = cacs_gen_resume(g, 0);
  if (g->done)
    return 0;
  *out = v;
  return 1;
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_GENERATOR_H
