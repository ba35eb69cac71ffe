//===- lib/pool/pool_worker.c - The worker loop: run, find work, idle -----===//
//
// A pool coroutine runs on a worker thread, switched to from the worker's
// loop (its `home` context) and back, with cacs_switch (cacs/switch.h): a
// coroutine that waits or yields switches home with a command (the value
// the switch carries), and the loop acts on it once the coroutine is fully
// switched out: queues it, runs the wait's `after` hook, frees its stack.
// Going through the loop costs one switch more than a direct switch between
// coroutines, and buys the property cacs__pool_park promises: nothing
// touches a coroutine's saved context before the switch that saved it has
// finished. The CES hand-off (cacs__pool_handoff) is the one direct switch,
// from the unlocker to the waiter: it keeps that property by leaving the
// unlocker's queuing to the waiter's side, which runs it once the switch
// has finished (cacs__pool_resumed()).
//
// Migration and thread-local storage: the pool's code (this file's,
// pool_park.c's, pool_ready.c's, pool.c's) runs on one worker, switches,
// and may continue on another. It never keeps a thread-local
// address across a switch: the worker is read through cacs__pool_worker,
// which is out of line and opaque to the optimizer (an empty asm that may
// write memory), so every call reads TPIDR_EL0 / %fs again; and errno is
// set through an out-of-line helper. (The alternative, building these
// sources with cacs's -fcoroutine-migration, would need the front door to
// build the runtime.)
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "pool_internal.h"

#include "../coro_layout.h"
#include "../sched.h"
#include "../stack_exact.h"
#include "../stack_internal.h"
#include "pool_fibers.h"
#include "pool_io.h"
#include "pool_spin.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/epoll.h>

static CACS_TLS pool_worker *tls_worker;
// tls_worker->cur, or NULL, for pool_sync.c's fast paths (pool_park.h).
CACS_TLS cacs__ptask *cacs__pool_cur;

// Out of line, and the asm "may write memory": no caller can reuse one
// call's result after a switch, and the TLS read happens on the thread that
// runs the call.
__attribute__((noinline)) pool_worker *cacs__pool_worker(void) {
  pool_worker *w = tls_worker;
  __asm__ volatile("" : "+r"(w) : : "memory");
  return w;
}

// Read by the SIGSEGV handler on this thread (internal.h): the coroutine
// it interrupted is `cur`, whichever worker allocated its stack.
const cacs_stack *cacs__pool_fault_stack(void) {
  pool_worker *w = tls_worker;
  cacs__ptask *t = w ? w->cur : NULL;
  return t && t->stk ? &t->stk->s : NULL;
}

// sysstack.c: the worker loop's saved stack pointer, on the worker
// thread's own stack, while a pool coroutine runs on this thread.
void *cacs__pool_system_sp(void) {
  pool_worker *w = tls_worker;
  return w && w->cur ? w->home.sp : NULL;
}

// Out of line (a caller in another file cannot keep the result across a
// switch) and reading the thread's worker directly: it is on every lock's
// fast path (pool_sync.c).
cacs__ptask *cacs__pool_self(void) {
  pool_worker *w = tls_worker;
  return w ? w->cur : NULL;
}

int cacs__pool_handoff_pays(cacs__ptask *u) {
  pool_worker *w = tls_worker;
  if (!w || !w->cur || u->pool != w->pool)
    return 0;
  pool_worker *h = home_of(u);
  if (h)
    return h == w; // a default pool: homed here, its stack is here
  if (u->parked_on == w)
    return 1;
  // Free to migrate but parked on another worker: only while another
  // worker runs no coroutine (idle, or waking up to look for work: the
  // counters miss the moments in between), to take the caller, queued by
  // the hand-off, at once.
  cacs_pool *p = w->pool;
  if (atomic_load_explicit(&p->nidle, memory_order_relaxed) > 0 ||
      atomic_load_explicit(&p->nspinning, memory_order_relaxed) > 0)
    return 1;
  for (unsigned i = 0; i < p->nworkers; ++i)
    if (&p->w[i] != w && !__atomic_load_n(&p->w[i].cur, __ATOMIC_RELAXED))
      return 1;
  return 0;
}

