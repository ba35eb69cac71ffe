//===- lib/pool/pool_internal.h - The pool's private state -------*- C -*-===//
//
// What the pool's files share: a pool coroutine's control block,
// the per-worker state and the pool. Private to libcacs.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_POOL_INTERNAL_H
#define CACS_LIB_POOL_INTERNAL_H

#include "../internal.h"
#include "cacs/pool.h"
#include "cacs/switch.h"
#include "deque.h"
#include "futex.h"
#include "pool_park.h"
#include "pool_tsan.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef struct pool_worker pool_worker;

/// A stack of the pool: allocated by a worker's thread (stack.c keeps it
/// in that thread's pools and overflow registry), so it goes back to that
/// worker to be reused or freed (pool_stack.c, cacs__pstack_put).
///
/// An exact stack's block ends at its short descriptor (stack_exact.h),
/// 80 bytes: the members after `s` are not there. Its list link and owner
/// are kept in the descriptor's registry links instead, which an exact
/// stack does not use (pool_stack.c, pstack_next and pstack_owner); no
/// tool runs on an exact stack (coro.c, cacs__exact_bytes), so the tools'
/// members are read only under a tool, on a guarded stack.
typedef struct pool_stack {
  cacs_stack s; // first: the block cacs_stack_alloc hands out
  struct pool_stack *next;
  pool_worker *owner;
  // The tools' state of its coroutine (a guarded stack's only, since an
  // exact stack never runs under a tool): ThreadSanitizer's fiber, and
  // AddressSanitizer's fake stack while switched out (pool_fibers.h).
  // Here rather than in the coroutine's block, which every coroutine pays.
  void *tsan_fiber;
  void *asan_fake;
} pool_stack;

struct cacs__ptask {
  cacs_context ctx; // saved registers while switched out (cacs/switch.h)
  cacs_pool *pool;
  // What it runs, read once, when a worker first runs it (pool_worker.c,
  // start; trampoline_<arch>.S): the words are then those of its waits,
  // each written by the wait before anything reads it (a park writes
  // `deadline` and `wake_result`, a timer's push `timer_slot`).
  union {
    void (*entry)(void *);
    uint64_t deadline; // its park's, 0: none
  };
  union {
    void *arg;
    struct {
      // Its slot in its timer heap (pool_timer.c; under that heap's lock;
      // 0: not in the heap), read only while `timed`. 32 bits: a worker
      // never holds 2^32 coroutines.
      uint32_t timer_slot;
      int wake_result; // 0 or ETIMEDOUT, written by the winner before its vote
    };
  };
  pool_stack *stk; // NULL until a worker first runs it
  // The one worker that may run it once it has started, NULL while any
  // worker may (below, "Where a coroutine may run").
  pool_worker *home;
  // In the pool's shared queue, or in its home's local queue or inbox
  // (one at a time).
  struct cacs__ptask *qnext;
  // The worker it last parked on, where its stack and its waiter record
  // are in the cache (read by cacs__pool_handoff_pays), and whose heap
  // holds its timer while `timed` says so.
  pool_worker *parked_on;
  struct cacs__ptask *joiner;
  // Joinable handles (pool_handles.c): the next in its bucket.
  struct cacs__ptask *hnext;
  // Parking (pool_park.c, cacs__pool_park): `token` is 1 while the coroutine
  // waits for exactly one wake or timeout; `votes` counts the two events
  // that must both happen before it may run again (it has switched out;
  // it was woken): whoever comes second queues it.
  _Atomic int token;
  _Atomic int votes;
  // Joining: 0 running, 1 a pool coroutine joins (`joiner`), 3 a thread
  // joins (futex on this word), 2 finished.
  _Atomic uint32_t join_state;
  // Its timer is armed, on `parked_on`'s heap: set by the loop that parks
  // it (cacs__pool_parked) before it arms its token, cleared by its next
  // park, never by others.
  unsigned char timed;
  unsigned char error;    // ENOMEM: it never ran (no stack)
  unsigned char detached; // freed when it finishes (cacs_pool_spawn_detached)
  unsigned char claimed;  // pool_handles.c: a cacs_pool_join has taken it
};
// malloc's 144-byte chunk (8 bytes of header): a block per coroutine, a
// million of them parked at once (bench/stackbound/pool.c). What only some
// coroutines need is elsewhere: the tools' state in the stack's block
// (pool_stack), the words of a wait over those of the start.
_Static_assert(sizeof(struct cacs__ptask) <= 136, "a pool coroutine's block");

