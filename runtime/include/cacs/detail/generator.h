//===- cacs/detail/generator.h - Generator internals -----------*- C -*-===//
//
// Internal: included by cacs/generator.h only; do not include it directly
// (its contents are not API and may change between releases).
//
// The generator's state block, which the inline resume and yield of
// cacs/generator.h read and write, and what those switches do besides the
// register switch: the sanitizer and SafeStack bookkeeping that lets
// AddressSanitizer, ThreadSanitizer and SafeStack follow the program from
// one stack to the other.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DETAIL_GENERATOR_H
#define CACS_DETAIL_GENERATOR_H

#include "cacs/stack.h"
#include "cacs/switch.h"

#include <stddef.h>
#include <stdint.h>

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

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cacs_gen cacs_gen;


typedef void (*cacs_gen_fn)(cacs_gen *g, void *arg);

struct cacs_gen {
  cacs_stack stack;    // first: the block lives at the top of its stack
  cacs_context self;   // where the generator continues
  cacs_context caller; // where the resumer continues
  unsigned char done;
  // Set by a resume until it returns (the generator yielded or finished),
  // so that resuming or destroying a running generator is an error, not a
  // hang or a freed stack in use. Only the resume writes it: the
  // generator's own switches stay as they were.
  unsigned char running;
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

/// Abort naming the misuse: `call` on a generator that is running (from
/// its own body, or from one it resumed).
__attribute__((noreturn, cold)) void cacs__gen_running(const cacs_gen *g,
                                                      const char *call);

// AddressSanitizer: the resumer tells ASan it moves to the generator's stack
// and, back, that it is on its own again; the generator the same way round,
// learning the resumer's stack bounds on each resume.
static CACS_ALWAYS_INLINE void cacs__gen_asan_resume_out(cacs_gen *g) {
#if CACS_GEN_ASAN
  __sanitizer_start_switch_fiber(&g->asan_fake_caller, g->asan_lo,
                                 g->asan_size);
#else
  (void)g;
#endif
}

static CACS_ALWAYS_INLINE void cacs__gen_asan_resume_in(cacs_gen *g) {
#if CACS_GEN_ASAN
  __sanitizer_finish_switch_fiber(g->asan_fake_caller, NULL, NULL);
#else
  (void)g;
#endif
}

static CACS_ALWAYS_INLINE void cacs__gen_asan_yield_out(cacs_gen *g) {
#if CACS_GEN_ASAN
  __sanitizer_start_switch_fiber(&g->asan_fake_self, g->asan_caller_lo,
                                 g->asan_caller_size);
#else
  (void)g;
#endif
}

static CACS_ALWAYS_INLINE void cacs__gen_asan_yield_in(cacs_gen *g) {
#if CACS_GEN_ASAN
  __sanitizer_finish_switch_fiber(g->asan_fake_self, &g->asan_caller_lo,
                                  &g->asan_caller_size);
#else
  (void)g;
#endif
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_DETAIL_GENERATOR_H