void cacs__pool_lock_wait(void *const *owner) {
  pool_worker *w = tls_worker;
  if (w && w->pin)
    w->lock_owner = owner;
}

// Whether a worker other than `w` runs `owner` now (a lock's owner word:
// compared with what the workers run, never read through).
static int runs_elsewhere(const pool_worker *w, const void *owner) {
  cacs_pool *p = w->pool;
  for (unsigned i = 0; i < p->nworkers; ++i)
    if (&p->w[i] != w && __atomic_load_n(&p->w[i].cur, __ATOMIC_RELAXED) ==
                             (const cacs__ptask *)owner)
      return 1;
  return 0;
}

// Worker `index` of the calling worker's pool, or NULL (for tests).
static pool_worker *worker_at(unsigned index) {
  pool_worker *w = tls_worker;
  return w && index < w->pool->nworkers ? &w->pool->w[index] : NULL;
}

size_t cacs__pool_worker_sleeps(unsigned index, uint64_t *cpu_ns) {
  pool_worker *v = worker_at(index);
  if (!v)
    return 0;
  struct timespec ts;
  if (cpu_ns && clock_gettime(v->cpuclock, &ts) == 0)
    *cpu_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
  return atomic_load_explicit(&v->nsleeps, memory_order_relaxed);
}

size_t cacs__pool_worker_claim_fails(unsigned index) {
  pool_worker *v = worker_at(index);
  return v ? atomic_load_explicit(&v->nclaim_fails, memory_order_relaxed) : 0;
}

int cacs__pool_owner_may_run(const void *owner) {
  pool_worker *w = tls_worker;
  if (!w || !w->cur || !w->pin || !owner)
    return 1;
  return runs_elsewhere(w, owner);
}

int cacs__pool_pinned(void) {
  pool_worker *w = tls_worker;
  return w && w->cur && w->pin;
}

unsigned cacs__pool_workers(void) {
  pool_worker *w = tls_worker;
  return w && w->cur ? w->pool->nworkers : 0;
}

// --- the worker loop --------------------------------------------------------

static void finish(pool_worker *w, cacs__ptask *t) {
  cacs_pool *p = w->pool;
  if (home_of(t)) // a default pool's count (pool_ready.c, place)
    counter_add(&w->nhomed, (size_t)-1);
  if (t->stk) {
    if (cacs__tsan_on() && t->stk->tsan_fiber) { // in the stack's block
      __tsan_destroy_fiber(t->stk->tsan_fiber);
      t->stk->tsan_fiber = NULL;
    }
    cacs__pstack_put(w, t->stk);
    t->stk = NULL;
  }
  if (t->detached) {
    free(t); // switched out for good: nothing refers to it any more
  } else {
    uint32_t old = atomic_exchange_explicit(&t->join_state, 2,
                                            memory_order_acq_rel);
    if (old == 1)
      cacs__pool_wake(t->joiner); // parked until this wake: `t` is alive
    else if (old == 3)
      futex_wake(&t->join_state, INT_MAX); // the address only: may be freed
  }
  if (atomic_fetch_sub_explicit(&p->live, 1, memory_order_acq_rel) == 1) {
    pthread_mutex_lock(&p->dlock);
    pthread_cond_broadcast(&p->dcond);
    pthread_mutex_unlock(&p->dlock);
  }
}

// A fresh context on an exact stack: no frame (coro_layout.h), the first
// switch lands in cacs__pool_bounded_start at the stack's top with the task
// in the base-pointer register, where the entry and its argument are.
_Static_assert(offsetof(cacs__ptask, entry) == CACS_PTASK_ENTRY,
               "coro_layout.h");
_Static_assert(offsetof(cacs__ptask, arg) == CACS_PTASK_ARG, "coro_layout.h");
static void bounded_init(cacs__ptask *t) {
  t->ctx.sp = t->stk->s.top; // 16-byte aligned (stack_exact.c)
  t->ctx.pc = (void *)&cacs__pool_bounded_start;
  t->ctx.bp = t;
  t->ctx.fp = t->ctx.pr = t->ctx.reserved = NULL;
}

