//===- lib/switch_tools.h - What a coroutine switch moves ---------*- C -*-===//
//
// Besides the registers, a switch between coroutines moves the per-thread
// state that tools and the program keep for "the running stack": the
// sanitizer fiber annotations (ASan's fake stack and stack bounds; TSan's
// fiber, switched inline in sched.c and join.c), SafeStack's unsafe stack
// pointer, the AArch64 shadow call stack's x18, libgcc's split-stack
// context and, for coroutines that ask, the FP environment. The slow
// switch (sched.c) and the final switch of a finishing coroutine (join.c)
// use these; coro.c binds the tools' stacks to a new coroutine.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_SWITCH_TOOLS_H
#define CACS_LIB_SWITCH_TOOLS_H

#include "core.h"

// --- ASan fiber annotations ----------------------------------------------
// ASan tracks one stack per thread; tell it whenever we move to another one
// so it neither reports false stack-buffer overflows nor loses fake frames.

static inline void asan_start(cacs_coro *from, cacs_coro *to, int dying) {
  if (!cacs__asan_on())
    return;
  S.switch_from = from;
  __sanitizer_start_switch_fiber(dying ? NULL : &cold(from)->asan_fake,
                                 cold(to)->asan_lo, cold(to)->asan_size);
}

static inline void asan_finish(cacs_coro *self) {
  if (!cacs__asan_on())
    return;
  const void *lo;
  size_t size;
  __sanitizer_finish_switch_fiber(self ? cold(self)->asan_fake : NULL, &lo, &size);
  // The first switch away from main is where we learn main's stack bounds.
  if (S.switch_from && !cold(S.switch_from)->asan_lo) {
    cold(S.switch_from)->asan_lo = lo;
    cold(S.switch_from)->asan_size = size;
  }
}

// --- SafeStack, shadow call stack, TSan, split stacks (internal.h) -----------
// Each coroutine but main gets an unsafe stack as large as its stack, a
// shadow call stack, a TSan fiber, a split-stack context, as the program
// needs; the thread's unsafe stack pointer, x18 and split-stack state are
// saved and loaded with the stack pointer, and TSan is told of every switch.

// The finishing coroutine's state is saved too: its segments, if it grew
// any, are released with it.
static inline void split_switch(cacs_coro *from, cacs_coro *to) {
  if (!cacs__split_on())
    return;
  __splitstack_getcontext(cold(from)->split_ctx);
  __splitstack_setcontext(cold(to)->split_ctx);
}

// `from` NULL: it is finishing.
static inline void unsafe_switch(cacs_coro *from, cacs_coro *to) {
  if (!S.unsafe_sp_slot)
    return;
  if (from)
    cold(from)->unsafe_sp = *S.unsafe_sp_slot;
  *S.unsafe_sp_slot = cold(to)->unsafe_sp;
}

// x18 may only move where libcacs never uses it (CACS_FIXED_X18, see
// internal.h); `from` NULL: it is finishing.
static inline void scs_switch(cacs_coro *from, cacs_coro *to) {
#if defined(__aarch64__) && defined(CACS_FIXED_X18)
  if (!cacs__scs_on)
    return;
  if (from)
    __asm__ volatile("str x18, %0" : "=m"(cold(from)->scs_sp));
  __asm__ volatile("ldr x18, %0" : : "m"(cold(to)->scs_sp) : "memory");
#else
  (void)from, (void)to;
#endif
}

// --- optional per-coroutine FP control -------------------------------------

static inline void fpenv_save(uint32_t *env) {
#if defined(__x86_64__)
  __asm__ volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(env[0]), "=m"(env[1]));
#else
  uint64_t fpcr;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  env[0] = (uint32_t)fpcr;
#endif
}

static inline void fpenv_load(const uint32_t *env) {
#if defined(__x86_64__)
  __asm__ volatile("ldmxcsr %0\n\tfldcw %1" : : "m"(env[0]), "m"(env[1]));
#else
  uint64_t fpcr = env[0];
  __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
#endif
}

#endif // CACS_LIB_SWITCH_TOOLS_H
