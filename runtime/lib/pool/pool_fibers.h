//===- lib/pool/pool_fibers.h - Sanitizers' fibers of the pool ----*- C -*-===//
//
// What the sanitizers are told of each switch between a worker's loop and a
// pool coroutine (pool_worker.c's side and pool_park.c's). Private to
// libcacs.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_POOL_FIBERS_H
#define CACS_LIB_POOL_FIBERS_H

#include "pool_internal.h"

// --- ThreadSanitizer fibers --------------------------------------------------

static inline void tsan_to(void *fiber) {
  if (cacs__tsan_on())
    __tsan_switch_to_fiber(fiber, 0);
}

// To `t`'s fiber, kept in its stack's block (pool_internal.h, pool_stack):
// read only under TSan, hence never past an exact stack's shorter block.
static inline void tsan_to_task(const cacs__ptask *t) {
  if (cacs__tsan_on())
    __tsan_switch_to_fiber(t->stk->tsan_fiber, 0);
}

// --- AddressSanitizer fibers -------------------------------------------------
// ASan keeps one stack per thread: its bounds are where a longjmp or a throw
// (__asan_handle_no_return) clears stale redzones, and where reports find
// frames. Every switch between a worker's loop and a coroutine is announced
// (internal.h: weak references, so this serves ASan programs with libcacs
// built without it). Unannounced, a longjmp in one coroutine clears the
// span from its stack pointer to the worker's stack top: the redzones of
// other coroutines' frames in between, whose overflows then go unreported
// (test/pool/pool-asan.c). A coroutine's fake stack (use-after-return
// detection) travels with it in `asan_fake` across workers; a finishing
// coroutine passes NULL so ASan frees it. The worker's own bounds, which a
// coroutine needs to switch home, are learned on each switch into a
// coroutine (the bounds ASan hands back are those of the stack it left).

static inline void asan_to_coro(pool_worker *w, cacs__ptask *t) {
  if (cacs__asan_on())
    __sanitizer_start_switch_fiber(
        &w->asan_fake, t->stk->s.lo,
        (size_t)((char *)t->stk->s.top - (char *)t->stk->s.lo));
}

static inline void asan_back_home(pool_worker *w) {
  if (cacs__asan_on())
    __sanitizer_finish_switch_fiber(w->asan_fake, NULL, NULL);
}

// On the coroutine, once switched in: `w` is the worker it now runs on.
static inline void asan_in_coro(pool_worker *w, cacs__ptask *t) {
  if (cacs__asan_on())
    __sanitizer_finish_switch_fiber(t->stk->asan_fake, &w->asan_lo, &w->asan_size);
}

static inline void asan_to_home(pool_worker *w, cacs__ptask *t, int dying) {
  if (cacs__asan_on())
    __sanitizer_start_switch_fiber(dying ? NULL : &t->stk->asan_fake, w->asan_lo,
                                   w->asan_size);
}

#endif // CACS_LIB_POOL_FIBERS_H