static int start(pool_worker *w, cacs__ptask *t) {
  // The one rule (coro.c), with the pool's flags for a coroutine's.
  size_t exact = cacs__exact_bytes(t->entry, w->pool->stack_flags);
  if (exact) // without the start frame, which a pool coroutine has not
    exact -= CACS_BOUNDED_FRAME;
  if (!(t->stk =
            exact ? cacs__pstack_get_exact(w, exact) : cacs__pstack_get(w))) {
    if (t->detached) // no one to hand ENOMEM to
      cacs__fatalf("cacs: no memory for a detached pool coroutine's stack\n");
    t->error = ENOMEM;
    return -1;
  }
  // Its id in a stack overflow report (stack_overflow.c): unique in the pool.
  t->stk->s.owner_id = ++w->starts * w->pool->nworkers + w->index;
  pin(w, t);
  if (home_of(t))
    counter_add(&w->nhomed, 1);
  if (exact)
    bounded_init(t);
  else
    cacs_context_init(&t->ctx, t->stk->s.top, cacs__pool_task_main, t);
  if (cacs__tsan_on()) // a guarded stack (pool_internal.h, pool_stack)
    t->stk->tsan_fiber = __tsan_create_fiber(0);
  return 0;
}

static void run(pool_worker *w, cacs__ptask *t) {
  if (!t->stk && start(w, t) != 0) {
    finish(w, t);
    return;
  }
  // Read by other workers too (cacs__pool_handoff_pays).
  __atomic_store_n(&w->cur, cacs__pool_cur = t, __ATOMIC_RELAXED);
  ptsan_acquire(t);
  asan_to_coro(w, t);
  tsan_to_task(t);
  uint64_t cmd = cacs_switch(&w->home, &t->ctx, RESUME_FROM_LOOP);
  asan_back_home(w);
  t = w->cur; // not the one run if it handed off (cacs__pool_handoff)
  __atomic_store_n(&w->cur, cacs__pool_cur = NULL, __ATOMIC_RELAXED);
  switch (cmd) {
  case CMD_YIELD:
    ptsan_release(t);
    cacs__pool_yield_ready(w, t);
    break;
  case CMD_PARK:
    if (cacs__pool_parked(w, t)) {
      ptsan_release(t);
      run(w, t); // not parked: at once, before anything else here
    }
    break;
  case CMD_DONE:
    finish(w, t);
    break;
  }
}

static uint64_t rng_next(pool_worker *w) {
  w->rng ^= w->rng << 13;
  w->rng ^= w->rng >> 7;
  w->rng ^= w->rng << 17;
  return w->rng;
}

static cacs__ptask *steal(pool_worker *w) {
  cacs_pool *p = w->pool;
  unsigned n = p->nworkers;
  if (n < 2)
    return NULL;
  // Two rounds from a random victim: a lost race is worth another look.
  unsigned start = (unsigned)(rng_next(w) % n);
  for (unsigned round = 0; round < 2; ++round)
    for (unsigned i = 0; i < n; ++i) {
      pool_worker *v = &p->w[(start + i) % n];
      if (v == w)
        continue;
      cacs__ptask *t = deque_steal(&v->dq);
      if (t)
        return t;
    }
  return w->pin ? cacs__pool_steal_placed(w) : cacs__pool_steal_next(w);
}

// The io_uring engine (pool_io.h) is in libcacs_io, linked or not.
#pragma weak cacs__pool_ring_new
#pragma weak cacs__pool_ring_pass
#pragma weak cacs__pool_ring_busy
#pragma weak cacs__pool_ring_gather
#pragma weak cacs__pool_ring_free

static cacs__ptask *take_local(pool_worker *w) {
  cacs__ptask *t;
  if (w->pin)
    return cacs__pool_take_home(w);
  if ((t = cacs__pool_take_next(w)) || (t = cacs__pool_deque_take(w)) ||
      (t = cacs__pool_inject_pop(w->pool)))
    return t;
  return NULL;
}

