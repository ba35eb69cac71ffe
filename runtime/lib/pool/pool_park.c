//===- lib/pool/pool_park.c - A pool coroutine's side: park, wake, yield --===//
//
// What a pool coroutine does to leave its worker's loop and come back
// (pool_park.h): its start and end, park and wake, yield, and the CES
// hand-off, the one direct switch from one coroutine to another. Each
// switch home carries a command that the loop (pool_worker.c) carries out
// once the coroutine is fully switched out.
//
//===----------------------------------------------------------------------===//

#include "pool_internal.h"

#include "../syncblock.h"
#include "pool_fibers.h"
#include "pool_park_inline.h"

#include <errno.h>
#include <stdatomic.h>

// Take the token of a parked coroutine: 1 if this call won it.
static int win(cacs__ptask *t) {
  int one = 1;
  if (!atomic_compare_exchange_strong_explicit(
          &t->token, &one, 0, memory_order_acq_rel, memory_order_relaxed))
    return 0;
  ptsan_acquire(&t->token);
  if (t->timed)
    cacs__ptimer_cancel(t);
  t->wake_result = 0;
  return 1;
}

// On `t`, just switched back in (on whichever worker) with `how`. After a
// hand-off the coroutine that switched here is saved now: queue it on this
// worker's deque (cacs__pool_park's rule: nothing is queued before it has
// switched out). ASan learns the worker's own stack bounds only from
// switches that leave the loop (asan_in_coro), not from this one.
static inline __attribute__((always_inline)) void resumed(cacs__ptask *t,
                                                          uint64_t how) {
  pool_worker *w = cacs__pool_worker();
  if (how == RESUME_HANDED) {
    if (cacs__asan_on())
      __sanitizer_finish_switch_fiber(t->stk->asan_fake, NULL, NULL);
    cacs__ptask *from = w->handoff;
    w->handoff = NULL;
    ptsan_release(from);
    cacs__pool_ready_on(w, from);
  } else {
    asan_in_coro(w, t);
  }
  ptsan_acquire(t);
}

// resumed() for the park inlined in a wait (pool_park_inline.h).
void cacs__pool_resumed(cacs__ptask *t, uint64_t how) { resumed(t, how); }

// resumed() for a wait that is never handed to: no queue, no wake.
void cacs__pool_resumed_from_loop(cacs__ptask *t) {
  resumed(t, RESUME_FROM_LOOP);
}

// Switch to the worker loop with `cmd`; returns when the coroutine is
// resumed, on whichever worker.
__attribute__((noinline)) static void
switch_home(cacs__ptask *t, pool_worker *w, uint64_t cmd) {
  // (CMD_YIELD or CMD_DONE: a park switches in pool_park_inline.h.)
  cacs__pool_switch_home_inline(
      t, w, cmd,
      cmd == CMD_YIELD ? "cacs_pool_yield" : "the end of a pool coroutine", 1);
}

void cacs__pool_task_main(void *arg, uint64_t first) {
  (void)first;
  cacs__ptask *t = arg;
  asan_in_coro(cacs__pool_worker(), t);
  ptsan_acquire(t);
  t->entry(t->arg);
  cacs__pool_task_end(t);
}

// On an exact stack, no tool is on (coro.c, cacs__exact_bytes): the
// sanitizers' calls above and here do nothing there.
void cacs__pool_task_end(cacs__ptask *t) {
  ptsan_release(t);
  switch_home(t, cacs__pool_worker(), CMD_DONE);
  __builtin_unreachable();
}

static cacs__ptask *self_or_die(const char *call) {
  cacs__ptask *t = cacs__pool_self();
  if (!t)
    cacs__fatalf("cacs: %s called outside a pool coroutine\n", call);
  return t;
}

int cacs__pool_park(void (*after)(void *), void *arg, uint64_t deadline_ns) {
  return cacs__pool_park_inline(self_or_die("cacs__pool_park"), after, arg,
                                deadline_ns, 1);
}

int cacs__pool_parked(pool_worker *w, cacs__ptask *t) {
  if (t->deadline) {
    if (cacs__ptimer_arm(w, t, t->deadline) != 0) {
      // Not parked: nothing can find it (no token, `after` not run), and
      // it still holds what `after` would release (a spin lock), so the
      // loop runs it again before anything else; its park returns ENOMEM.
      t->wake_result = ENOMEM;
      return 1;
    }
    t->timed = 1; // on `w`, which is `t->parked_on`
  }
  // Armed: a wake may come from now on (it synchronizes with this store).
  // The timer cannot fire before: only this worker expires its heap.
  ptsan_release(&t->token);
  atomic_store_explicit(&t->token, 1, memory_order_release);
  if (w->after)
    w->after(w->after_arg);
  cacs__ptask_vote(t);
  return 0;
}

int cacs__pool_wake(cacs__ptask *t) {
  if (!win(t))
    return 0;
  cacs__ptask_vote(t);
  return 1;
}

// One switch, from the caller straight to `u`, where the loop would take
// two (home, then `u`). `u` may be entered only once it has switched out:
// the vote tells (the second vote is the last event). The caller is
// queued by `u`'s side once the caller's own switch has finished
// (resumed()).
void cacs__pool_handoff(cacs__ptask *u) {
  cacs__ptask *t = self_or_die("cacs__pool_handoff");
  if (!win(u)) {
    cacs__pool_yield();
    return;
  }
  pool_worker *w = cacs__pool_worker();
  pool_worker *h = home_of(u);
  // A waiter of another pool, or one pinned to another worker: wake it
  // there (a dispatch: it runs when its home takes it). Inside a sync
  // block (cacs/syncblock.h) too: the caller must not switch.
  if (u->pool != w->pool || (h && h != w) || cacs__syncblk.depth) {
    cacs__ptask_vote(u);
    return;
  }
  ptsan_release(u);
  if (atomic_fetch_add_explicit(&u->votes, 1, memory_order_acq_rel) != 1)
    return; // still switching out on another worker, which queues it
  w->handoff = t;
  // Read by other workers too (cacs__pool_handoff_pays).
  __atomic_store_n(&w->cur, cacs__pool_cur = u, __ATOMIC_RELAXED);
  if (cacs__asan_on())
    __sanitizer_start_switch_fiber(
        &t->stk->asan_fake, u->stk->s.lo,
        (size_t)((char *)u->stk->s.top - (char *)u->stk->s.lo));
  tsan_to_task(u);
  resumed(t, cacs_switch(&t->ctx, &u->ctx, RESUME_HANDED));
}

void cacs__pool_yield(void) {
  cacs__ptask *t = self_or_die("cacs__pool_yield");
  switch_home(t, cacs__pool_worker(), CMD_YIELD);
}
