//===- lib/pool/pool_park_inline.h - The park inlined in a wait -*- C -*-===//
//
// cacs__pool_park's body (pool_park.h), and cacs__pool_yield's, for the
// waits whose frame an exact stack must hold (the descriptor waits,
// pool_io.c and io_pool_uring.c): inlined there, the
// switch's register saves share the wait's own, where a call of
// cacs__pool_park would add two frames (the park's and the switch's,
// which saves every callee-saved register again: 56 bytes on x86-64, 160
// on AArch64) to the stack the wait holds while parked. The bookkeeping
// (the timer, the wake token, the `after` hook) is the loop's, once the
// coroutine has switched out (cacs__pool_parked, on the worker's own
// stack, as Go's park_m runs on g0). Private to libcacs.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_POOL_PARK_INLINE_H
#define CACS_LIB_POOL_PARK_INLINE_H

#include "../syncblock.h"
#include "pool_fibers.h"
#include "pool_internal.h"

#include <stdatomic.h>

/// The switch home of `t`, the calling pool coroutine, on worker `w`, with
/// `cmd` (CMD_PARK, CMD_YIELD or CMD_DONE), inlined: the loop carries the
/// command out once `t` has switched out; returns when it is resumed (never
/// after CMD_DONE). `call` names the caller in the report of a switch
/// inside a sync block. The waits' parks and yields inline it here; the
/// plain yield and a coroutine's end call it out of line (pool_park.c).
/// `handed` (a constant): whether a CES hand-off (cacs__pool_handoff) may
/// resume `t` here. Only a waiter of cacs/pool_sync.h's objects is handed
/// to (pool_waiter.h's run_served: an untimed waiter parked in
/// wait_served, which only its releaser wakes); the descriptor waits
/// (pool_io.c, io_pool_uring.c) pass 0. Resumed by a hand-off, `t` queues
/// the coroutine that handed off (cacs__pool_resumed: the pool's ready
/// queues and a sleeping worker's wake, 144 bytes below the wait's frame
/// on x86-64, a wait on the worker's ring: 672 in all, past the transfer
/// budget), so the descriptor waits must never be: where `handed` is 0
/// that path is not compiled in, and a hand-off there stops the program
/// (a trap: no stack) rather than run it on an exact stack
/// (test/pool/pool-io-no-handoff.c).
static inline __attribute__((always_inline)) void
cacs__pool_switch_home_inline(cacs__ptask *t, pool_worker *w, uint64_t cmd,
                              const char *call, int handed) {
  cacs__sync_check(call);
  asan_to_home(w, t, cmd == CMD_DONE);
  tsan_to(w->tsan_home);
  uint64_t how = cacs_switch(&t->ctx, &w->home, cmd);
  if (!handed && __builtin_expect(how != RESUME_FROM_LOOP, 0))
    __builtin_trap();
  // Resumed by the loop with no ASan to tell: no call, no frame below the
  // wait's own (a hand-off queues the coroutine that handed off).
  if (__builtin_expect(how != RESUME_FROM_LOOP || cacs__asan_on(), 0)) {
    if (handed)
      cacs__pool_resumed(t, how);
    else
      cacs__pool_resumed_from_loop(t);
  } else {
    ptsan_acquire(t);
  }
}

/// cacs__pool_park for `t`, the calling pool coroutine; `handed` as above.
static inline __attribute__((always_inline)) int
cacs__pool_park_inline(cacs__ptask *t, void (*after)(void *), void *arg,
                       uint64_t deadline_ns, int handed) {
  pool_worker *w = cacs__pool_worker();
  atomic_store_explicit(&t->votes, 0, memory_order_relaxed);
  t->wake_result = 0;
  t->timed = 0;
  t->parked_on = w;
  t->deadline = deadline_ns; // armed by the loop (cacs__pool_parked)
  w->after = after;
  w->after_arg = arg;
  cacs__pool_switch_home_inline(t, w, CMD_PARK, "a wait of a pool coroutine",
                                handed);
  return t->wake_result;
}

/// cacs__pool_yield for `t`, the calling pool coroutine, for a wait's rare
/// yield (a descriptor a cacs_close has forgotten and not yet closed:
/// pool_io.c, io_pool_uring.c). A call of cacs__pool_yield there would put
/// its frame and the switch's register saves below the wait's, past what
/// the wait's park uses (48 bytes on x86-64, a pool coroutine's
/// cacs_wait_fd on io_uring: its whole budget): inlined, the yield uses
/// the park's saves, and the wait's budget holds
/// (test/pool/pool-stack-budget-closing.c).
static inline __attribute__((always_inline)) void
cacs__pool_yield_inline(cacs__ptask *t) {
  cacs__pool_switch_home_inline(t, cacs__pool_worker(), CMD_YIELD,
                                "a wait of a pool coroutine", 0);
}

#endif // CACS_LIB_POOL_PARK_INLINE_H