static cacs__ptask *find_work(pool_worker *w) {
  cacs_pool *p = w->pool;
  cacs__ptask *t;
  if (atomic_load_explicit(&w->ntimers, memory_order_relaxed))
    cacs__ptimer_expire(w, cacs__now_ns());
  // Now and then a turn for the queues taken last (cacs__pool_take_turn,
  // pool_ready.c), so what the running coroutines keep waking cannot
  // starve them, and the descriptors (pool_io.c), unless a worker polls
  // them already: readiness is seen while every worker is busy.
  if (++w->tick % 61 == 0) {
    // What it polls goes behind what is ready (make_ready_on, pool_ready.c).
    w->behind = 1;
    int zero = 0;
    if (!w->ring && atomic_load_explicit(&p->io, memory_order_relaxed) &&
        !atomic_load_explicit(&p->poller, memory_order_relaxed) &&
        atomic_compare_exchange_strong_explicit(
            &p->poller, &zero, 1, memory_order_acquire, memory_order_relaxed)) {
      struct epoll_event ev[CACS__POOL_IO_EVENTS];
      int n = cacs__pool_io_wait_events(p, ev, 0, 0);
      atomic_store_explicit(&p->poller, 0, memory_order_release);
      if (n > 0)
        cacs__pool_io_dispatch(p, ev, n);
    }
    // The ring's pass (io_pool_uring.c): the requests queued since, and
    // the completions, while the worker's queues do not run dry.
    if (w->ring)
      cacs__pool_ring_pass(w->ring, 0, 0);
    w->behind = 0;
    if ((t = cacs__pool_take_turn(w, w->tick / 61)))
      return t;
  }
  if ((t = take_local(w)))
    return t;
  // Out of work: the ring's pass, before looking elsewhere; what it
  // makes runnable is on this worker's queues. Not when the ring gathers
  // completions: its blocking pass (idle_wait) takes them in one batch.
  if (w->ring && !cacs__pool_ring_gather(w->ring) &&
      cacs__pool_ring_pass(w->ring, 0, 0) > 0 && (t = take_local(w)))
    return t;
  if ((t = steal(w))) {
    // More may be waiting: let another idle worker look too.
    cacs__pool_notify(p, 0);
    return t;
  }
  return NULL;
}

// Work that other threads give `w` alone: its inbox, its placed coroutines
// (pool_ready.c, wake_worker: what a sleeping worker must look at after it
// announces its sleep).
static int own_work_visible(pool_worker *w) {
  return atomic_load_explicit(&w->inbox, memory_order_relaxed) ||
         atomic_load_explicit(&w->nplaced, memory_order_relaxed);
}

// When an idle `w` must wake by itself: its earliest timer, or a look at
// the placed coroutines it watches (cacs__pool_steal_placed); 0: never.
static uint64_t idle_deadline(pool_worker *w) {
  uint64_t a = cacs__ptimer_next(w), b = cacs__pool_watch_deadline(w);
  return !a || (b && b < a) ? b : a;
}

static int work_visible(cacs_pool *p) {
  if (atomic_load_explicit(&p->qlen, memory_order_relaxed))
    return 1;
  for (unsigned i = 0; i < p->nworkers; ++i)
    if (deque_nonempty(&p->w[i].dq))
      return 1;
  return 0;
}

// How long an idle worker keeps looking for work before it sleeps. Work
// made for a sleeping worker costs the worker that makes it a futex wake,
// and waits for the sleeper's wake-up. When that work is a lock's next
// owner, the mutex (pool_sync.c) is held meanwhile and no critical section
// runs: a CES hand-off queues the unlocker, whose wake of an idle worker
// is then paid inside the new owner's critical section (pool_park.c,
// cacs__pool_resumed()), and a waiter homed on a sleeping worker waits for its
// worker's wake-up. 50 us covers critical sections of 10 us and the
// switches around them.
#define IDLE_SPIN_NS 50000u
// How long while one of its coroutines waits in a mutex's queue and the
// mutex's owner runs on another worker (cacs__pool_lock_wait): the mutex
// comes to it within 2 ms (pool_sync.c, STRICT_NS), and found asleep, it
// cost the releaser a futex wake and the mutex, handed over, an idle
// wake-up: at 5-10 us critical sections, at every turn of the workers (32
// critical sections in the counter shape), 5-7 % of the throughput (issue
// 37, bench/results/locks/counter-45). An owner that stops running for
// IDLE_SPIN_NS (parked inside its critical section, say, on I/O) with the
// mutex still its own ends the spin: the worker sleeps as before.
#define LOCK_SPIN_NS CACS__POOL_MUTEX_TURN_NS

