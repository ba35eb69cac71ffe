//===- lib/pool/deque.h - Chase-Lev work-stealing deque ----------*- C -*-===//
//
// One per worker: the owner pushes and takes at the bottom (last in, first
// out), any other worker steals at the top. Fixed capacity (a push to a
// full deque fails and the caller uses the pool's shared queue), so no
// buffer is ever replaced or freed under a thief.
//
// Memory orders, after Le, Pop, Cohen and Zappa Nardelli, "Correct and
// Efficient Work-Stealing for Weak Memory Models" (PPoPP 2013), with the
// push's release fence folded into a release store of `bottom`:
//   - push: the slot is written, then `bottom` is published with release;
//     a thief's acquire load of `bottom` that sees the new value sees the
//     slot and, through it, everything the owner wrote to the task before
//     pushing it (its saved context included).
//   - take: the owner lowers `bottom` and then reads `top`; a thief reads
//     `top` and then `bottom`. Both pairs are separated by seq_cst fences,
//     so at least one side sees the other's write: they cannot both take
//     the last element without meeting at the CAS on `top`.
//   - the last element (top == bottom - 1 after the decrement) is taken by
//     whoever wins a seq_cst CAS on `top`; `top` only grows, so the CAS has
//     no ABA.
// Breaking any of these (a relaxed store of `bottom` in push, or no fence
// in take) lets a thief run a task before its context is visible, or two
// workers run one task; test/pool/pool-steal.c counts runs to catch that.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_POOL_DEQUE_H
#define CACS_LIB_POOL_DEQUE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define CACS_DEQUE_CAP 1024u // a power of two

typedef struct cacs__deque {
  _Alignas(64) _Atomic(int64_t) top;
  _Alignas(64) _Atomic(int64_t) bottom;
  _Atomic(void *) slot[CACS_DEQUE_CAP];
} cacs__deque;

/// Owner only. 0, or -1 if full.
static inline int deque_push(cacs__deque *d, void *x) {
  int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed);
  int64_t t = atomic_load_explicit(&d->top, memory_order_acquire);
  if (b - t >= (int64_t)CACS_DEQUE_CAP)
    return -1;
  atomic_store_explicit(&d->slot[b & (CACS_DEQUE_CAP - 1)], x,
                        memory_order_relaxed);
  atomic_store_explicit(&d->bottom, b + 1, memory_order_release);
  return 0;
}

/// Owner only: the bottom element, or NULL.
static inline void *deque_take(cacs__deque *d) {
  int64_t b = atomic_load_explicit(&d->bottom, memory_order_relaxed) - 1;
  atomic_store_explicit(&d->bottom, b, memory_order_relaxed);
  atomic_thread_fence(memory_order_seq_cst);
  int64_t t = atomic_load_explicit(&d->top, memory_order_relaxed);
  void *x = NULL;
  if (t <= b) {
    x = atomic_load_explicit(&d->slot[b & (CACS_DEQUE_CAP - 1)],
                             memory_order_relaxed);
    if (t == b) { // the last one: race the thieves for it
      if (!atomic_compare_exchange_strong_explicit(
              &d->top, &t, t + 1, memory_order_seq_cst, memory_order_relaxed))
        x = NULL;
      atomic_store_explicit(&d->bottom, b + 1, memory_order_relaxed);
    }
  } else {
    atomic_store_explicit(&d->bottom, b + 1, memory_order_relaxed);
  }
  return x;
}

/// Any thread: the top element, or NULL (empty, or lost a race: the
/// caller moves on to another victim and comes back).
static inline void *deque_steal(cacs__deque *d) {
  int64_t t = atomic_load_explicit(&d->top, memory_order_acquire);
  atomic_thread_fence(memory_order_seq_cst);
  int64_t b = atomic_load_explicit(&d->bottom, memory_order_acquire);
  if (t >= b)
    return NULL;
  void *x = atomic_load_explicit(&d->slot[t & (CACS_DEQUE_CAP - 1)],
                                 memory_order_relaxed);
  if (!atomic_compare_exchange_strong_explicit(
          &d->top, &t, t + 1, memory_order_seq_cst, memory_order_relaxed))
    return NULL;
  return x;
}

/// Any thread, a hint: whether the deque looked non-empty.
static inline int deque_nonempty(cacs__deque *d) {
  return atomic_load_explicit(&d->bottom, memory_order_relaxed) >
         atomic_load_explicit(&d->top, memory_order_relaxed);
}

#endif // CACS_LIB_POOL_DEQUE_H
