//===- lib/pool/pool_timer.c - Per-worker timers, cacs_pool_sleep ---------===//
//
// Each worker keeps a binary min-heap of the coroutines that parked on it
// with a deadline. Only that worker expires them (in its loop, and sleeping
// in the kernel no longer than to the earliest deadline); a wake that wins
// against the timeout takes the coroutine out from any thread, so the heap
// has a lock. The timeout is decided by the same token as a wake
// (pool_park.c): the expiry takes the token while it holds the lock, so a waker
// that won instead finds the entry gone or removes it itself, and never
// lets the coroutine run (and be freed) while the expiry still looks at it.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "pool_internal.h"

#include "../core.h"
#include "../deadline_heap.h"
#include "../errors.h"
#include "../sched.h"

#include <errno.h>
#include <sched.h>
#include <time.h>

// The heap itself (deadline_heap.h): heap_push, heap_remove, ...
CACS__DEADLINE_HEAP(heap, cacs__ptask, uint32_t)

static void hremove(pool_worker *w, cacs__ptask *t) {
  heap_remove(w->heap, &w->nheap, t);
  atomic_store_explicit(&w->ntimers, w->nheap, memory_order_relaxed);
}

// The heap's growth (realloc), on the worker's own stack (cacs__deep_call,
// core.h): the waits' stack budget (cacs/detail/contract.h), which a pool
// coroutine's exact stack is sized by, need not hold it.
struct heap_grow {
  pool_worker *w;
  int r;
};
static void heap_grow(void *arg) {
  struct heap_grow *g = arg;
  g->r = heap_reserve(&g->w->heap, &g->w->heap_cap, g->w->nheap);
}

int cacs__ptimer_arm(pool_worker *w, cacs__ptask *t, uint64_t deadline) {
  pthread_mutex_lock(&w->tlock);
  struct heap_grow g = {w, 0};
  if (__builtin_expect(w->nheap >= w->heap_cap, 0))
    cacs__deep_call(heap_grow, &g);
  if (g.r < 0) {
    pthread_mutex_unlock(&w->tlock);
    return -1;
  }
  t->deadline = deadline;
  heap_push(w->heap, &w->nheap, t);
  atomic_store_explicit(&w->ntimers, w->nheap, memory_order_relaxed);
  pthread_mutex_unlock(&w->tlock);
  return 0;
}

void cacs__ptimer_cancel(cacs__ptask *t) {
  pool_worker *w = t->parked_on; // the loop that armed it (`timed`)
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
  // `won` holds the latest deadline first. The coroutines run in deadline
  // order, as those that expire in passes of their own do: a migrating
  // pool's worker takes its deque's last pushed first (pool_ready.c), so
  // the latest is voted first there; a pinned worker runs what wakes first
  // in, first out, so there the list is turned round
  // (test/pool/pool-sleep-late.c: a busy worker past four deadlines).
  if (w->pin) {
    cacs__ptask *fwd = NULL;
    while (won) {
      cacs__ptask *t = won;
      won = t->qnext;
      t->qnext = fwd;
      fwd = t;
    }
    won = fwd;
  }
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

// A pool coroutine sleeps parked with a deadline on its worker's heap; a
// plain thread sleeps in the kernel.
int cacs_pool_sleep(int64_t usec) {
  if (!cacs__pool_self()) {
    if (usec > 0) {
      struct timespec ts = {(time_t)(usec / 1000000), (long)(usec % 1000000) * 1000};
      while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
      }
    } else {
      sched_yield();
    }
    return 0;
  }
  if (usec <= 0) {
    cacs__pool_yield();
    return 0;
  }
  uint64_t d = cacs__deadline_ns(cacs__now_ns(), usec);
  for (;;) {
    int r = cacs__pool_park(NULL, NULL, d);
    if (r == ETIMEDOUT)
      return 0;
    if (r == ENOMEM) {
      cacs__set_errno(ENOMEM);
      return -1;
    }
    // A stray wake: sleep on.
  }
}
