//===- lib/pool/pool_ready.c - Runnable coroutines: queues, wake-ups ------===//
//
// Where a coroutine goes when it may run (spawned, woken, yielded), and how
// the worker that will run it learns of it: a worker's deque and own
// queues, the pool's shared queue, a home's inbox (the rule of where a
// coroutine may run is pin and home_of, pool_internal.h), and the wake of
// an idle worker, on the futex or the poller's eventfd.
//
//===----------------------------------------------------------------------===//

#include "pool_internal.h"

#include "../sched.h"
#include "pool_io.h"

// The io_uring engine is in libcacs_io (pool_io.h): only a pool whose
// workers made rings, which needs it linked, has ring sleepers.
#pragma weak cacs__pool_ring_kick

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

// Wake one idle worker if there is one. Idle workers count themselves in
// `nidle` and then look at the queues again (pool_worker.c's idle_wait); this
// publishes work and then reads `nidle`. With a seq_cst fence on both sides
// (store buffering), one of the two sees the other: the sleeper finds the work,
// or this sees the sleeper and bumps `epoch`, which its futex wait compares. An
// idle worker may sleep in epoll_wait instead, as the pool's poller
// (pool_io.c): it counts in `nidle` too, and announces itself in `poll_sleep`
// before it looks at the queues; when the futex wake finds nobody to wake, this
// kicks the poller's eventfd (epoll_wait cannot wait on a futex, and a busy
// pool pays the futex wake alone, as before).
// Idle workers asleep in their io_uring rings (pool_worker.c, idle_wait):
// one (the first that this call takes out of SLEEP_RING), or all.
__attribute__((noinline, cold)) static void kick_ring_sleepers(cacs_pool *p,
                                                               int all) {
  for (unsigned i = 0; i < p->nworkers; ++i) {
    pool_worker *w = &p->w[i];
    if (claim_wake(w, SLEEP_RING)) {
      cacs__pool_ring_kick(w->ring);
      if (!all)
        return;
    }
  }
}

// The system calls of a wake (a futex wake; the eventfd write(2) of a
// poller's or a ring's kick, libc's) run on the thread's own stack
// (cacs__deep_call, internal.h), out of a pool coroutine's: resumed by a
// CES hand-off, a waiter of cacs/pool_sync.h queues the coroutine that
// handed off and wakes an idle worker for it right below its park
// (pool_park.c, resumed()), and the kick's frames (libc's write 48 bytes
// and more, the ring sleepers' scan 48, on x86-64) put its deepest waits
// past the wait budget (cacs/detail/contract.h: a write lock behind a
// writer 680 > 640, AArch64 864 > 784;
// test/pool/pool-sync-stack-budget-kick.c). Only where a worker sleeps,
// whose wake costs far more than the move. The argument: the pool, its
// low bit `all`.
static void notify_idle(void *arg) {
  cacs_pool *p = (cacs_pool *)((uintptr_t)arg & ~(uintptr_t)1);
  int all = (int)((uintptr_t)arg & 1);
  atomic_fetch_add_explicit(&p->epoch, 1, memory_order_release);
  long n = futex_wake(&p->epoch, all ? INT_MAX : 1);
  if ((n <= 0 || all) &&
      atomic_load_explicit(&p->poll_sleep, memory_order_relaxed) &&
      atomic_exchange_explicit(&p->poll_sleep, 0, memory_order_relaxed))
    cacs__pool_io_kick(p);
  if ((n <= 0 || all) &&
      atomic_load_explicit(&p->nring_sleep, memory_order_relaxed))
    kick_ring_sleepers(p, all);
}

void cacs__pool_notify(cacs_pool *p, int all) {
  atomic_thread_fence(memory_order_seq_cst);
  if (atomic_load_explicit(&p->nidle, memory_order_relaxed) > 0 || all)
    cacs__deep_call(notify_idle, (void *)((uintptr_t)p | (all != 0)));
}

// The FIFOs (pool_internal.h): a worker's own queues, on that worker only,
// and the shared queue, under its lock.
static void fifo_push(struct pool_fifo *q, cacs__ptask *t) {
  t->qnext = NULL;
  if (q->tail)
    q->tail->qnext = t;
  else
    q->head = t;
  q->tail = t;
}

static cacs__ptask *fifo_pop(struct pool_fifo *q) {
  cacs__ptask *t = q->head;
  if (t && !(q->head = t->qnext))
    q->tail = NULL;
  return t;
}