// A claim-spin (idle_spin: one that only a claimed worker's count allows)
// pauses only, no sched_yield, for up to CLAIM_SPIN_NS; it succeeds if it
// sees work within that, and fails if it sees it later (its thread lost
// the CPU meanwhile: a preemption, a time slice of another thread) or not
// at all. The answer it waits for is the claimed worker's, which on CPUs
// the pool has alone comes in a few microseconds (an item of the cond
// shape at one slot, the worker woken from its spin) to some tens (woken
// from a futex sleep); a spin that yields or is preempted instead waits a
// time slice where a futex wake would have run it at once, which
// collapsed the cond shape 25x with two busy loops on the two CPUs
// (bench/results/locks/cond-46).
#define CLAIM_SPIN_NS 30000u
// After CLAIM_FAILS_MAX failures in a row, one claim-spin in
// 2^CLAIM_FAILS_MAX probes whether the claim pays again.
#define CLAIM_FAILS_MAX 8u

// Whether this worker, idle, counts the workers a wake has claimed as
// running (claim_wake): as glibc's adaptive mutex sizes its spin by what
// its spins achieved, by what its claim-spins achieved. After a failure
// the claim counts for nothing (idle_spin's rule without it, as before
// claims) except at a probe, a claim-spin after 2^k - 1 skipped (k, the
// failures in a row): one that succeeds turns the claim back on. On CPUs
// the pool shares, a claim costs one failed spin now and then, not a time
// slice per item; on CPUs it has alone, a stray preemption costs one
// spin and the next probe turns the claim back on.
static int claim_gate(pool_worker *w) {
  if (!w->claim_fails)
    return 1;
  if (w->claim_skip) {
    --w->claim_skip;
    return 0;
  }
  return 1;
}

// A claim-spin's outcome, for claim_gate.
static void claim_judge(pool_worker *w, int ok) {
  if (ok) {
    w->claim_fails = 0;
    return;
  }
  counter_add(&w->nclaim_fails, 1);
  if (w->claim_fails < CLAIM_FAILS_MAX)
    ++w->claim_fails;
  w->claim_skip = (1u << w->claim_fails) - 1;
}

// idle_spin's rule: another worker of the `awake` (not asleep) runs
// coroutines, not counting this one and the `spinning`, and fewer than
// half of the awake spin.
static int may_spin(int awake, int spinning) {
  return awake - spinning - 1 >= 1 && 2 * spinning < awake;
}