/// What a pool coroutine asks of its worker when it switches out: the
/// value the switch carries (cacs/switch.h).
enum { CMD_YIELD = 1, CMD_PARK, CMD_DONE };

/// What a switch into a parked coroutine carries: from the worker loop
/// (pool_worker.c, run) or straight from the coroutine that handed off to it.
enum { RESUME_FROM_LOOP = 0, RESUME_HANDED };

// A first-in, first-out list of coroutines linked through `qnext`: the
// owner touches it alone (a worker's own queues) or under a lock (the
// pool's shared queue).
struct pool_fifo {
  cacs__ptask *head, *tail;
};

struct pool_worker {
  cacs__deque dq; // first: cache-line aligned
  cacs_pool *pool;
  unsigned index;
  pthread_t thread;
  cacs_context home;   // the worker loop, while a coroutine runs
  cacs__ptask *cur;    // the running coroutine, NULL in the loop (atomic)
  void *tsan_home;     // ThreadSanitizer: the worker thread's fiber
  // AddressSanitizer (pool_fibers.h): the loop's fake stack while a coroutine
  // runs, and the worker thread's stack, learned on the first switch.
  void *asan_fake;
  const void *asan_lo;
  size_t asan_size;
  void (*after)(void *); // CMD_PARK: run once switched out
  void *after_arg;
  cacs__ptask *handoff; // handed off, switched out: to queue (pool_park.c)
  unsigned tick;
  // Coroutines started off the bottom of `dq` (cacs__pool_deque_take), and
  // their number at the deque's last turn (pool_ready.c, take_turn).
  unsigned dq_starts, dq_starts_turn;
  // Set while find_work's turn polls (pool_worker.c): the coroutines it
  // makes ready go behind those ready already (pool_ready.c).
  unsigned char behind;
  uint64_t starts; // coroutines this worker started (their ids, pool_worker.c)
  uint64_t rng;
  pool_stack *cache; // stacks of this worker to reuse
  unsigned ncache;
  _Atomic(pool_stack *) remote; // its stacks freed on other workers
  // Timers (pool_timer.c): a min-heap on deadline under `tlock`; `ntimers`
  // mirrors its size for the worker's lock-free look.
  pthread_mutex_t tlock;
  cacs__ptask **heap;
  size_t nheap, heap_cap;
  _Atomic size_t ntimers;
  // Started coroutines homed here (below, "Where a coroutine may run"):
  // woken on this worker, they go to `woken`, yielding to `yielded` (FIFOs
  // only it touches); woken from any other thread, to `inbox` (a Treiber
  // stack the worker empties at once), and `sleeping` says how to wake it
  // (SLEEP_*, below).
  // Its io_uring ring (pool_io.h, io_pool_uring.c), NULL on epoll.
  struct cacs__pool_ring *ring;
  pool_worker *pin; // what a coroutine it starts gets as its home
  // The owner word of the mutex its coroutine queued on last, until that
  // one's wait ends (cacs__pool_lock_wait): set and read by this worker's
  // thread only (its coroutines park and resume here).
  void *const *lock_owner;
  struct pool_fifo woken, yielded;
  // Started here and not finished, in a default pool (its load, with
  // `nplaced`: pool_ready.c, place); written by this worker only.
  _Atomic size_t nhomed;
  // Times it went to sleep (idle_wait); written by this worker only, read
  // by tests (cacs__pool_worker_sleeps).
  _Atomic size_t nsleeps;
  // Its claim-spins that failed (pool_worker.c, claim_judge); the same.
  _Atomic size_t nclaim_fails;
  // Its thread's CPU-time clock, for the other workers.
  clockid_t cpuclock;
  // The claim gate (pool_worker.c, claim_gate): its claim-spins that
  // failed in a row (0: the claim counts), and the claim-spins it skips
  // before the next probe; this worker's only.
  unsigned claim_fails, claim_skip;
  // The other worker whose placed coroutines this one, idle, watches
  // (pool_ready.c, cacs__pool_steal_placed): what it last saw there, since
  // when, that worker's CPU time then, and when to look again.
  pool_worker *watch;
  const cacs__ptask *watch_cur;
  unsigned watch_pops;
  uint64_t watch_since, watch_cpu, watch_due;
  // The other worker whose `next` this one, idle, watches
  // (pool_ready.c, cacs__pool_next_watch): its `next_seq` then, and since
  // when.
  pool_worker *nx_v;
  unsigned nx_seq;
  uint64_t nx_since;
  // In a pool whose coroutines migrate: the started coroutine that a
  // coroutine running here woke last, which this worker runs next (Go's
  // runnext; pool_ready.c, run_next). Written by this worker; taken by it,
  // or by an idle worker once it has waited there too long. `next_seq`
  // counts the coroutines put there.
  _Alignas(64) _Atomic(cacs__ptask *) next;
  _Atomic unsigned next_seq;
  _Alignas(64) _Atomic(cacs__ptask *) inbox;
  _Atomic int sleeping;
  // 1 while it spins for work (pool_worker.c, idle_spin), until a wake
  // claims it (claim_wake, which counts it in the pool's `nclaimspin`) or
  // it stops.
  _Atomic int spinning;
  // Coroutines spawned from outside a default pool and placed on this
  // worker (pool_ready.c, place), under the pool's `qlock`; `nplaced` is
  // their number, read without it; `placed_pops` counts those this worker
  // took (under the lock).
  struct pool_fifo placed;
  _Atomic size_t nplaced;
  unsigned placed_pops;
};