static void inject(cacs_pool *p, cacs__ptask *t) {
  pthread_mutex_lock(&p->qlock);
  fifo_push(&p->q, t);
  atomic_fetch_add_explicit(&p->qlen, 1, memory_order_relaxed);
  pthread_mutex_unlock(&p->qlock);
}

// inject() for a coroutine that a full deque turned away (or a worker's
// loop polling, `behind`), on the thread's own stack (cacs__deep_call):
// the lock's frames (libc's) are not below a waiter's park, where a
// hand-off queues the coroutine that handed off (see notify_idle).
static void inject_deep(void *t) {
  inject(((cacs__ptask *)t)->pool, (cacs__ptask *)t);
}
static void inject_overflow(cacs__ptask *t) { cacs__deep_call(inject_deep, t); }

cacs__ptask *cacs__pool_inject_pop(cacs_pool *p) {
  if (!atomic_load_explicit(&p->qlen, memory_order_relaxed))
    return NULL;
  pthread_mutex_lock(&p->qlock);
  cacs__ptask *t = fifo_pop(&p->q);
  if (t)
    atomic_fetch_sub_explicit(&p->qlen, 1, memory_order_relaxed);
  pthread_mutex_unlock(&p->qlock);
  return t;
}

// The first of `w`'s placed queue, under the pool's `qlock`.
static cacs__ptask *placed_pop(pool_worker *w) {
  cacs__ptask *t = fifo_pop(&w->placed);
  if (t)
    counter_add(&w->nplaced, (size_t)-1);
  return t;
}

// On `w`: its next placed coroutine, else the shared queue's next.
static cacs__ptask *take_spawned(pool_worker *w) {
  cacs_pool *p = w->pool;
  cacs__ptask *t = NULL;
  if (atomic_load_explicit(&w->nplaced, memory_order_relaxed)) {
    pthread_mutex_lock(&p->qlock);
    if ((t = placed_pop(w)))
      ++w->placed_pops;
    pthread_mutex_unlock(&p->qlock);
  }
  return t ? t : cacs__pool_inject_pop(p);
}

// On `w` only: move the inbox to `woken` in the order it came.
static void inbox_drain(pool_worker *w) {
  cacs__ptask *t =
      atomic_exchange_explicit(&w->inbox, NULL, memory_order_acquire);
  cacs__ptask *rev = NULL;
  while (t) {
    cacs__ptask *n = t->qnext;
    t->qnext = rev;
    rev = t;
    t = n;
  }
  while (rev) {
    cacs__ptask *n = rev->qnext;
    fifo_push(&w->woken, rev);
    rev = n;
  }
}

// On `w`, whose started coroutines stay home: the next of its coroutines
// to run. Woken ones first (the inbox moved to `woken` before), as the
// deque's bottom gives them first in a pool whose coroutines migrate (a
// spawned tree then finishes depth first, and its stacks are reused); the
// deque; yielded ones after it, behind what is ready now; the shared
// queue. What is taken only when all before it are empty gets a turn
// too (cacs__pool_take_turn). Out of line: a pool whose coroutines
// migrate pays one test for it.
__attribute__((noinline)) cacs__ptask *cacs__pool_take_home(pool_worker *w) {
  cacs__ptask *t;
  if (atomic_load_explicit(&w->inbox, memory_order_relaxed))
    inbox_drain(w);
  if ((t = fifo_pop(&w->woken)) || (t = cacs__pool_deque_take(w)) ||
      (t = fifo_pop(&w->yielded)))
    return t;
  return take_spawned(w);
}

