//===- lib/pool/pool_waiter.h - Waiters of the pool's objects ----*- C -*-===//
//
// The waiter records of cacs/pool_sync.h's objects on the pool's parking
// contract (pool_park.h): how they queue, are served and wait.
//
// Every object is a state guarded by a test-and-test-and-set spin lock (the
// CES paper's final design, 5.1) and a FIFO of waiter records living on
// the waiters' stacks. A waiter queues its record under the spin lock and
// parks; the pool runs the `after` hook (release_spins) once the waiter is
// fully switched out, so a releaser that finds the record may resume it at
// once on any worker. A releaser takes the record off the queue, hands it
// the resource (ownership, a unit, an item) and sets `served`; the waiter
// decides what happened from `served` alone. One exception: a semaphore's
// post that wakes a waiter to compete (result EAGAIN) leaves its record
// queued, marked W_WOKEN, and releasers pass such records over; the waiter
// takes it off itself, or clears `served` and parks again (pool_sync.c).
//
// Lifetimes. A waiter without a timeout is woken only by the releaser that
// served it, so after dropping the spin lock the releaser may still use its
// record and its task until it wakes it: that is what lets a CES release
// switch to it (cacs__pool_handoff) outside the lock. A waiter with a
// timeout may be resumed by its timer at any moment and then return (and
// its coroutine finish) as soon as it can see `served`, which it reads
// only under the spin lock: the releaser therefore wakes it while it still
// holds the lock, and never switches to it. Plain threads wait on a futex
// in their record, which the releaser posts under the lock for the same
// reason.
//
// Private to libcacs: pool_sync.c and pool_chan.c include it.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_POOL_WAITER_H
#define CACS_LIB_POOL_WAITER_H

#include "cacs/pool_sync.h"
#include "../errors.h"
#include "../internal.h"
#include "../sched.h"
#include "../waitq.h"
#include "futex.h"
#include "pool_park.h"
#include "pool_spin.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// `kind`: a reader or a writer of an rwlock; a semaphore's waiter woken to
// compete, still queued (pool_sync.c, "semaphore").
enum { W_READER = 1, W_WRITER = 2, W_WOKEN = 3 };

struct cacs__pwaiter {
  struct cacs__pwaiter *next, *prev;
  cacs__pwaitq *q;   // the queue it is on (a condition waiter moves)
  cacs__ptask *task; // NULL: a plain thread, waiting on `futex`
  void *self;        // the owner identity it takes (mutex, writer)
  void *item;        // channel: the sender's item / the receiver's buffer
  uint32_t futex;    // plain thread: 1 once served
  int served;        // atomic: set by the releaser under the spin lock
  int result;        // with served: 0 or EPIPE
  int timed;         // has a deadline (see "Lifetimes" above)
  int kind;          // W_READER / W_WRITER (rwlock), W_WOKEN (semaphore)
  uint64_t since;    // mutex, semaphore: when it first queued (bounds)
};
typedef struct cacs__pwaiter waiter;

// --- spin locks ----------------------------------------------------------

// Up to two spin locks held together (a condition variable and its mutex,
// taken in that order).
typedef struct spins {
  uint32_t *a, *b;
} spins;

static inline void spins_lock(spins *s) {
  spin_lock(s->a);
  if (s->b)
    spin_lock(s->b);
}

static inline void spins_unlock(spins *s) {
  if (s->b)
    spin_unlock(s->b);
  spin_unlock(s->a);
}

// The park's `after` hook: the waiter is switched out, releasers may come.
static inline void release_spins(void *arg) { spins_unlock((spins *)arg); }

// --- errors, time, identity -----------------------------------------------

static inline int ret(int e) {
  return __builtin_expect(e != 0, 0) ? cacs__fail(e) : 0;
}

// The deadline for a timeout (0: none, for a negative one), on the clock
// and with the saturation every deadline of libcacs uses (sched.h).
static inline uint64_t deadline_of(int64_t timeout_us) {
  return timeout_us < 0 ? 0 : cacs__deadline_ns(cacs__now_ns(), timeout_us);
}

// A plain thread's identity as an owner: the address of a thread-local
// byte, tagged so that it can never equal a task's address. Plain threads
// do not migrate, so the address is stable. One byte for every file that
// includes this (defined in pool_sync.c).
extern _Thread_local char cacs__pool_thread_marker
    __attribute__((visibility("hidden")));

static inline void *self_id(cacs__ptask *t) {
  return t ? (void *)t : (void *)((uintptr_t)&cacs__pool_thread_marker | 1);
}

// --- waiter queues -------------------------------------------------------

static inline void q_push(cacs__pwaitq *q, waiter *w) {
  CACS__WAITQ_PUSH(q, w);
  w->q = q;
}

static inline void q_push_front(cacs__pwaitq *q, waiter *w) {
  CACS__WAITQ_PUSH_FRONT(q, w);
  w->q = q;
}

static inline void q_remove(cacs__pwaitq *q, waiter *w) {
  CACS__WAITQ_REMOVE(q, w);
  w->q = NULL;
}

static inline waiter *q_pop(cacs__pwaitq *q) {
  waiter *w = q->head;
  if (w)
    q_remove(q, w);
  return w;
}

static inline void w_init(waiter *w, cacs__ptask *task, int64_t timeout_us) {
  memset(w, 0, sizeof *w);
  w->task = task;
  w->self = self_id(task);
  w->timed = timeout_us >= 0;
}

// --- serving ---------------------------------------------------------------

// Whether `w` waits on the releasing worker (pool_park.h,
// cacs__pool_handoff_pays): its stack is in this worker's cache and it
// would run here at once, so running it in the releaser's place costs no
// parallelism and moves no stack.
static inline int waiter_local(const waiter *w) {
  return w->task && cacs__pool_handoff_pays(w->task);
}

