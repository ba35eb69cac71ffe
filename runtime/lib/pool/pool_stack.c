//===- lib/pool/pool_stack.c - Pool coroutines' stacks --------------------===//
//
// A worker's stacks: taken on the worker that first runs a coroutine, kept
// for reuse (up to STACK_CACHE), and given back to the worker that
// allocated them when a coroutine finishes on another.
//
// Exact stacks (stack_exact.c: a coroutine whose entry has a proven bound)
// come from the worker thread's slabs, which only that thread touches: one
// freed on another worker goes back the same way, and its owner puts it on
// its slab's free list. They skip the cache: their sizes differ by entry,
// and the slab's free list already hands out freed slots first, with their
// pages.
//
//===----------------------------------------------------------------------===//

#include "pool_internal.h"

#include "../stack_exact.h"

#include <stdatomic.h>

enum { STACK_CACHE = 64 };

void cacs__pstack_drain_remote(pool_worker *w) {
  pool_stack *s = atomic_exchange_explicit(&w->remote, NULL,
                                           memory_order_acquire);
  while (s) {
    pool_stack *n = s->next;
    if (w->ncache < STACK_CACHE && !(s->s.flags & CACS__STACK_EXACT)) {
      s->next = w->cache;
      w->cache = s;
      w->ncache++;
    } else {
      cacs_stack_free(&s->s);
    }
    s = n;
  }
}

pool_stack *cacs__pstack_get(pool_worker *w) {
  if (!w->cache)
    cacs__pstack_drain_remote(w);
  pool_stack *s = w->cache;
  if (s) {
    w->cache = s->next;
    w->ncache--;
    return s;
  }
  s = cacs_stack_alloc_at(w->pool->stack_size, sizeof *s,
                          offsetof(pool_stack, s), 0);
  if (s) {
    s->owner = w;
    cacs_stack_set_owner(&s->s, "pool coroutine", w->index);
  }
  return s;
}

pool_stack *cacs__pstack_get_exact(pool_worker *w, size_t bytes) {
  if (atomic_load_explicit(&w->remote, memory_order_relaxed))
    cacs__pstack_drain_remote(w); // the slots of those that ended elsewhere
  pool_stack *s = cacs__exact_alloc(
      bytes, offsetof(pool_stack, s) + CACS__EXACT_SHORT_DESC_SIZE,
      offsetof(pool_stack, s));
  if (s) {
    s->next = NULL;
    s->owner = w;
  }
  return s;
}

// stack.c's stacks belong to the thread that allocated them (its slabs and
// its overflow registry are thread-local): one freed on another worker goes
// back to its owner, on a list only the owner empties (a Treiber push; the
// owner takes the whole list at once, so there is no ABA).
void cacs__pstack_put(pool_worker *w, pool_stack *s) {
  pool_worker *o = s->owner;
  if (o != w) {
    pool_stack *head = atomic_load_explicit(&o->remote, memory_order_relaxed);
    do
      s->next = head;
    while (!atomic_compare_exchange_weak_explicit(
        &o->remote, &head, s, memory_order_release, memory_order_relaxed));
    return;
  }
  if (w->ncache < STACK_CACHE && !(s->s.flags & CACS__STACK_EXACT)) {
    s->next = w->cache;
    w->cache = s;
    w->ncache++;
    return;
  }
  cacs_stack_free(&s->s);
}

void cacs__pstack_free_all(pool_worker *w) {
  cacs__pstack_drain_remote(w);
  while (w->cache) {
    pool_stack *s = w->cache;
    w->cache = s->next;
    cacs_stack_free(&s->s);
  }
  w->ncache = 0;
}