// The turn of pool_worker.c's find_work, every 61 coroutines: one of the
// queues that the usual order reaches only once those before it are
// empty, each first in every third turn (`turn`): `w`'s yielded queue
// (pinned), the shared queue, the top of `w`'s deque (its oldest). The
// coroutines a worker runs may keep the places it looks at first full
// for ever: coroutines woken by timeouts that expire faster than the
// worker runs them kept `woken` from emptying, and a yield waited for as
// long as that lasted (test/pool/pool-park-wake.c's timeout mode: a token
// holder that yielded, starved by 39 waiters timing out every 3 us, took
// minutes); two coroutines that wake each other (a channel's ping-pong,
// or sleeps that expire at each turn of the loop) keep `woken` or the
// deque's bottom full, and a coroutine on the shared queue or under them
// on the deque never ran while they did (test/pool/pool-wake-fair.c).
// The deque's top only if no coroutine started off its bottom since its
// last turn: a spawned tree taken depth first starts one at least every
// few coroutines and must keep its order (test/pool/pool-depth-first.c:
// taking the top every third turn left 12 of its coroutines live, not
// 4), while wakes that only feed one another start none. The top is
// taken as a thief takes it: racing the others' steals, not this
// worker's own pushes and takes.
cacs__ptask *cacs__pool_take_turn(pool_worker *w, unsigned turn) {
  cacs__ptask *t = NULL;
  for (unsigned i = 0; i < 3 && !t; ++i)
    switch ((turn + i) % 3) {
    case 0:
      t = w->pin ? fifo_pop(&w->yielded) : NULL;
      break;
    case 1:
      t = w->pin ? take_spawned(w) : cacs__pool_inject_pop(w->pool);
      break;
    default:
      if (w->dq_starts == w->dq_starts_turn)
        t = deque_steal(&w->dq);
      w->dq_starts_turn = w->dq_starts;
      break;
    }
  return t;
}

// From any thread but `h`'s, once work for `h` alone is published (its
// inbox, its placed queue): wake `h` if it sleeps. Store buffering with
// idle_wait: this has published the work and reads `sleeping`, the idle
// worker publishes `sleeping` and reads its inbox and placed queue, a
// seq_cst fence on each side, so one of them sees the other. A worker
// asleep on the futex is woken by its bit (the epoch bump makes a wait
// that has not begun return at once); one asleep in epoll_wait by the
// eventfd (a counter: a kick before the wait is not lost). The wake claims
// a futex or ring sleeper, or a spinning `h` (claim_wake): the later wakes
// of a sleeper, whose work it sees once up, make no system call, and `h`
// counts as running at once, so that this worker, idle next, may spin for
// the work `h` will make rather than sleep too (pool_worker.c, idle_spin).
// `s`, how the worker sleeps, in the low bits of its (cache-line aligned)
// address: as cacs__pool_notify's wake, on the thread's own stack.
static void wake_asleep(void *arg) {
  pool_worker *h = (pool_worker *)((uintptr_t)arg & ~(uintptr_t)3);
  int s = (int)((uintptr_t)arg & 3);
  if (s == SLEEP_FUTEX) {
    if (claim_wake(h, s)) {
      atomic_fetch_add_explicit(&h->pool->epoch, 1, memory_order_release);
      futex_wake_worker(h->pool, h);
    }
  } else if (s == SLEEP_POLL) {
    cacs__pool_io_kick(h->pool);
  } else if (s == SLEEP_RING) {
    if (claim_wake(h, s))
      cacs__pool_ring_kick(h->ring);
  }
}

static void wake_worker(pool_worker *h) {
  _Static_assert(SLEEP_RING <= 3 && _Alignof(pool_worker) >= 4,
                 "wake_asleep's argument");
  atomic_thread_fence(memory_order_seq_cst);
  int s = atomic_load_explicit(&h->sleeping, memory_order_relaxed);
  if (s != SLEEP_NO)
    cacs__deep_call(wake_asleep, (void *)((uintptr_t)h | (uintptr_t)s));
  else
    claim_wake(h, s);
}

// From any thread but `h`'s: `t` (homed on `h`) may run. A Treiber push; `h`
// takes the whole stack at once, so there is no ABA.
static void wake_home(pool_worker *h, cacs__ptask *t) {
  cacs__ptask *head = atomic_load_explicit(&h->inbox, memory_order_relaxed);
  do
    t->qnext = head;
  while (!atomic_compare_exchange_weak_explicit(
      &h->inbox, &head, t, memory_order_release, memory_order_relaxed));
  wake_worker(h);
}

