//===- lib/pool/pool_timer.c - Per-worker timers ---------------------------===//
//
// Each worker keeps a binary min-heap of the coroutines that parked on it
// with a deadline. Only that worker expires them (in its loop, and sleeping
// in the kernel no longer than to the earliest deadline); a wake that wins
// against the timeout takes the coroutine out from any thread, so the heap
// has a lock. The timeout is decided by the same token as a wake
// (pool.c): the expiry takes the token while it holds the lock, so a waker
// that won instead finds the entry gone or removes it itself, and never
// lets the coroutine run (and be freed) while the expiry still looks at it.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "pool_internal.h"

#include <errno.h>
#include <stdlib.h>

static void hplace(pool_worker *w, size_t i, cacs__ptask *t) {
  w->heap[i] = t;
  t->timer_slot = i + 1;
}

static void hsift(pool_worker *w, size_t i) {
  cacs__ptask *t = w->heap[i];
  while (i > 0 && w->heap[(i - 1) / 2]->deadline > t->deadline) {
    hplace(w, i, w->heap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= w->nheap)
      break;
    if (c + 1 < w->nheap && w->heap[c + 1]->deadline < w->heap[c]->deadline)
      c++;
    if (t->deadline <= w->heap[c]->deadline)
      break;
    hplace(w, i, w->heap[c]);
    i = c;
  }
  hplace(w, i, t);
}

static void hremove(pool_worker *w, cacs__ptask *t) {
  size_t i = t->timer_slot - 1;
  t->timer_slot = 0;
  cacs__ptask *last = w->heap[--w->nheap];
  if (last != t) {
    w->heap[i] = last;
    hsift(w, i);
  }
  atomic_store_explicit(&w->ntimers, w->nheap, memory_order_relaxed);
}

int cacs__ptimer_arm(pool_worker *w, cacs__ptask *t, uint64_t deadline) {
  pthread_mutex_lock(&w->tlock);
  if (w->nheap == w->heap_cap) {
    size_t cap = w->heap_cap ? 2 * w->heap_cap : 64;
    cacs__ptask **h = realloc(w->heap, cap * sizeof *h);
    if (!h) {
      pthread_mutex_unlock(&w->tlock);
      return -1;
    }
    w->heap = h;
    w->heap_cap = cap;
  }
  t->deadline = deadline;
  w->heap[w->nheap++] = t;
  hsift(w, w->nheap - 1);
  atomic_store_explicit(&w->ntimers, w->nheap, memory_order_relaxed);
  pthread_mutex_unlock(&w->tlock);
  return 0;
}

void cacs__ptimer_cancel(cacs__ptask *t) {
  pool_worker *w = t->timer_w;
  pthread_mutex_lock(&w->tlock);
  if (t->timer_slot)
    hremove(w, t);
  pthread_mutex_unlock(&w->tlock);
}

void cacs__ptimer_expire(pool_worker *w, uint64_t now) {
  cacs__ptask *won = NULL;
  pthread_mutex_lock(&w->tlock);
  while (w->nheap && w->heap[0]->deadline <= now) {
    cacs__ptask *t = w->heap[0];
    hremove(w, t);
    int one = 1;
    if (atomic_compare_exchange_strong_explicit(&t->token, &one, 0,
                                                memory_order_acq_rel,
                                                memory_order_relaxed)) {
      t->qnext = won; // ours now: nobody else queues it
      won = t;
    }
  }
  pthread_mutex_unlock(&w->tlock);
  while (won) {
    cacs__ptask *t = won;
    won = t->qnext;
    t->wake_result = ETIMEDOUT;
    cacs__ptask_vote(t);
  }
}

uint64_t cacs__ptimer_next(pool_worker *w) {
  if (!atomic_load_explicit(&w->ntimers, memory_order_relaxed))
    return 0;
  pthread_mutex_lock(&w->tlock);
  uint64_t d = w->nheap ? w->heap[0]->deadline : 0;
  pthread_mutex_unlock(&w->tlock);
  return d;
}