struct cacs_pool {
  pool_worker *w;
  unsigned nworkers;
  size_t stack_size;
  int migrate_running; // CACS_POOL_MIGRATE_RUNNING (cacs/pool.h)
  // cacs_stack_flags of every coroutine's stack (cacs/pool.h): whether the
  // coroutines of entries with a proven bound get exact stacks (coro.c,
  // cacs__exact_bytes). CACS_STACK_NOBOUND also when a worker has no
  // alternate signal stack, where signal handlers would run on the stack
  // of a coroutine, which may migrate there (pool.c waits for `ready`, the
  // workers that have looked, before it returns the pool).
  unsigned stack_flags;
  _Atomic uint32_t ready;
  _Atomic int no_altstack;
  // The shared queue: spawns and wakes from outside, yields, overflow.
  pthread_mutex_t qlock;
  struct pool_fifo q;
  _Atomic size_t qlen;
  // How many place() (pool_ready.c) made: where it starts looking.
  _Atomic unsigned place_next;
  // Idle workers sleep on `epoch` (futex) while `nidle` counts them;
  // `nspinning` counts those that look for work before they sleep
  // (pool_worker.c, idle_spin), not counted in `nidle`.
  _Atomic uint32_t epoch;
  _Atomic int nidle;
  _Atomic int nspinning;
  // Of the `nidle`, those a wake has taken out of their sleep (claim_wake)
  // and that have not yet come out of idle_wait; of the `nspinning`, those
  // a wake has given work and that have not yet stopped spinning: about to
  // run the work they were woken for, so running for idle_spin's rule
  // while the claim-spins pay (pool_worker.c, claim_gate). Each may read -1
  // for a moment (the woken worker's decrement first).
  _Atomic int nwaking;
  _Atomic int nclaimspin;
  _Atomic int stop;
  // I/O waits (pool_io.c): the pool's epoll set, NULL until the first
  // wait; `poller` is 1 while a worker polls it, `poll_sleep` while that
  // worker sleeps in epoll_wait (cacs__pool_notify then kicks its eventfd).
  _Atomic(struct pool_io *) io;
  _Atomic int poller;
  _Atomic int poll_sleep;
  // The io_uring engine (pool_worker.c): a worker could not make the ring
  // asked for (the pool runs on epoll); the workers asleep in their rings.
  _Atomic int ring_failed;
  _Atomic int nring_sleep;
  // Coroutines spawned and not finished; destroy waits for 0 on dcond.
  _Atomic size_t live;
  pthread_mutex_t dlock;
  pthread_cond_t dcond;
  struct cacs_pool *next_pool; // the pools alive (pool_handles.c)
};

// The pool's futex words (futex.h): a joinable coroutine's `join_state`,
// the pool's `epoch`.
static inline void futex_wait(_Atomic uint32_t *a, uint32_t v,
                              uint64_t deadline) {
  cacs__futex_wait((uint32_t *)a, v, deadline);
}

static inline long futex_wake(_Atomic uint32_t *a, int n) {
  return cacs__futex_wake((uint32_t *)a, n);
}