// Spawned from outside a default pool. On the shared queue, it would home
// on whichever worker took it first, and a worker that is not running at
// that moment (asleep, waking up, preempted, or running a long coroutine)
// takes none: on a loaded machine all 64 coroutines spawned by a
// benchmark's main often homed on one worker, for good
// (bench/results/locks/cond-rw-41/README.md, section 2). So it is placed
// now, on the worker with the fewest coroutines homed or placed there
// (ties spread over the workers), which is then woken for it alone: homes
// spread as spawns do, whichever worker runs first. Counting the placed
// ones makes a burst of spawns alternate before any has started; counting
// the homed ones sends a spawn to a worker whose coroutines finished.
// Scanning every worker is one load each (pools have as many workers as
// CPUs). The price, a placed coroutine waits for its worker as a started
// one does, is bounded: a worker that runs one coroutine too long without
// taking its placed ones loses them to an idle worker
// (cacs__pool_steal_placed); so a spawn that finds its worker running
// wakes an idle one to watch.
__attribute__((noinline)) static void place(cacs_pool *p, cacs__ptask *t) {
  unsigned n = p->nworkers;
  // Ties start from a Fibonacci hash of a counter, not the counter: a
  // round-robin start put every other spawn on the same worker, so a user
  // spawning a producer and a consumer in turn got all producers on one
  // worker and all consumers on the other, every item a cross-worker wake
  // (the cond shape: 2 futex waits per item under callgrind, not 0.08).
  uint64_t k =
      atomic_fetch_add_explicit(&p->place_next, 1, memory_order_relaxed);
  unsigned s = (unsigned)((k * 0x9E3779B97F4A7C15ull) >> 32) % n;
  pool_worker *h = NULL;
  size_t least = SIZE_MAX;
  unsigned i = s;
  do {
    pool_worker *v = &p->w[i];
    size_t load = atomic_load_explicit(&v->nhomed, memory_order_relaxed) +
                  atomic_load_explicit(&v->nplaced, memory_order_relaxed);
    if (load < least) {
      h = v;
      least = load;
    }
    if (++i == n)
      i = 0;
  } while (i != s);
  pthread_mutex_lock(&p->qlock);
  fifo_push(&h->placed, t);
  counter_add(&h->nplaced, 1);
  pthread_mutex_unlock(&p->qlock);
  // `t` may have run and been freed: only `h` from here on.
  wake_worker(h);
  if (__atomic_load_n(&h->cur, __ATOMIC_RELAXED))
    cacs__pool_notify(p, 0);
}

// When a worker's placed coroutines go to an idle worker: once it has
// run one coroutine for PLACED_HOG_NS of its thread's CPU time without
// taking them (a coroutine that never waits: a spin until another
// coroutine runs), or for PLACED_WALL_NS of wall-clock time (one blocked
// in a system call). CPU time, not wall-clock time, for the first: on a
// loaded machine the kernel keeps a worker off its CPU for tens of ms
// while it runs a coroutine (test/pool/pool-spawn-spread.c saw all 64 of
// a busy worker's placed coroutines taken by the other at 10 ms of wall
// time). 10 ms: the bound Go gives a goroutine before it preempts it.
#define PLACED_HOG_NS 10000000u
#define PLACED_WALL_NS 100000000u