// The rule by which every object here chooses a waiter to run in the
// releaser's place (CES, the paper's Figure 6): only one that is local and
// untimed (see "Lifetimes"); any other is made runnable, and the releaser
// goes on (pool_sync.c, "Barging or hand-off", says why).
static inline int inplace_pays(const waiter *w) {
  return !w->timed && waiter_local(w);
}

// Serve `w` (already off its queue) with `result`; called under the spin
// lock. A waiter the releaser may run in its own place (a pool task with no
// timeout) goes to *inplace if that is still free and inplace is not NULL;
// every other one is made runnable now, under the lock (see "Lifetimes").
static inline void serve(waiter *w, int result, cacs__ptask **inplace) {
  w->result = result;
  __atomic_store_n(&w->served, 1, __ATOMIC_RELEASE);
  if (!w->task) {
    __atomic_store_n(&w->futex, 1, __ATOMIC_RELEASE);
    cacs__futex_wake(&w->futex, 1);
  } else if (!w->timed && inplace && !*inplace) {
    *inplace = w->task;
  } else {
    cacs__pool_wake(w->task);
  }
}

// serve(), but a waiter that serve() would wake now, under the lock, and
// that may be woken later (a pool task with no timeout: see "Lifetimes")
// goes on the list *later instead (linked through its record, off its
// queue now), for wake_later() to wake once the caller has dropped the
// spin lock. A wake may be a system call (a futex wake of the sleeping
// worker the task is homed on), and the kernel may switch to the thread
// it wakes at once: on a CPU shared by two workers the other then spins
// for the lock its whole time slice while its holder waits to run. The
// rwlock served its readers this way, and in a default pool fell to 30 us
// per lock pair in 2 runs of 5 (issue 37; the mutex's `later`, and the
// single waiter of the other objects, are woken after the lock already).
static inline void serve_later(waiter *w, int result, cacs__ptask **inplace,
                               waiter **later) {
  if (w->task && !w->timed && later && !(inplace && !*inplace)) {
    w->result = result;
    __atomic_store_n(&w->served, 1, __ATOMIC_RELEASE);
    w->next = *later;
    *later = w;
    return;
  }
  serve(w, result, inplace);
}

// After the spin lock is dropped: wake the waiters serve_later() listed
// (last listed first: all are served already, and each runs when its
// worker takes it). A record lives on its waiter's stack, which may return once woken: the
// link and the task are read before the wake.
static inline void wake_later(waiter *w) {
  while (w) {
    waiter *next = w->next;
    cacs__ptask *t = w->task;
    cacs__pool_wake(t);
    w = next;
  }
}

// After the spin lock is dropped: run the waiter chosen by serve() in the
// caller's place (CES: the caller is queued on its worker) when the caller
// is a pool coroutine, else make it runnable.
static inline void run_served(cacs__ptask *t, int ces) {
  if (!t)
    return;
  if (ces && cacs__pool_self())
    cacs__pool_handoff(t);
  else
    cacs__pool_wake(t);
}

// --- waiting ---------------------------------------------------------------

// What to do with a waiter whose timeout passed before anyone served it,
// called under the spin locks: take it off its queue and return 1 (the wait
// fails with ETIMEDOUT), or return 0 to keep waiting without a deadline.
typedef int (*cancel_fn)(void *obj, waiter *w);

static inline int cancel_remove(void *obj, waiter *w) {
  (void)obj;
  q_remove(w->q, w);
  return 1;
}

// Wait until `w` (queued, the spin locks `sp` held) is served or the
// deadline passes. Returns with the locks released: the result the
// releaser gave, or ETIMEDOUT / ENOMEM after `cancel` took `w` off.
static inline int wait_served(waiter *w, spins *sp, uint64_t deadline,
                       cancel_fn cancel, void *obj) {
  if (w->task) {
    for (;;) {
      int r = cacs__pool_park(release_spins, sp, deadline);
      if (r == ENOMEM) { // did not park: the locks are still held
        cancel(obj, w);
        spins_unlock(sp);
        return ENOMEM;
      }
      if (r == 0 && !w->timed) {
        // Only the releaser that served us wakes an untimed waiter.
        if (__atomic_load_n(&w->served, __ATOMIC_ACQUIRE))
          return w->result;
        cacs__fatal("cacs: pool waiter woken without being served\n");
      }
      spins_lock(sp);
      if (__atomic_load_n(&w->served, __ATOMIC_ACQUIRE)) {
        spins_unlock(sp);
        return w->result;
      }
      if (r == ETIMEDOUT && cancel(obj, w)) {
        spins_unlock(sp);
        return ETIMEDOUT;
      }
      if (r == ETIMEDOUT)
        deadline = 0; // keep waiting (a condition waiter on the mutex)
    }
  }
  // A plain thread: block on the record's futex.
  for (;;) {
    spins_unlock(sp);
    int timed_out = 0;
    while (!__atomic_load_n(&w->futex, __ATOMIC_ACQUIRE)) {
      if (cacs__futex_wait(&w->futex, 0, deadline) != 0 &&
          cacs__errno() == ETIMEDOUT) {
        timed_out = 1;
        break;
      }
    }
    spins_lock(sp);
    if (__atomic_load_n(&w->served, __ATOMIC_ACQUIRE)) {
      spins_unlock(sp);
      return w->result;
    }
    if (timed_out && cancel(obj, w)) {
      spins_unlock(sp);
      return ETIMEDOUT;
    }
    if (timed_out)
      deadline = 0;
  }
}

#endif // CACS_LIB_POOL_WAITER_H