// An idle worker sleeps on the pool's `epoch` with its own bit, so that a
// wake meant for it alone (pool_ready.c, wake_home) wakes it and not the
// others (a plain FUTEX_WAKE, cacs__pool_notify's, matches every bit).
static inline uint32_t worker_bit(const pool_worker *w) {
  return 1u << (w->index % 32);
}

static inline void futex_wait_worker(cacs_pool *p, pool_worker *w, uint32_t v,
                                     uint64_t deadline) {
  cacs__futex_wait_bits((uint32_t *)&p->epoch, v, deadline, worker_bit(w));
}

static inline void futex_wake_worker(cacs_pool *p, pool_worker *w) {
  cacs__futex_wake_bits((uint32_t *)&p->epoch, INT_MAX, worker_bit(w));
}

// A counter that one thread at a time writes (its worker, or the holder of
// a lock) and others read without a lock: a plain add, no locked
// instruction.
static inline void counter_add(_Atomic size_t *c, size_t d) {
  atomic_store_explicit(c, atomic_load_explicit(c, memory_order_relaxed) + d,
                        memory_order_relaxed);
}

// Where a coroutine may run.
// The one rule of migration (cacs/pool.h, "Thread-local storage"): once a
// coroutine has started, it runs only on its home, the worker that started
// it, unless its pool lets running coroutines migrate
// (CACS_POOL_MIGRATE_RUNNING). A coroutine that has not started has no
// thread-local address to keep, and goes where any worker may take it.
// pin() is the rule, home_of() reads it; every way a coroutine becomes
// runnable (pool_ready.c's make_ready_on and cacs__pool_yield_ready,
// cacs__pool_handoff) asks home_of.
// A started coroutine never sits in a deque or the shared queue, where
// another worker could take it: on its home it goes to one of the home's
// own queues (`woken`, `yielded`), from any other thread to the home's
// inbox, and that worker is woken in particular (pool_ready.c, wake_home).

// How an idle worker sleeps (`sleeping`): on the futex, in epoll_wait, or
// in its io_uring ring (while it has requests in flight).
enum { SLEEP_NO = 0, SLEEP_FUTEX, SLEEP_POLL, SLEEP_RING };

// From another thread, once work for `w` alone is published: `w` will run
// it, so it counts as running for idle_spin's rule (pool_worker.c) at once,
// not once it is up (while the claim-spins pay: claim_gate). Asleep in `s`
// (SLEEP_FUTEX or SLEEP_RING; SLEEP_NO: it may spin), it is taken out of
// its sleep if no other wake took it first; the caller, on 1, wakes it
// (only the first of several wakes pays the system call: `w` looks at all
// their work once up); it counts in `nwaking` until it leaves idle_wait,
// which tells by `sleeping` found SLEEP_NO. Spinning, it counts in
// `nclaimspin` until idle_spin ends, which tells by `spinning` found 0.
static inline int claim_wake(pool_worker *w, int s) {
  if (s == SLEEP_NO) {
    if (atomic_load_explicit(&w->spinning, memory_order_relaxed) &&
        atomic_exchange_explicit(&w->spinning, 0, memory_order_relaxed))
      atomic_fetch_add_explicit(&w->pool->nclaimspin, 1, memory_order_relaxed);
    return 0;
  }
  if (atomic_load_explicit(&w->sleeping, memory_order_relaxed) != s ||
      !atomic_compare_exchange_strong_explicit(&w->sleeping, &s, SLEEP_NO,
                                               memory_order_relaxed,
                                               memory_order_relaxed))
    return 0;
  atomic_fetch_add_explicit(&w->pool->nwaking, 1, memory_order_relaxed);
  return 1;
}

static inline void pin(pool_worker *w, cacs__ptask *t) {
  t->home = w->pin; // `w`, or NULL if the pool lets running ones migrate
}

static inline pool_worker *home_of(const cacs__ptask *t) { return t->home; }