// The CPU time of `v`'s thread, in ns.
static uint64_t cpu_ns(const pool_worker *v) {
  struct timespec ts;
  if (clock_gettime(v->cpuclock, &ts) != 0)
    return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

cacs__ptask *cacs__pool_steal_placed(pool_worker *w) {
  cacs_pool *p = w->pool;
  pool_worker *v = NULL;
  if (w->watch &&
      atomic_load_explicit(&w->watch->nplaced, memory_order_relaxed))
    v = w->watch;
  for (unsigned i = 0; i < p->nworkers && !v; ++i)
    if (&p->w[i] != w &&
        atomic_load_explicit(&p->w[i].nplaced, memory_order_relaxed))
      v = &p->w[i];
  if (!v) {
    w->watch = NULL;
    return NULL;
  }
  // The same coroutine running on `v` all along (not merely `v` not
  // running: asleep or preempted in its loop, it takes them as soon as it
  // runs) and no placed one taken.
  const cacs__ptask *cur = __atomic_load_n(&v->cur, __ATOMIC_RELAXED);
  uint64_t now = cacs__now_ns();
  cacs__ptask *t = NULL;
  pthread_mutex_lock(&p->qlock);
  if (cur && w->watch == v && w->watch_cur == cur &&
      w->watch_pops == v->placed_pops) {
    if (now >= w->watch_due) {
      uint64_t c = cpu_ns(v), ran = c > w->watch_cpu ? c - w->watch_cpu : 0;
      if (now - w->watch_since >= PLACED_WALL_NS || ran >= PLACED_HOG_NS) {
        t = placed_pop(v);
      } else { // at the earliest the hog could have run its bound
        uint64_t wall = w->watch_since + PLACED_WALL_NS;
        w->watch_due = now + (PLACED_HOG_NS - ran);
        w->watch_due = w->watch_due < wall ? w->watch_due : wall;
      }
    }
  } else {
    w->watch = v;
    w->watch_cur = cur;
    w->watch_pops = v->placed_pops;
    w->watch_since = now;
    w->watch_due = now + PLACED_HOG_NS;
    w->watch_cpu = cur ? cpu_ns(v) : 0;
  }
  pthread_mutex_unlock(&p->qlock);
  return t;
}

uint64_t cacs__pool_watch_deadline(const pool_worker *w) {
  return w->watch &&
                 atomic_load_explicit(&w->watch->nplaced, memory_order_relaxed)
             ? w->watch_due
             : 0;
}

// Started and pinned to `h`: on `h`'s own queue if the caller is `h` (it
// runs this code, and will look there), else in `h`'s inbox.
__attribute__((noinline)) static void
ready_at_home(pool_worker *w, pool_worker *h, cacs__ptask *t) {
  if (h == w)
    fifo_push(&w->woken, t);
  else
    wake_home(h, t);
}

// Go's runnext, in a pool whose coroutines migrate. A coroutine that a
// coroutine running on `w` wakes (a signal, an unlock, a send: the waits
// of cacs/pool_sync.h) runs next on `w`, in `w->next`, and for
// RUNNEXT_GRACE_NS no other worker takes it. On the deque (before), an
// idle worker, woken for it or spinning, took it at once: where the waker
// waits right after its wake (a bounded queue of one slot, whose producer
// signals and then waits for room; a ping-pong), every item crossed to
// the other worker and back, each crossing a futex wake of a worker that
// had gone to sleep and a migration of the stack (issue 37: 0.41 M items/s
// at one slot against Go's 2.57 M; bench/results/locks/cond-44). Kept
// here, the chain of wakes runs on one worker and the other sleeps.
// What bounds it: the idle workers are still notified as before, and one
// watches `next` (cacs__pool_next_watch, from its idle spin and before it
// sleeps) and takes a coroutine that has waited there RUNNEXT_GRACE_NS
// (the waker did not switch out: it runs on, and the woken one would wait
// for it; Go's thief waits 3 us before it takes a runnext); asleep with
// one there, it looks again after RUNNEXT_WATCH_NS at most. A coroutine
// woken while `next` is full pushes the one there onto the deque, where
// anyone may steal it at once (so two woken run in parallel). A
// ping-pong keeps `next` full as it kept the deque's bottom: what waits
// under it gets the turn of every 61 coroutines (cacs__pool_take_turn;
// pool-wake-fair.c). Not for a coroutine not started (a spawned tree keeps its
// depth-first deque, whose top idle workers steal at once), nor the one a
// CES hand-off queues (cacs__pool_ready_on: an idle worker should take it
// at once), nor wakes from the worker loop (timers, I/O, a join's end).
#define RUNNEXT_GRACE_NS 4000u
#define RUNNEXT_WATCH_NS 1000000u

static void run_next(pool_worker *w, cacs__ptask *t) {
  atomic_store_explicit(
      &w->next_seq,
      atomic_load_explicit(&w->next_seq, memory_order_relaxed) + 1,
      memory_order_relaxed);
  cacs__ptask *old =
      atomic_exchange_explicit(&w->next, t, memory_order_acq_rel);
  if (old && deque_push(&w->dq, old) != 0)
    inject_overflow(old);
}

cacs__ptask *cacs__pool_take_next(pool_worker *w) {
  if (!atomic_load_explicit(&w->next, memory_order_relaxed))
    return NULL;
  return atomic_exchange_explicit(&w->next, NULL, memory_order_acquire);
}

uint64_t cacs__pool_next_watch(pool_worker *w, uint64_t now) {
  if (w->pin) // a pool whose coroutines stay home puts none in `next`
    return 0;
  pool_worker *v = w->nx_v;
  if (v && atomic_load_explicit(&v->next, memory_order_relaxed) &&
      atomic_load_explicit(&v->next_seq, memory_order_relaxed) == w->nx_seq)
    return w->nx_since + RUNNEXT_GRACE_NS;
  w->nx_v = NULL;
  cacs_pool *p = w->pool;
  for (unsigned i = 0; i < p->nworkers; ++i) {
    v = &p->w[i];
    if (v != w && atomic_load_explicit(&v->next, memory_order_relaxed)) {
      w->nx_v = v;
      w->nx_seq = atomic_load_explicit(&v->next_seq, memory_order_relaxed);
      w->nx_since = now;
      return now + RUNNEXT_GRACE_NS;
    }
  }
  return 0;
}

// How long an idle worker that sleeps while another worker's `next` is
// full may sleep before it looks at it again (idle_wait).
uint64_t cacs__pool_next_sleep(pool_worker *w) {
  if (w->pin) // as in cacs__pool_next_watch, before the clock's read
    return 0;
  uint64_t now = cacs__now_ns();
  return cacs__pool_next_watch(w, now) ? now + RUNNEXT_WATCH_NS : 0;
}

cacs__ptask *cacs__pool_steal_next(pool_worker *w) {
  pool_worker *v = w->nx_v;
  if (!v)
    return NULL;
  // The same one still there (a coroutine put there again since counts
  // as another), long enough.
  cacs__ptask *t = atomic_load_explicit(&v->next, memory_order_relaxed);
  if (!t ||
      atomic_load_explicit(&v->next_seq, memory_order_relaxed) != w->nx_seq ||
      cacs__now_ns() - w->nx_since < RUNNEXT_GRACE_NS)
    return NULL;
  w->nx_v = NULL;
  if (!atomic_compare_exchange_strong_explicit(
          &v->next, &t, NULL, memory_order_acquire, memory_order_relaxed))
    return NULL;
  return t;
}

// `t` may run; `w` is the calling thread's worker (NULL on other threads).
// Woken by a coroutine running on `w` (`wake`), started and free to
// migrate: `w` runs it next (run_next).
// Not started, or free to migrate: on `w`'s deque if it is one of t's
// pool; else, in a default pool, placed on a worker (place), and in one
// whose coroutines migrate, on the shared queue; on the shared queue also while
// `w` polls in its turn
// (`behind`, pool_worker.c's find_work). The deque's bottom is taken
// first, and a turn finds about as many ready as the worker ran since the
// last (each served request brings the next): on the deque, each turn's
// would go on top of those ready before, which then never ran (an echo
// server on one worker left connections unanswered for seconds;
// test/pool/pool-io-fair.c). The shared queue is first in, first out, and
// read once the deque is empty. Started and pinned: at its home (its own
// queue, first in, first out, already). Inlined
// into its two callers (cacs__pool_ready and cacs__pool_ready_on), so that
// a pool whose coroutines migrate pays one load and branch for the rule.
static inline __attribute__((always_inline)) void
make_ready_on(pool_worker *w, cacs__ptask *t, int wake) {
  pool_worker *h = home_of(t);
  if (__builtin_expect(h != NULL, 0)) {
    ready_at_home(w, h, t);
    return;
  }
  cacs_pool *p = t->pool;
  if (w && w->pool == p) {
    if (wake && t->stk && w->cur)
      run_next(w, t);
    else if (w->behind || deque_push(&w->dq, t) != 0)
      inject_overflow(t);
  } else if (!p->migrate_running) {
    place(p, t);
    return;
  } else {
    inject(p, t);
  }
  cacs__pool_notify(p, 0);
}

void cacs__pool_ready(cacs__ptask *t) {
  make_ready_on(cacs__pool_worker(), t, 1);
}

// `t` yielded on `w`: behind what is ready now, on `w` if pinned, else on
// the shared queue (any worker).
void cacs__pool_yield_ready(pool_worker *w, cacs__ptask *t) {
  if (home_of(t)) {
    fifo_push(&w->yielded, t);
    return;
  }
  inject(w->pool, t);
  cacs__pool_notify(w->pool, 0);
}

void cacs__ptask_vote(cacs__ptask *t) {
  ptsan_release(t);
  if (atomic_fetch_add_explicit(&t->votes, 1, memory_order_acq_rel) == 1)
    cacs__pool_ready(t);
}

void cacs__pool_ready_on(pool_worker *w, cacs__ptask *t) {
  // A hand-off's (pool_park.c): `w` runs the caller, a coroutine of t's
  // pool. Its queueing runs below a waiter's park: no place(), no lock
  // but a full deque's (inject_overflow), on the paths compiled here.
  __builtin_assume(w != NULL && w->pool == t->pool);
  make_ready_on(w, t, 0);
}