// Nothing to run: look again, reading only, for up to IDLE_SPIN_NS before
// sleeping, but only while another worker runs coroutines (it may make
// work for this one: a pool all idle sleeps at once) and fewer than half
// the workers not asleep spin (Go's bound on its spinning threads). A
// worker that a wake has given work (claim_wake: asleep and not up yet,
// or spinning) counts as running while this worker's claim-spins pay
// (claim_gate): the waker, out of work next, spins for the answer rather
// than sleeps and pays a futex wake for it (the default pool's cond at
// one slot: 0.30 futex calls per item, 5.7x slower with them on an idle
// machine; bench/results/locks/cond-46). A spinning worker is not idle:
// cacs__pool_notify and wake_home leave it alone (no futex call), and it
// sees their work through the loads idle_wait rechecks after announcing
// itself, so sleeping after the spin loses no wake. It yields its CPU now
// and then (a claim-spin does not: CLAIM_SPIN_NS): on a machine with more
// runnable threads than CPUs it must not take the CPU of the worker that
// runs the lock's holder. Returns 1 if it saw work (or the pool's stop or
// a timer due), 0 if it ran out.
static int idle_spin(pool_worker *w) {
  cacs_pool *p = w->pool;
  int n = (int)p->nworkers;
  int awake = n - atomic_load_explicit(&p->nidle, memory_order_relaxed);
  int spinning = atomic_load_explicit(&p->nspinning, memory_order_relaxed);
  int claim = 0; // a claim-spin: only the claimed workers let it spin
  if (!may_spin(awake, spinning)) {
    int waking = atomic_load_explicit(&p->nwaking, memory_order_relaxed);
    int claimed = atomic_load_explicit(&p->nclaimspin, memory_order_relaxed);
    // With none claimed, the same question as above: no.
    if (!may_spin(awake + waking, spinning - claimed) || !claim_gate(w))
      return 0;
    claim = 1;
  }
  atomic_fetch_add_explicit(&p->nspinning, 1, memory_order_relaxed);
  atomic_store_explicit(&w->spinning, 1, memory_order_relaxed);
  uint64_t t0 = cacs__now_ns(), active = t0;
  const void *owner = NULL;
  int seen = 0;
  for (unsigned i = 1;; ++i) {
    cpu_relax();
    if (own_work_visible(w) || work_visible(p) ||
        atomic_load_explicit(&p->stop, memory_order_relaxed)) {
      seen = 1;
      break;
    }
    if (!(i & 63) && !claim)
      sched_yield();
    if (!(i & 15)) {
      uint64_t now = cacs__now_ns();
      if (claim && now - t0 > CLAIM_SPIN_NS)
        break;
      if (w->lock_owner) {
        // The mutex in use: its owner runs, or has changed.
        void *o = __atomic_load_n(w->lock_owner, __ATOMIC_RELAXED);
        if (o != owner || (o && runs_elsewhere(w, o)))
          active = now;
        owner = o;
      }
      if (now - active > IDLE_SPIN_NS || now - t0 > LOCK_SPIN_NS)
        break;
      uint64_t due = idle_deadline(w); // 0: none
      // Another worker's `next` that waited too long (pool_ready.c,
      // run_next): steal() takes it.
      uint64_t nd = cacs__pool_next_watch(w, now);
      if ((due && due <= now) || (nd && nd <= now)) {
        seen = 1;
        break;
      }
    }
  }
  if (claim)
    claim_judge(w, seen && cacs__now_ns() - t0 <= CLAIM_SPIN_NS);
  // 0: a wake claimed it and counted it in `nclaimspin` (claim_wake).
  if (!atomic_exchange_explicit(&w->spinning, 0, memory_order_relaxed))
    atomic_fetch_sub_explicit(&p->nclaimspin, 1, memory_order_relaxed);
  atomic_fetch_sub_explicit(&p->nspinning, 1, memory_order_relaxed);
  return seen;
}