/// Runnable coroutines (pool_ready.c). Wake one idle worker of `p` if
/// there is one (every worker if `all`).
CACS_HIDDEN void cacs__pool_notify(cacs_pool *p, int all);
/// `t` may run; `w` is the calling thread's worker (NULL on other threads).
/// Never in `w`'s `next` (the caller a CES hand-off queues).
CACS_HIDDEN void cacs__pool_ready_on(pool_worker *w, cacs__ptask *t);
/// `t` may run, spawned or woken by the calling thread: woken by a
/// coroutine of a pool whose coroutines migrate, it runs next on the
/// caller's worker (pool_ready.c, run_next).
CACS_HIDDEN void cacs__pool_ready(cacs__ptask *t);
/// `t` yielded on `w`: runnable behind what is ready now.
CACS_HIDDEN void cacs__pool_yield_ready(pool_worker *w, cacs__ptask *t);
/// The next coroutine from the pool's shared queue, or NULL.
CACS_HIDDEN cacs__ptask *cacs__pool_inject_pop(cacs_pool *p);
/// On `w`, idle, in a default pool: a coroutine placed on another worker
/// that has run one coroutine too long without taking its placed ones
/// (PLACED_HOG_NS), or NULL.
CACS_HIDDEN cacs__ptask *cacs__pool_steal_placed(pool_worker *w);
/// When `w`, idle, must look at the placed coroutines it watches again
/// (cacs__pool_steal_placed), or 0.
CACS_HIDDEN uint64_t cacs__pool_watch_deadline(const pool_worker *w);
/// The bottom of `w`'s deque (its newest), or NULL; one not started yet
/// counts in `dq_starts`.
static inline cacs__ptask *cacs__pool_deque_take(pool_worker *w) {
  cacs__ptask *t = deque_take(&w->dq);
  if (t && !t->stk)
    ++w->dq_starts;
  return t;
}
/// White box, for tests: how many times worker `index` of the calling pool
/// coroutine's pool went to sleep (0 outside a pool), and, if `cpu_ns` is
/// not NULL, the CPU time its thread has used.
CACS_HIDDEN size_t cacs__pool_worker_sleeps(unsigned index, uint64_t *cpu_ns);
/// White box, for tests: how many claim-spins of worker `index` failed
/// (pool_worker.c, claim_judge).
CACS_HIDDEN size_t cacs__pool_worker_claim_fails(unsigned index);

/// On `w`, whose started coroutines stay home: the next of its coroutines
/// to run.
CACS_HIDDEN cacs__ptask *cacs__pool_take_home(pool_worker *w);
/// On `w`, whose coroutines migrate: the coroutine its running ones woke
/// last (its `next`), or NULL.
CACS_HIDDEN cacs__ptask *cacs__pool_take_next(pool_worker *w);
/// On `w`, idle: at `now`, watch another worker's `next`; returns when
/// `w` may take it (cacs__pool_steal_next), 0 if no worker has one (as in
/// a pool whose coroutines stay home).
CACS_HIDDEN uint64_t cacs__pool_next_watch(pool_worker *w, uint64_t now);
/// On `w`, about to sleep: when it must look at another worker's `next`
/// again, 0 if no worker has one.
CACS_HIDDEN uint64_t cacs__pool_next_sleep(pool_worker *w);
/// On `w`, idle: the `next` it watches, if it has waited there long
/// enough (cacs__pool_next_watch), else NULL.
CACS_HIDDEN cacs__ptask *cacs__pool_steal_next(pool_worker *w);
/// find_work's turn (pool_worker.c), the `turn`-th: the next coroutine of
/// a queue that `w` takes from only when the others are empty, or NULL.
CACS_HIDDEN cacs__ptask *cacs__pool_take_turn(pool_worker *w, unsigned turn);

/// The coroutine's side (pool_park.c): where a pool coroutine starts, on
/// its stack (cacs_context_init's entry; `arg` is its cacs__ptask).
CACS_HIDDEN void cacs__pool_task_main(void *arg, uint64_t first);
/// On `t`, just switched back in with `how` (RESUME_*) by a switch of the
/// coroutine's side (pool_park.c, pool_park_inline.h).
CACS_HIDDEN void cacs__pool_resumed(cacs__ptask *t, uint64_t how);
/// cacs__pool_resumed(t, RESUME_FROM_LOOP), for the waits that a hand-off
/// never resumes (pool_park_inline.h): it queues nothing.
CACS_HIDDEN void cacs__pool_resumed_from_loop(cacs__ptask *t);
/// The loop's side of cacs__pool_park, once `t` has switched out on `w`
/// (CMD_PARK): arm its timer, arm it for a wake, run the park's `after`,
/// give its vote, and return 0; or, if the timer cannot be armed, return
/// 1: `t` did not park (its park fails with ENOMEM) and the loop must run
/// it again at once.
CACS_HIDDEN int cacs__pool_parked(pool_worker *w, cacs__ptask *t);
/// Where a pool coroutine ends once its entry has returned: switch to the
/// worker loop for good (CMD_DONE). cacs__pool_task_main calls it; a
/// coroutine on an exact stack calls it from its worker's system stack
/// (cacs__pool_bounded_start, trampoline_<arch>.S).
__attribute__((noreturn)) CACS_HIDDEN void cacs__pool_task_end(cacs__ptask *t);

