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

// A stack's list link and owner: an exact stack's block ends at its short
// descriptor (pool_internal.h, pool_stack), whose registry links it does
// not use (stack.c registers guarded stacks only) hold them.
static int is_exact(const pool_stack *s) {
  return (s->s.flags & CACS__STACK_EXACT) != 0;
}

static pool_stack *next_of(const pool_stack *s) {
  return is_exact(s) ? (pool_stack *)(void *)s->s.reg_next : s->next;
}

static void set_next(pool_stack *s, pool_stack *n) {
  if (is_exact(s))
    s->s.reg_next = (cacs_stack *)(void *)n;
  else
    s->next = n;
}

static pool_worker *owner_of(const pool_stack *s) {
  return is_exact(s) ? (pool_worker *)(void *)s->s.reg_prev : s->owner;
}

void cacs__pstack_drain_remote(pool_worker *w) {
  pool_stack *s = atomic_exchange_explicit(&w->remote, NULL,
                                           memory_order_acquire);
  while (s) {
    pool_stack *n = next_of(s);
    if (w->ncache < STACK_CACHE && !is_exact(s)) {
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
  } else {
    s = cacs_stack_alloc(w->pool->stack_size, sizeof *s, 0);
    if (!s)
      return NULL;
    s->owner = w;
    cacs_stack_set_owner(&s->s, "pool coroutine", w->index);
  }
  s->tsan_fiber = s->asan_fake = NULL; // its coroutine's, none yet
  return s;
}

pool_stack *cacs__pstack_get_exact(pool_worker *w, size_t bytes) {
  if (atomic_load_explicit(&w->remote, memory_order_relaxed))
    cacs__pstack_drain_remote(w); // the slots of those that ended elsewhere
  pool_stack *s = cacs__exact_alloc(bytes, CACS__EXACT_SHORT_DESC_SIZE, 0);
  if (s) // the registry links, zeroed: no next
    s->s.reg_prev = (cacs_stack *)(void *)w;
  return s;
}

// stack.c's stacks belong to the thread that allocated them (its slabs and
// its overflow registry are thread-local): one freed on another worker goes
// back to its owner, on a list only the owner empties (a Treiber push; the
// owner takes the whole list at once, so there is no ABA).
void cacs__pstack_put(pool_worker *w, pool_stack *s) {
  pool_worker *o = owner_of(s);
  if (o != w) {
    pool_stack *head = atomic_load_explicit(&o->remote, memory_order_relaxed);
    do
      set_next(s, head);
    while (!atomic_compare_exchange_weak_explicit(
        &o->remote, &head, s, memory_order_release, memory_order_relaxed));
    return;
  }
  if (w->ncache < STACK_CACHE && !is_exact(s)) {
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