// Nothing to run: sleep until notified or the earliest timer (see
// cacs__pool_notify, pool_ready.c).
// Once a coroutine has waited on a descriptor, one idle worker at a time
// sleeps in the pool's epoll_wait instead of the futex (pool_io.c), and
// wakes the coroutines whose descriptors became ready onto its own deque.
static void idle_wait(pool_worker *w) {
  cacs_pool *p = w->pool;
  uint32_t e = atomic_load_explicit(&p->epoch, memory_order_acquire);
  atomic_fetch_add_explicit(&p->nidle, 1, memory_order_seq_cst);
  int zero = 0;
  // A worker with requests in flight on its ring sleeps in it: their
  // completions come only there, and the wakes kick its eventfd.
  int ring = w->ring && cacs__pool_ring_busy(w->ring);
  int poll =
      !ring && !w->ring && atomic_load_explicit(&p->io, memory_order_acquire) &&
      atomic_compare_exchange_strong_explicit(
          &p->poller, &zero, 1, memory_order_acquire, memory_order_relaxed);
  if (poll)
    atomic_store_explicit(&p->poll_sleep, 1, memory_order_seq_cst);
  if (ring)
    atomic_fetch_add_explicit(&p->nring_sleep, 1, memory_order_seq_cst);
  // Its own inbox too (pool_ready.c's wake_home): announced, then looked at.
  atomic_store_explicit(&w->sleeping,
                        ring   ? SLEEP_RING
                        : poll ? SLEEP_POLL
                               : SLEEP_FUTEX,
                        memory_order_seq_cst);
  atomic_thread_fence(memory_order_seq_cst);
  struct epoll_event ev[CACS__POOL_IO_EVENTS];
  int n = 0;
  if (!work_visible(p) && !w->woken.head && !w->yielded.head &&
      !own_work_visible(w) &&
      !atomic_load_explicit(&p->stop, memory_order_acquire)) {
    cacs__pstack_drain_remote(w);
    counter_add(&w->nsleeps, 1);
    uint64_t deadline = idle_deadline(w);
    // Asleep, it still looks now and then at another worker's `next`
    // (pool_ready.c, run_next).
    uint64_t nd = cacs__pool_next_sleep(w);
    if (nd && (!deadline || nd < deadline))
      deadline = nd;
    if (ring)
      cacs__pool_ring_pass(w->ring, 1, deadline);
    else if (poll)
      n = cacs__pool_io_wait_events(p, ev, 1, deadline);
    else
      futex_wait_worker(p, w, e, deadline);
  }
  // Already SLEEP_NO: a wake claimed this worker (claim_wake).
  if (atomic_exchange_explicit(&w->sleeping, SLEEP_NO, memory_order_relaxed) ==
      SLEEP_NO)
    atomic_fetch_sub_explicit(&p->nwaking, 1, memory_order_relaxed);
  if (ring)
    atomic_fetch_sub_explicit(&p->nring_sleep, 1, memory_order_relaxed);
  if (poll) {
    atomic_store_explicit(&p->poll_sleep, 0, memory_order_relaxed);
    atomic_store_explicit(&p->poller, 0, memory_order_release);
  }
  atomic_fetch_sub_explicit(&p->nidle, 1, memory_order_relaxed);
  // Not idle any more: the wakes below notify only the other workers.
  if (n > 0)
    cacs__pool_io_dispatch(p, ev, n);
  if (ring)
    cacs__pool_ring_pass(w->ring, 0, 0);
}

void *cacs__pool_worker_main(void *arg) {
  pool_worker *w = arg;
  cacs_pool *p = w->pool;
  tls_worker = w;
  // Read by the other workers once `ready` is published (pool_ready.c,
  // cpu_ns); the wall clock if the thread has no CPU clock.
  if (pthread_getcpuclockid(pthread_self(), &w->cpuclock) != 0)
    w->cpuclock = CLOCK_MONOTONIC;
  cacs__sched_enter_pool(&w->home);
  // The overflow handler's own signal stack, also on a worker that never
  // allocates a stack but runs coroutines that migrate to it. Exact stacks
  // need it on every worker (pool.c waits for each to say).
  cacs_stack_install_overflow_handler();
  stack_t ss;
  if (sigaltstack(NULL, &ss) != 0 || (ss.ss_flags & SS_DISABLE))
    atomic_store_explicit(&p->no_altstack, 1, memory_order_relaxed);
  // Its io_uring ring, if asked for; the pool runs on epoll unless every
  // worker made one (known once all are ready).
  if (cacs__pool_ring_new && cacs__pool_ring_new(&w->ring) < 0)
    atomic_store_explicit(&p->ring_failed, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&p->ready, 1, memory_order_release);
  futex_wake(&p->ready, INT_MAX);
  if (w->ring) {
    for (uint32_t r; (r = atomic_load_explicit(
                          &p->ready, memory_order_acquire)) < p->nworkers &&
                     !atomic_load_explicit(&p->stop, memory_order_acquire);)
      futex_wait(&p->ready, r, 0);
    if (atomic_load_explicit(&p->ring_failed, memory_order_relaxed)) {
      cacs__pool_ring_free(w->ring);
      w->ring = NULL;
    }
  }
  if (cacs__tsan_on())
    w->tsan_home = __tsan_get_current_fiber();
  for (;;) {
    cacs__ptask *t = find_work(w);
    if (t) {
      run(w, t);
      continue;
    }
    if (atomic_load_explicit(&p->stop, memory_order_acquire))
      break;
    // A ring that gathers completions has requests to send: no spin.
    if ((w->ring && cacs__pool_ring_gather(w->ring)) || !idle_spin(w))
      idle_wait(w);
  }
  cacs__pstack_free_all(w);
  if (w->ring)
    cacs__pool_ring_free(w->ring);
  tls_worker = NULL;
  return NULL;
}