/// The worker loop (pool_worker.c). The worker the calling thread is, NULL
/// on other threads. Out of line on purpose: see there.
CACS_HIDDEN pool_worker *cacs__pool_worker(void);
/// A worker thread's body (pthread_create's; `arg` is its pool_worker).
CACS_HIDDEN void *cacs__pool_worker_main(void *arg);

/// Stacks (pool_stack.c). A stack for a coroutine `w` starts, from its
/// cache or newly allocated by `w`'s thread; NULL if no memory.
CACS_HIDDEN pool_stack *cacs__pstack_get(pool_worker *w);
/// An exact stack of `bytes` (cacs__exact_bytes) from `w`'s thread's slabs
/// (stack_exact.c), with no guard; NULL if no memory. Not cached by the
/// pool: the slab's free list is its cache.
CACS_HIDDEN pool_stack *cacs__pstack_get_exact(pool_worker *w, size_t bytes);
/// Give back the stack of a coroutine that finished on `w`: to `w`'s cache
/// (an exact one to its slab), or to the worker that allocated it.
CACS_HIDDEN void cacs__pstack_put(pool_worker *w, pool_stack *s);
/// Take into `w`'s cache the stacks other workers gave back to it.
CACS_HIDDEN void cacs__pstack_drain_remote(pool_worker *w);
/// Free every stack `w` holds (its thread ends).
CACS_HIDDEN void cacs__pstack_free_all(pool_worker *w);

/// Timers (pool_timer.c). Arm `t` (the running coroutine of `w`) for
/// `deadline`; -1 if no memory.
CACS_HIDDEN int cacs__ptimer_arm(pool_worker *w, cacs__ptask *t,
                                 uint64_t deadline);
/// Take `t` out of its worker's heap if it is still there (its wake won).
CACS_HIDDEN void cacs__ptimer_cancel(cacs__ptask *t);
/// Time out every coroutine of `w` whose deadline is <= now.
CACS_HIDDEN void cacs__ptimer_expire(pool_worker *w, uint64_t now);
/// The earliest deadline of `w`, or 0 if none.
CACS_HIDDEN uint64_t cacs__ptimer_next(pool_worker *w);
/// Let `t`, parked and won (token taken), run once it has switched out.
CACS_HIDDEN void cacs__ptask_vote(cacs__ptask *t);

/// The handles that may still be joined (pool_handles.c). Add `t` (a
/// joinable coroutine, at its spawn).
CACS_HIDDEN void cacs__phandle_add(cacs__ptask *t);
/// A join takes `t`: 1 if it may, 0 if another join took it first, -1 if
/// `t` is not a handle that may still be joined (nothing is read from it).
CACS_HIDDEN int cacs__phandle_claim(cacs__ptask *t);
/// Forget `t` (its join, before freeing it).
CACS_HIDDEN void cacs__phandle_remove(cacs__ptask *t);
/// The table's shape, for the tests (test/pool/pool-handle-scale.c): its
/// buckets and its longest chain.
CACS_HIDDEN void cacs__phandle_shape(size_t *buckets, size_t *longest);

/// The pools alive (pool_handles.c): add `p` (created); take it out (its
/// destroy), 0 if it was not there.
CACS_HIDDEN void cacs__ppool_add(cacs_pool *p);
CACS_HIDDEN int cacs__ppool_remove(cacs_pool *p);

/// The single-thread scheduler's side (sched.c): mark the calling thread a
/// pool worker, so that its waits refuse pool coroutines by name, and
/// record its loop's context `home`, where a coroutine on an exact stack
/// ends (cacs__pool_bounded_start).
CACS_HIDDEN void cacs__sched_enter_pool(cacs_context *home);

#endif // CACS_LIB_POOL_INTERNAL_H
