//===- lib/pool/pool_sync.c - CES locks and friends for the pool ---------===//
//
// cacs/pool_sync.h on the pool's parking contract (pool_park.h): the
// mutex, condition variable, reader-writer lock, semaphore and wait group,
// each a state guarded by a spin lock and a queue of waiter records
// (pool_waiter.h, which says how they are served and their lifetimes).
// The channel is pool_chan.c.
//
// errno is set by cacs__fail() (errors.h), out of line, after the last
// switch of a call: a call may resume on another worker, whose errno is
// another address.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "pool_tsan.h"
#include "pool_waiter.h"

#include <limits.h>
#include <time.h>
#include <unistd.h>

_Thread_local char cacs__pool_thread_marker;

// Out of line: from a shared object the marker's address is a call; and
// preserving the caller's registers, so that the fast paths that may call
// it need no frame.
#if defined(__clang__) && (defined(__x86_64__) || defined(__aarch64__))
#define CACS_PRESERVE_MOST __attribute__((preserve_most))
#else
#define CACS_PRESERVE_MOST
#endif
__attribute__((noinline, cold)) CACS_PRESERVE_MOST static void *
thread_self(void) {
  return self_id(NULL);
}

// The caller's identity, for the fast paths that do not switch between
// reading it and using it (pool_park.h, cacs__pool_cur).
static inline void *self_now(void) {
  cacs__ptask *t = cacs__pool_cur;
  return __builtin_expect(t != NULL, 1) ? (void *)t : thread_self();
}

// The fast paths leave their rare cases to out-of-line functions of their
// own prototype with CACS_MUSTTAIL (internal.h), and need no frame.
// (Without it the optimizer, knowing such a function always returns 0,
// calls it and returns 0 itself.)

// --- mutex -------------------------------------------------------------------
//
// Barging or hand-off. The state word says whether the mutex is held
// (M_LOCKED), whether waiters are queued (M_QUEUED), whether a waiter
// starves (M_STARVING), whether a waiter woken to compete is on its way
// (M_WOKEN) and how many lockers spin for it (counted from M_SPIN1). An
// uncontended lock and unlock are one compare-and-swap each; the queue and
// its spin lock are touched only when someone waits.
//
// The rule, at a contended unlock: hand the mutex to the longest waiter
// and run it in place only where that costs no parallelism and moves no
// stack; otherwise release it and let running coroutines take it. So:
//   - a locker spinning for it (on another worker, where the holder runs:
//     spinning needs 2 workers; in a default pool only while nobody is
//     queued, see below) or a waiter already woken to compete will
//     take it within a cache miss: the unlock just releases (barging, as
//     Go's sync.Mutex and glibc's mutex do); a running coroutine that
//     comes back for it takes it too, without a switch;
//   - nobody spinning, the mutex CES, and a hand-off pays
//     (cacs__pool_handoff_pays): the head waiter's stack is in this
//     worker's cache (homed here in a default pool; parked here when
//     coroutines migrate), or a worker is idle and takes the releaser at
//     once: it is handed over and run in place (the CES paper's Figure 6),
//     critical sections back to back on one worker, the releaser queued;
//     that is where CES wins (long critical sections, many waiters parked,
//     workers idle);
//   - otherwise (every worker busy and the waiter parked on another one;
//     homed on another worker; timed; a plain thread) it is released and
//     a waiter woken to compete, one at a time (M_WOKEN). A hand-off
//     there would queue the releaser behind critical sections it starts
//     while no worker is free to take it, and pull the waiter's stack and
//     record across caches, once per critical section: with migrating
//     coroutines that was a convoy, every pair a switch and a migration
//     (issue 37: 2.1 M pairs/s at 0 ns against 16 M in a default pool).
//     The waiter woken is the first of the first LOCAL_LOOK whose hand-off
//     would pay (homed or parked on this worker), else the head: a local
//     one runs once this worker is free, so the mutex stays here, with
//     the data it guards in this cache, while this worker's coroutines
//     keep taking it, and the other worker's waiters stay parked until
//     the head starves (below), instead of being woken each time to pull
//     the mutex and the data across to their worker and back (Go's
//     semrelease readies the woken goroutine on the releaser's P for the
//     same reason; issue 37: 1.0 M pairs/s at 500 ns against Go's 1.6 M).
//     An untimed pool waiter is woken once the spin lock is dropped
//     (pool_waiter.h, "Lifetimes"), so lockers that queue meanwhile do not
//     wait behind the wake. For the same reason, in a default pool a
//     locker that finds waiters queued parks without spinning (unless it
//     was woken to compete): the mutex is then wanted faster than it is
//     freed, so a spinner gains no critical section; winning the race
//     against the releaser's worker, it only moves the mutex and its data
//     to its own worker, at each critical section, while parked it lets
//     the worker holding the mutex keep it (with migrating coroutines
//     an unlock runs such a waiter in place instead, and the spin stays).
//     And in a default pool a waiter woken to compete that loses the race
//     while the holder runs on another worker, others queued, keeps
//     M_WOKEN and its turn, yielding, rather than park again to be woken
//     again, across workers, by the next unlock (m_keep_turn);
//   - a waiter that has waited more than STARVE_NS sets M_STARVING: when
//     it loses a race after a wake, or when an unlock finds it at the head
//     of the queue that long (the unlock looks at each one that finds
//     waiters and nobody spinning, and at every PASS_LOOK-th release past
//     them: coroutines that never park, barging by turns, would otherwise
//     pass a waiter, or the woken one queued behind them, forever). Every
//     unlock then hands over, newcomers queue and running coroutines park,
//     until the queue empties or the head has waited less than STARVE_NS
//     (Go's starvation mode): to the first of the first LOCAL_LOOK waiters
//     on the releasing worker, run in place, while the head has waited at
//     most STRICT_NS, else to the head. Once every worker's coroutines
//     queue, first come first served alternates between the workers, and
//     each hand-off across waits for the other worker to wake (its
//     coroutines all wait: it sleeps), with the mutex held and idle; so
//     the waiters of one worker are served back to back, then, the
//     head's turn come, those of the next. The head's STRICT_NS bounds a
//     wait (test/pool/sync-mutex-starve*.c): every waiter ahead of one
//     queued before it and is served within STRICT_NS of that.
// A dispatch mutex (the paper's Figure 3) always hands over and never
// spins: it stays the reference the CES paper compares with.
enum {
  M_LOCKED = 1u,
  M_QUEUED = 2u,
  M_STARVING = 4u,
  M_WOKEN = 8u,
  M_SPIN1 = 16u,
};

// A waiter that lost the race after waiting this long makes the mutex
// hand over strictly (Go's bound, 1 ms).
#define STARVE_NS 1000000u
// Releases past queued waiters (a spinner or a woken waiter took it) between
// two looks at how long the head has waited: a look takes the spin lock and
// reads the clock.
#define PASS_LOOK 64u
// How long a locker spins for a held mutex before it parks: about the
// cost of parking and being woken across workers; a longer critical
// section is cheaper to wait for parked.
#define SPIN_NS 2000u
// Waiters an unlock looks at for one on its own worker to wake (the rule
// above): the queue's head is usually one of the few that lost a race.
#define LOCAL_LOOK 8u
// A starving mutex serves this worker's waiters first while its head has
// waited at most this long, the head itself after that (the rule above):
// what bounds a wait.
#define STRICT_NS CACS__POOL_MUTEX_TURN_NS
_Static_assert(STRICT_NS == 2 * STARVE_NS, "twice Go's starvation bound");
// How often a woken waiter keeping its turn (m_keep_turn) reads the state:
// each read takes the mutex's cache line from the holder's worker, whose
// next lock or unlock then misses; this rarely, the holder barely notices.
#define TURN_POLL_NS 8000u

int cacs_pool_mutex_init(cacs_pool_mutex *m, unsigned kind) {
  if (kind > CACS_POOL_LOCK_DISPATCH)
    return cacs__fail(EINVAL);
  memset(m, 0, sizeof *m);
  m->kind = kind;
  return 0;
}

static inline uint32_t m_state(cacs_pool_mutex *m) {
  return __atomic_load_n(&m->state, __ATOMIC_RELAXED);
}

static inline int m_cas(cacs_pool_mutex *m, uint32_t *old, uint32_t nw,
                        int order) {
  return __atomic_compare_exchange_n(&m->state, old, nw, 0, order,
                                     __ATOMIC_RELAXED);
}

static inline void *m_owner(cacs_pool_mutex *m) {
  return __atomic_load_n(&m->owner, __ATOMIC_RELAXED);
}

static inline void m_set_owner(cacs_pool_mutex *m, void *self) {
  __atomic_store_n(&m->owner, self, __ATOMIC_RELAXED);
}

// The uncontended release of a mutex its owner holds alone (no waiter,
// spinner or flag in the state): 1 if done, 0 if the slow path must
// release it (mutex_unlock_slow; the owner is already cleared). The fast
// path of cacs_pool_mutex_unlock and of the rwlock's write unlock.
static inline __attribute__((always_inline)) int
m_release_alone(cacs_pool_mutex *m) {
  m_set_owner(m, NULL);
  uint32_t s = M_LOCKED;
  return __builtin_expect(m_cas(m, &s, 0, __ATOMIC_RELEASE), 1);
}

// Spin while the mutex is held, at most SPIN_NS, and only while its
// holder may be running (cacs__pool_owner_may_run: in a default pool, on
// another worker; a holder of this worker cannot free it before this
// coroutine switches out, and the spin would only delay it and mark the
// mutex spun out); counted in the state so that an unlock leaves it to
// us. Returns 1 if it was seen free. A spin
// that runs out sets `spun_out` (beside the state, whose exact values the
// fast paths compare with), and lockers then spin only one time in 8 (a
// probe that clears it when it succeeds): when critical sections outlast
// the spin, spinning only takes a worker from the parallel parts.
static int m_spin(cacs_pool_mutex *m) {
  if (!cacs__pool_owner_may_run(m_owner(m)))
    return 0;
  uint64_t t0 = cacs__now_ns();
  int out = __atomic_load_n(&m->spun_out, __ATOMIC_RELAXED);
  if (out && ((t0 >> 10) & 7))
    return 0;
  __atomic_fetch_add(&m->state, M_SPIN1, __ATOMIC_RELAXED);
  int free = 0, stopped = 0;
  for (unsigned i = 1;; ++i) {
    cpu_relax();
    uint32_t s = m_state(m);
    if (s & M_STARVING)
      break;
    if (!(s & M_LOCKED)) {
      free = 1;
      break;
    }
    if (!(i & 31)) {
      if (cacs__now_ns() - t0 > SPIN_NS)
        break;
      // The holder switched out: not a critical section outlasting the
      // spin, so no mark.
      if ((stopped = !cacs__pool_owner_may_run(m_owner(m))))
        break;
    }
  }
  __atomic_fetch_sub(&m->state, M_SPIN1, __ATOMIC_RELAXED);
  if (out == free && !stopped)
    __atomic_store_n(&m->spun_out, !free, __ATOMIC_RELAXED);
  return free;
}

// Whether a locker may take the mutex in state `s`: it is free, and not
// starving, or starving and kept for the waiter woken to compete (`woken`:
// the caller is that waiter; see the rule above).
static inline int m_free_for(uint32_t s, int woken) {
  return !(s & M_LOCKED) && (!(s & M_STARVING) || woken);
}

// A waiter woken to compete whose spin ran out, in a default pool, while
// the holder runs on another worker and others are queued: rather than
// queue and park again, it keeps M_WOKEN and yields between rare looks at
// the state, until the mutex is free for it, its holder stops running, or
// the mutex starves (the rule above). Returns 1 if it saw the mutex free
// for it. Why: parked again, it is woken again at the holder's next
// unlock, a cross-worker wake (a system call while its worker sleeps) on
// the holder's path at every round of wake, lose and park, and each unlock
// meanwhile takes the spin lock and reads the clock; keeping M_WOKEN, the
// holder's unlocks just release (issue 37: the default pool behind Go at
// 500 ns-1 us). It yields, so its worker's other coroutines run; its
// worker would otherwise sleep. The bound is the starvation rule's: a
// look at an unlock sets M_STARVING once it has waited STARVE_NS, and the
// mutex is then kept for it, or handed to the queue's head.
static int m_keep_turn(cacs_pool_mutex *m) {
  uint64_t last = cacs__now_ns();
  for (;;) {
    for (unsigned i = 0; i < 32; ++i)
      cpu_relax();
    cacs__pool_yield();
    uint64_t now = cacs__now_ns();
    if (now - last < TURN_POLL_NS)
      continue;
    last = now;
    uint32_t s = m_state(m);
    if (m_free_for(s, 1))
      return 1;
    if ((s & M_STARVING) || !(s & M_QUEUED) ||
        !cacs__pool_owner_may_run(m_owner(m)))
      return 0;
  }
}

// A timed-out waiter leaves the queue; the last one out clears the flags
// that describe waiters.
static int cancel_mutex(void *obj, waiter *w) {
  cacs_pool_mutex *m = obj;
  q_remove(w->q, w);
  if (!m->waiters.head)
    __atomic_fetch_and(&m->state, ~(uint32_t)(M_QUEUED | M_STARVING),
                       __ATOMIC_RELAXED);
  return 1;
}

// Lock for `me` (a task or NULL) past the fast path; returns an error
// number. `woken`: the caller was woken to compete and still owns
// M_WOKEN; `since`: when it first queued (0: never); `keep_turn`: it may
// keep its turn once woken (m_keep_turn; the reader-writer lock's
// writers do not: see there).
static int mutex_lock_slow(cacs_pool_mutex *m, cacs__ptask *me,
                           int64_t timeout_us, int woken, uint64_t since,
                           int keep_turn) {
  void *self = self_id(me);
  if (!woken && m_owner(m) == self)
    return EDEADLK;
  int fifo = m->kind == CACS_POOL_LOCK_DISPATCH;
  int may_spin = !fifo && (!me || cacs__pool_workers() > 1);
  int spun = 0, starving = 0;
  uint64_t deadline = 0;
  for (;;) {
    uint32_t s = m_state(m);
    if (m_free_for(s, woken)) {
      uint32_t ns = (s | M_LOCKED) & ~(woken ? M_WOKEN : 0u);
      if (!(ns & M_QUEUED))
        ns &= ~(uint32_t)M_STARVING; // kept for us alone: served
      if (m_cas(m, &s, ns, __ATOMIC_ACQUIRE)) {
        m_set_owner(m, self);
        return 0;
      }
      continue;
    }
    if (may_spin && !spun && !(s & M_STARVING) &&
        (woken || !(s & M_QUEUED) || !cacs__pool_pinned())) {
      spun = 1;
      if (m_spin(m))
        continue;
      if (keep_turn && woken && me && timeout_us < 0 && cacs__pool_pinned() &&
          (m_state(m) & M_QUEUED) && m_keep_turn(m))
        continue;
    }
    if (timeout_us == 0)
      return ETIMEDOUT; // never queued: `woken` is 0
    if (timeout_us > 0 && !deadline)
      deadline = deadline_of(timeout_us);
    spin_lock(&m->spin);
    s = m_state(m);
    if (m_free_for(s, woken)) {
      spin_unlock(&m->spin);
      continue; // freed meanwhile: try again
    }
    uint32_t ns = (s | M_QUEUED) & ~(woken ? M_WOKEN : 0u);
    if (starving && (s & M_LOCKED))
      ns |= M_STARVING;
    if (!m_cas(m, &s, ns, __ATOMIC_RELAXED)) {
      spin_unlock(&m->spin);
      continue;
    }
    woken = 0;
    waiter w;
    w_init(&w, me, timeout_us);
    if (since) { // lost a race after a wake: back to the front (as Go)
      q_push_front(&m->waiters, &w);
    } else {
      q_push(&m->waiters, &w);
      since = cacs__now_ns();
    }
    w.since = since;
    spins sp = {&m->spin, NULL};
    if (me)
      cacs__pool_lock_wait(&m->owner);
    int r = wait_served(&w, &sp, deadline, cancel_mutex, m);
    if (me)
      cacs__pool_lock_wait(NULL);
    if (r != EAGAIN)
      return r; // 0: handed over, we are the owner already
    woken = 1;
    spun = 0;
    starving = starving || cacs__now_ns() - since > STARVE_NS;
  }
}

__attribute__((noinline)) static int mutex_lock_contended(cacs_pool_mutex *m,
                                                          int64_t timeout_us) {
  int r = mutex_lock_slow(m, cacs__pool_self(), timeout_us, 0, 0, 1);
  if (r == 0)
    ptsan_acquire(m);
  return ret(r);
}

// Taken on the fast path by a plain thread, or with TSan linked in.
__attribute__((noinline, cold)) static int lock_taken_rare(cacs_pool_mutex *m,
                                                           int64_t timeout_us) {
  (void)timeout_us;
  m_set_owner(m, self_now());
  ptsan_acquire(m);
  return 0;
}

// The fast paths: one compare-and-swap each, the owner word, and, for a
// pool coroutine in a program without TSan, no call and no frame; the
// rest is a tail call away.
int cacs_pool_mutex_lock(cacs_pool_mutex *m, int64_t timeout_us) {
  uint32_t z = 0;
  if (__builtin_expect(!m_cas(m, &z, M_LOCKED, __ATOMIC_ACQUIRE), 0))
    CACS_MUSTTAIL return mutex_lock_contended(m, timeout_us);
  cacs__ptask *t = cacs__pool_cur;
  if (__builtin_expect(!t || ptsan_linked(), 0))
    CACS_MUSTTAIL return lock_taken_rare(m, timeout_us);
  m_set_owner(m, t);
  return 0;
}

int cacs_pool_mutex_trylock(cacs_pool_mutex *m) {
  void *self = self_id(cacs__pool_self());
  uint32_t s = m_state(m);
  while (!(s & (M_LOCKED | M_STARVING)))
    if (m_cas(m, &s, s | M_LOCKED, __ATOMIC_ACQUIRE)) {
      m_set_owner(m, self);
      ptsan_acquire(m);
      return 0;
    }
  return cacs__fail(EBUSY);
}

// The first of the first LOCAL_LOOK waiters of `q` (its object's spin
// lock held) whose hand-off would pay (pool_park.h): its stack is in this
// worker's cache and it would run on this worker; `w` if none. Waiters
// woken already (W_WOKEN, a semaphore's) are not counted. The mutex's
// pick (the rule above) and the semaphore's.
static waiter *q_local_or(cacs__pwaitq *q, waiter *w) {
  waiter *l = q->head;
  for (unsigned k = 0; l && k < LOCAL_LOOK; l = l->next) {
    if (l->kind == W_WOKEN)
      continue;
    if (waiter_local(l))
      return l;
    ++k;
  }
  return w;
}

// Release `m`, held, its spin lock held: hand it to the head waiter or
// release it and wake a waiter to compete (the rule above). A waiter to
// run in place goes to *inplace (NULL: none may), an untimed pool waiter
// woken to compete to *later, for the caller to wake once it has dropped
// the spin lock (NULL: wake it now). The queue is read here, under the
// lock: the caller saw waiters in the state before taking it, and the last
// of them may have timed out and left meanwhile.
static void mutex_release_locked(cacs_pool_mutex *m, cacs__ptask **inplace,
                                 cacs__ptask **later) {
  waiter *w = m->waiters.head;
  uint32_t s = m_state(m);
  int fifo = (s & M_STARVING) || m->kind == CACS_POOL_LOCK_DISPATCH;
  // The head is handed the mutex in place (the rule above): served now,
  // however long it waited. Only where a waiter may be passed over, or a
  // starving mutex may end, is the clock read (a call of 60 ns on a
  // virtual machine's clock, inside the hand-over).
  int inplace_head = !fifo && w && !(s & (M_WOKEN | ~(M_SPIN1 - 1))) &&
                     inplace && inplace_pays(w);
  uint64_t now = !inplace_head && (w || (s & M_WOKEN)) ? cacs__now_ns() : 0;
  uint64_t waited = w && !inplace_head ? now - w->since : 0;
  if (!fifo && !inplace_head &&
      (waited > STARVE_NS ||
       ((s & M_WOKEN) &&
        (uint32_t)(now / 1000) -
                __atomic_load_n(&m->woken_us, __ATOMIC_RELAXED) >
            STARVE_NS / 1000))) {
    // Passed over too long (see the rule): strict hand-over from now on;
    // with nobody queued, the mutex is kept for the woken waiter.
    s = __atomic_or_fetch(&m->state, M_STARVING, __ATOMIC_RELAXED);
    fifo = 1;
  }
  if (!w || (!fifo && (s & (M_WOKEN | ~(M_SPIN1 - 1))))) {
    // Nobody queued any more (cancel_mutex cleared the flags), or a
    // spinner or a waiter already woken will take it: release only. A
    // starving mutex stays so only for a woken waiter to take it.
    uint32_t clear = M_LOCKED | (s & M_WOKEN ? 0u : (uint32_t)M_STARVING);
    __atomic_fetch_and(&m->state, ~clear, __ATOMIC_RELEASE);
    return;
  }
  if (!inplace_head && inplace && m->kind == CACS_POOL_LOCK_CES &&
      (!fifo || waited <= STRICT_NS)) {
    // To be woken to compete, or, starving, handed over in place: one of
    // this worker's first (the rule above).
    w = q_local_or(&m->waiters, w);
  }
  q_remove(&m->waiters, w);
  if (fifo || inplace_head) {
    // Hand over: held throughout; the flags follow the queue (M_STARVING
    // is set only under the spin lock: not set here unless `fifo`).
    uint32_t clear = 0;
    if (!m->waiters.head)
      clear = M_QUEUED | M_STARVING;
    else if (fifo && waited < STARVE_NS)
      clear = M_STARVING; // as Go: a waiter served in time ends it
    if (clear)
      __atomic_fetch_and(&m->state, ~clear, __ATOMIC_RELAXED);
    m_set_owner(m, w->self);
    serve(w, 0, inplace);
    return;
  }
  // Release, and wake the head to compete (it owns M_WOKEN now).
  __atomic_store_n(&m->woken_us, (uint32_t)(w->since / 1000), __ATOMIC_RELAXED);
  uint32_t ns;
  do {
    ns = (s & ~(uint32_t)M_LOCKED) | M_WOKEN;
    if (!m->waiters.head)
      ns &= ~(uint32_t)M_QUEUED;
  } while (!m_cas(m, &s, ns, __ATOMIC_RELEASE));
  serve(w, EAGAIN, later);
}

// Unlock `m`, held by the caller, past the fast path; `may_run`: a waiter
// it hands `m` over to may run in the caller's place (the rule above).
static int mutex_unlock_slow(cacs_pool_mutex *m, int may_run) {
  cacs__ptask *me = cacs__pool_self();
  uint32_t s = m_state(m);
  // Written by the owner only: ordered by the mutex itself.
  uint32_t passes = __atomic_load_n(&m->passes, __ATOMIC_RELAXED);
  int look = 0;
  if (s & (M_QUEUED | M_WOKEN)) {
    __atomic_store_n(&m->passes, passes + 1, __ATOMIC_RELAXED);
    look = (passes + 1) % PASS_LOOK == 0;
  }
  for (;;) {
    // Nobody queued, or someone about to take it: just release; but now
    // and then look at how long the waiters have waited (the rule above).
    int release =
        !look && (!(s & M_QUEUED) ||
                  (!(s & M_STARVING) && m->kind != CACS_POOL_LOCK_DISPATCH &&
                   (s & (M_WOKEN | ~(M_SPIN1 - 1)))));
    if (!release)
      break;
    // Starving with nobody queued or woken (no one left to serve): ends.
    uint32_t clear = M_LOCKED;
    if (!(s & (M_QUEUED | M_WOKEN)))
      clear |= M_STARVING;
    if (m_cas(m, &s, s & ~clear, __ATOMIC_RELEASE))
      return 0;
  }
  cacs__ptask *next = NULL, *later = NULL;
  int ces = m->kind == CACS_POOL_LOCK_CES && me && may_run;
  spin_lock(&m->spin);
  mutex_release_locked(m, ces ? &next : NULL, &later);
  spin_unlock(&m->spin);
  run_served(later, 0);
  run_served(next, 1);
  return 0;
}

__attribute__((noinline)) static int
mutex_unlock_contended(cacs_pool_mutex *m) {
  return mutex_unlock_slow(m, 1);
}

// Unlock `m`, checking that the caller holds it; `may_run` as
// mutex_unlock_slow's.
static int mutex_unlock_checked(cacs_pool_mutex *m, int may_run) {
  if (m_owner(m) != self_now())
    return cacs__fail(EPERM);
  m_set_owner(m, NULL);
  ptsan_release(m);
  uint32_t s = M_LOCKED;
  if (!m_cas(m, &s, 0, __ATOMIC_RELEASE))
    return mutex_unlock_slow(m, may_run);
  return 0;
}

// The unlock of a plain thread, of a caller that does not hold `m`, or
// with TSan linked in.
__attribute__((noinline, cold)) static int
mutex_unlock_rare(cacs_pool_mutex *m) {
  return mutex_unlock_checked(m, 1);
}

int cacs_pool_mutex_unlock(cacs_pool_mutex *m) {
  cacs__ptask *t = cacs__pool_cur;
  if (__builtin_expect(!t || ptsan_linked() || m_owner(m) != t, 0))
    CACS_MUSTTAIL return mutex_unlock_rare(m);
  if (!m_release_alone(m))
    CACS_MUSTTAIL return mutex_unlock_contended(m);
  return 0;
}

// --- condition variable ------------------------------------------------------
//
// A signal makes its waiter runnable, and the waiter then locks the mutex
// as any locker does (Go's sync.Cond, pthread's): the signaller goes on,
// never switched out, and the next owner is whoever takes the mutex first.
// The CES paper's rule instead moved the waiter onto the mutex's queue (or
// made it the owner of a free mutex and ran it in the signaller's place),
// so that it was never woken only to find the mutex held. But a signal
// under the lock then made the signaller's unlock hand the mutex over, and
// a bounded queue passed one item per wait and per switch, at one end
// (issue 37, bench/results/locks/cond-rw-41: 1,150 instructions per item,
// 1.0-1.3 M items/s against Go's 4.1 at 16 slots). Woken, the waiter spins
// briefly for a held mutex (its holder about to unlock) or queues for it,
// and the signaller's side runs on meanwhile, so the queue fills and
// drains in batches.
//
// A broadcast keeps the paper's rule, without the switch: its waiters
// join the mutex's queue in the order they came (the first becomes the
// owner if the mutex is free, made runnable), and unlocks serve them one
// at a time. They all want the one mutex: woken together, all but one
// would spin and queue for it anyway (a thundering herd), and queued they
// keep their order.

// A signalled waiter's result (wait_served): runnable, not the owner.
#define COND_SIGNALLED (-1)

void cacs_pool_cond_init(cacs_pool_cond *c) { memset(c, 0, sizeof *c); }

// A condition waiter's timeout: still on the condition's queue, it gives
// up; already moved to the mutex's queue (a broadcast), it waits on for
// the mutex, without a deadline.
static int cancel_cond(void *obj, waiter *w) {
  cacs_pool_cond *c = obj;
  if (w->q != &c->waiters)
    return 0;
  q_remove(w->q, w);
  if (!c->waiters.head)
    c->mutex = NULL;
  return 1;
}

// What a condition wait's park (cond_park) leaves to its caller: an error
// before it queued (`fail`), else wait_served's result and when it first
// queued on the mutex (a broadcast's waiter woken to compete).
typedef struct cond_parked {
  int r, fail;
  uint64_t since;
} cond_parked;

// The wait itself, in a frame of its own (its record and spin locks), gone
// before the caller relocks: the relock (mutex_lock_slow) may queue and
// park again, and a hand-off that resumes it queues the releaser below its
// park, so the two waits' frames stacked were past the budget (AArch64:
// cond_wait 192 + mutex_lock_slow 288 + wait_served 128 + the park 160 +
// the resume's queueing 80, 848 > 784; test/pool/pool-sync-stack-budget.c,
// "cond_wait relock").
__attribute__((noinline)) static cond_parked cond_park(cacs_pool_cond *c,
                                                       cacs_pool_mutex *m,
                                                       cacs__ptask *me,
                                                       int64_t timeout_us) {
  cond_parked p = {0, 0, 0};
  spins sp = {&c->spin, &m->spin};
  spins_lock(&sp);
  if (m_owner(m) != self_id(me)) {
    spins_unlock(&sp);
    p.fail = EPERM;
    return p;
  }
  if (c->mutex && c->mutex != m) {
    spins_unlock(&sp);
    p.fail = EINVAL;
    return p;
  }
  c->mutex = m;
  waiter w;
  w_init(&w, me, timeout_us);
  q_push(&c->waiters, &w);
  // Released without a hand-off in place: the caller parks right below.
  m_set_owner(m, NULL);
  ptsan_release(m);
  mutex_release_locked(m, NULL, NULL);
  p.r = wait_served(&w, &sp, deadline_of(timeout_us), cancel_cond, c);
  p.since = w.since;
  return p;
}

int cacs_pool_cond_wait(cacs_pool_cond *c, cacs_pool_mutex *m,
                        int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  cond_parked p = cond_park(c, m, me, timeout_us);
  if (p.fail)
    return cacs__fail(p.fail);
  if (p.r == 0) {
    ptsan_acquire(m);
    return 0; // served: a broadcast, or an unlock after it, made us owner
  }
  // Signalled, woken to compete for m (queued on it by a broadcast), or
  // timed out (or no timer): take the mutex back before returning.
  int woken = p.r == EAGAIN, lr;
  while ((lr = mutex_lock_slow(m, me, CACS_POOL_FOREVER, woken,
                               woken ? p.since : 0, 1)) == ENOMEM)
    ;
  (void)lr;
  ptsan_acquire(m);
  return woken || p.r == COND_SIGNALLED ? 0 : cacs__fail(p.r);
}

// A broadcast's waiter (`m`'s spin lock held): the mutex held (or kept
// for a starving waiter), it joins the mutex's queue, to be served by an
// unlock; free, it becomes the owner and is made runnable once the caller
// has dropped the spin locks (*later), not run in the caller's place.
static void cond_queue_on(cacs_pool_mutex *m, waiter *w, waiter **later) {
  uint32_t s = m_state(m);
  for (;;) {
    if (s & (M_LOCKED | M_STARVING)) {
      if (m_cas(m, &s, s | M_QUEUED, __ATOMIC_RELAXED)) {
        q_push(&m->waiters, w);
        w->since = cacs__now_ns();
        return;
      }
    } else if (m_cas(m, &s, s | M_LOCKED, __ATOMIC_ACQUIRE)) {
      m_set_owner(m, w->self);
      serve_later(w, 0, NULL, later);
      return;
    }
  }
}

static void cond_notify(cacs_pool_cond *c, int all) {
  spin_lock(&c->spin);
  waiter *w = q_pop(&c->waiters);
  if (!w) {
    spin_unlock(&c->spin);
    return;
  }
  waiter *later = NULL;
  if (all) {
    cacs_pool_mutex *m = c->mutex;
    spin_lock(&m->spin);
    do
      cond_queue_on(m, w, &later);
    while ((w = q_pop(&c->waiters)));
    spin_unlock(&m->spin);
  } else {
    serve_later(w, COND_SIGNALLED, NULL, &later);
  }
  if (!c->waiters.head)
    c->mutex = NULL;
  spin_unlock(&c->spin);
  wake_later(later);
}

void cacs_pool_cond_signal(cacs_pool_cond *c) { cond_notify(c, 0); }
void cacs_pool_cond_broadcast(cacs_pool_cond *c) { cond_notify(c, 1); }

// --- reader-writer lock ------------------------------------------------------
//
// Go's sync.RWMutex's structure (issue 37): writers are serialised by a
// pool mutex (`wmu`), which brings its rules for free (barging, spinning,
// CES hand-offs, the starvation bound: "The rule" above); readers are a
// count in a state word beside it, with the writer's mark (RW_WRITER: the
// writer that owns `wmu` is waiting for the readers in to leave, or holds
// the lock), and a queue, under the spin lock, of the readers that came
// while it was marked and of that writer while readers are in (RW_RQUEUED,
// RW_WQUEUED). So:
//   - a read lock is one compare-and-swap while no writer is marked, a
//     read unlock one unless it is the last reader out before a queued
//     writer; a write lock and unlock are one compare-and-swap each on the
//     mutex and on the state while nobody else holds it;
//   - only one writer at a time marks the lock, the one that owns `wmu`:
//     writers waiting for `wmu` do not keep readers out (a queued writer
//     did, before: the queue, once formed, stayed formed, every reader
//     parked behind some writer, each writer's release woke readers across
//     workers, and the lock ran at 1.4 M pairs/s at 0 ns, Go 31 M);
//   - a reader that finds the lock marked queues, and so does the writer,
//     marked, that finds readers in: neither spins. Spins of the mutex's
//     kind (SPIN_NS, damped) for both made no difference that runs could
//     tell (loaded, 64 and 4 tasks, 0-1000 ns, within 4 % either way:
//     bench/results/locks/rw-46/README.md); a worker left idle by a
//     waiter may still spin rather than sleep (cacs__pool_lock_wait);
//   - phases: a writer's release grants every reader queued before it
//     unlocks `wmu`, so the next writer, marking the lock, waits for them
//     to leave (a reader phase), and readers that come after its mark
//     queue for the next reader phase. A reader waits for at most one
//     writer phase (the one it found); a writer for the writers ahead of
//     it on `wmu` (the mutex's bound) and one reader phase each.
// Of the waiters granted, one runs in the releaser's place if that pays
// (inplace_pays, the mutex's rule); every other one is made runnable once
// the caller drops the spin lock (*later; NULL: now). With a reader to run
// in place, the release unlocks `wmu` without a hand-off in place
// (wrunlock_slow says why). A dispatch lock's mutex is a dispatch mutex,
// and it never spins.
//
// ThreadSanitizer (pool_tsan.h): the fast paths skip the spin lock, so
// the lock tells it its own edges on the state word's address: a writer's
// release to every later holder, a reader's (one byte further) to later
// writers only, so that readers are not ordered among themselves.
enum {
  RW_WRITER = 1u,
  RW_RQUEUED = 2u,
  RW_WQUEUED = 4u,
  RW_READER1 = 8u,
};

int cacs_pool_rwlock_init(cacs_pool_rwlock *rw, unsigned kind) {
  if (kind > CACS_POOL_LOCK_DISPATCH)
    return cacs__fail(EINVAL);
  memset(rw, 0, sizeof *rw);
  rw->kind = kind;
  rw->wmu.kind = kind;
  return 0;
}

static inline uint32_t rw_state(cacs_pool_rwlock *rw) {
  return __atomic_load_n(&rw->state, __ATOMIC_RELAXED);
}

static inline int rw_cas(cacs_pool_rwlock *rw, uint32_t *old, uint32_t nw,
                         int order) {
  return __atomic_compare_exchange_n(&rw->state, old, nw, 0, order,
                                     __ATOMIC_RELAXED);
}

static inline uint32_t rw_readers(uint32_t s) { return s / RW_READER1; }

static inline void *rw_writer(cacs_pool_rwlock *rw) {
  return __atomic_load_n(&rw->writer, __ATOMIC_RELAXED);
}

static inline void rw_set_writer(cacs_pool_rwlock *rw, void *self) {
  __atomic_store_n(&rw->writer, self, __ATOMIC_RELAXED);
}

// TSan's edges (above): taken as a writer (`writer`) or a reader.
static inline void rw_tsan_acquired(cacs_pool_rwlock *rw, int writer) {
  ptsan_acquire(&rw->state);
  if (writer)
    ptsan_acquire((char *)&rw->state + 1);
}

static inline void rw_tsan_released(cacs_pool_rwlock *rw, int writer) {
  ptsan_release(writer ? (void *)&rw->state : (char *)&rw->state + 1);
}

// Grant every reader queued (the spin lock held) and unmark the writer in
// one step: from then on readers go in on the fast path.
static void rw_grant_readers(cacs_pool_rwlock *rw, cacs__ptask **inplace,
                             waiter **later) {
  uint32_t n = 0;
  for (waiter *w = rw->waiters.head; w; w = w->next)
    n += w->kind == W_READER;
  uint32_t s = rw_state(rw);
  while (!rw_cas(rw, &s,
                 (s & ~(uint32_t)(RW_WRITER | RW_RQUEUED)) + n * RW_READER1,
                 __ATOMIC_RELEASE))
    ;
  waiter *w, *next;
  for (w = rw->waiters.head; w; w = next) {
    next = w->next;
    if (w->kind != W_READER)
      continue;
    q_remove(&rw->waiters, w);
    serve_later(w, 0, inplace_pays(w) ? inplace : NULL, later);
  }
}

// A timed-out waiter leaves: a reader, simply (RW_RQUEUED goes with the
// last); the marked writer, its queued mark with it (it unmarks the lock,
// granting the readers that queued behind its mark, once it runs:
// rw_unmark).
static int cancel_rw(void *obj, waiter *w) {
  cacs_pool_rwlock *rw = obj;
  q_remove(w->q, w);
  if (w->kind == W_WRITER) {
    __atomic_fetch_and(&rw->state, ~(uint32_t)RW_WQUEUED, __ATOMIC_RELAXED);
  } else if (!rw->waiters.head || (rw->waiters.head == rw->waiters.tail &&
                                   rw->waiters.head->kind == W_WRITER)) {
    __atomic_fetch_and(&rw->state, ~(uint32_t)RW_RQUEUED, __ATOMIC_RELAXED);
  }
  return 1;
}

// Queue `me` (the spin lock held, its flag set) as a `kind` and wait to be
// granted the lock. Its worker, idle meanwhile, spins while the lock's
// writer runs elsewhere (cacs__pool_lock_wait, as the mutex's waiters).
static int rw_wait(cacs_pool_rwlock *rw, cacs__ptask *me, int kind,
                   uint64_t deadline, int timed) {
  waiter w;
  w_init(&w, me, timed ? 0 : -1);
  w.kind = kind;
  q_push(&rw->waiters, &w);
  spins sp = {&rw->spin, NULL};
  if (me)
    cacs__pool_lock_wait(&rw->writer);
  int r = wait_served(&w, &sp, deadline, cancel_rw, rw);
  if (me)
    cacs__pool_lock_wait(NULL);
  return r;
}

// A read lock past the fast path: queue while a writer is marked (the
// rule above) for its release.
__attribute__((noinline)) static int rdlock_slow(cacs_pool_rwlock *rw,
                                                 int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  for (;;) {
    uint32_t s = rw_state(rw);
    if (!(s & RW_WRITER)) {
      if (rw_cas(rw, &s, s + RW_READER1, __ATOMIC_ACQUIRE))
        break;
      continue;
    }
    spin_lock(&rw->spin);
    s = rw_state(rw);
    if (!(s & RW_WRITER)) {
      spin_unlock(&rw->spin);
      continue;
    }
    if (timeout_us == 0) {
      spin_unlock(&rw->spin);
      return cacs__fail(ETIMEDOUT);
    }
    if (!rw_cas(rw, &s, s | RW_RQUEUED, __ATOMIC_RELAXED)) {
      spin_unlock(&rw->spin);
      continue;
    }
    int r = rw_wait(rw, me, W_READER, deadline_of(timeout_us), timeout_us >= 0);
    if (r)
      return cacs__fail(r);
    break;
  }
  rw_tsan_acquired(rw, 0);
  return 0;
}

int cacs_pool_rwlock_rdlock(cacs_pool_rwlock *rw, int64_t timeout_us) {
  uint32_t s = rw_state(rw);
  if (__builtin_expect((s & RW_WRITER) ||
                           !rw_cas(rw, &s, s + RW_READER1, __ATOMIC_ACQUIRE),
                       0))
    CACS_MUSTTAIL return rdlock_slow(rw, timeout_us);
  rw_tsan_acquired(rw, 0);
  return 0;
}

// The writer, owner of `wmu`, unmarks the lock (it gave up) and lets `wmu`
// go; returns `err` for the caller.
static int rw_unmark(cacs_pool_rwlock *rw, int err) {
  rw_set_writer(rw, NULL);
  waiter *later = NULL;
  spin_lock(&rw->spin);
  rw_grant_readers(rw, NULL, &later);
  spin_unlock(&rw->spin);
  wake_later(later);
  cacs_pool_mutex_unlock(&rw->wmu);
  return cacs__fail(err);
}

// A write lock past the fast path: take `wmu` (the mutex's rules), mark
// the lock, and queue for the last of the readers in to leave.
__attribute__((noinline)) static int wrlock_slow(cacs_pool_rwlock *rw,
                                                 int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  void *self = self_id(me);
  if (rw_writer(rw) == self)
    return cacs__fail(EDEADLK);
  uint64_t deadline = deadline_of(timeout_us);
  // The fast path may have taken `wmu` already. A writer woken to compete
  // for it that loses the race queues again rather than keep its turn
  // (m_keep_turn): measured, the turn cost here (issue 37, loaded, 10 %
  // writers, 4 tasks, 100 ns: 6.6 M pairs/s with it, 8.6 without; 64
  // tasks, 500 ns: 1.30, 1.45). Its premise is a holder about to unlock;
  // `wmu` is held through a whole reader phase, and the yields and polls
  // meanwhile only take CPU from the readers of that phase.
  if (m_owner(&rw->wmu) != self) {
    int r = mutex_lock_slow(&rw->wmu, me, timeout_us, 0, 0, 0);
    if (r)
      return cacs__fail(r);
    ptsan_acquire(&rw->wmu);
  }
  rw_set_writer(rw, self);
  uint32_t s = __atomic_fetch_or(&rw->state, RW_WRITER, __ATOMIC_ACQUIRE);
  if (rw_readers(s)) {
    spin_lock(&rw->spin);
    s = rw_state(rw);
    for (;;) {
      if (!rw_readers(s))
        break;
      if (timeout_us == 0) {
        spin_unlock(&rw->spin);
        return rw_unmark(rw, ETIMEDOUT);
      }
      if (rw_cas(rw, &s, s | RW_WQUEUED, __ATOMIC_RELAXED)) {
        int r = rw_wait(rw, me, W_WRITER, deadline, timeout_us >= 0);
        if (r == ETIMEDOUT || r == ENOMEM)
          return rw_unmark(rw, r);
        goto held; // the last reader out granted it
      }
    }
    spin_unlock(&rw->spin);
  }
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
held:
  rw_tsan_acquired(rw, 1);
  return 0;
}

int cacs_pool_rwlock_wrlock(cacs_pool_rwlock *rw, int64_t timeout_us) {
  // Both free: one compare-and-swap on each. `wmu` taken and readers in,
  // the slow path goes on from there.
  uint32_t z = 0;
  cacs__ptask *t = cacs__pool_cur;
  if (__builtin_expect(!t || ptsan_linked() ||
                           !m_cas(&rw->wmu, &z, M_LOCKED, __ATOMIC_ACQUIRE),
                       0))
    CACS_MUSTTAIL return wrlock_slow(rw, timeout_us);
  m_set_owner(&rw->wmu, t);
  if (__builtin_expect(!rw_cas(rw, &z, RW_WRITER, __ATOMIC_ACQUIRE), 0))
    CACS_MUSTTAIL return wrlock_slow(rw, timeout_us);
  rw_set_writer(rw, t);
  return 0;
}

int cacs_pool_rwlock_tryrdlock(cacs_pool_rwlock *rw) {
  uint32_t s = rw_state(rw);
  while (!(s & RW_WRITER))
    if (rw_cas(rw, &s, s + RW_READER1, __ATOMIC_ACQUIRE)) {
      rw_tsan_acquired(rw, 0);
      return 0;
    }
  return cacs__fail(EBUSY);
}

int cacs_pool_rwlock_trywrlock(cacs_pool_rwlock *rw) {
  if (cacs_pool_mutex_trylock(&rw->wmu) != 0)
    return -1; // EBUSY
  uint32_t z = 0;
  if (!rw_cas(rw, &z, RW_WRITER, __ATOMIC_ACQUIRE)) {
    cacs_pool_mutex_unlock(&rw->wmu);
    return cacs__fail(EBUSY);
  }
  rw_set_writer(rw, self_id(cacs__pool_self()));
  rw_tsan_acquired(rw, 1);
  return 0;
}

// The last reader out before the marked writer, queued: grant it (in
// place with CES, where that pays).
__attribute__((noinline)) static int rdunlock_slow(cacs_pool_rwlock *rw) {
  cacs__ptask *next = NULL;
  spin_lock(&rw->spin);
  uint32_t s = rw_state(rw);
  do {
    if (!rw_readers(s)) {
      spin_unlock(&rw->spin);
      return cacs__fail(EPERM);
    }
  } while (!rw_cas(rw, &s,
                   (s - RW_READER1) &
                       ~(uint32_t)(rw_readers(s) == 1 ? RW_WQUEUED : 0u),
                   __ATOMIC_RELEASE));
  if (rw_readers(s) == 1 && (s & RW_WQUEUED)) {
    waiter *w = rw->waiters.head;
    while (w->kind != W_WRITER)
      w = w->next;
    q_remove(&rw->waiters, w);
    serve(w, 0,
          rw->kind == CACS_POOL_LOCK_CES && inplace_pays(w) ? &next : NULL);
  }
  spin_unlock(&rw->spin);
  run_served(next, 1);
  return 0;
}

__attribute__((noinline, cold)) static int rw_eperm(cacs_pool_rwlock *rw) {
  (void)rw;
  return cacs__fail(EPERM);
}

int cacs_pool_rwlock_rdunlock(cacs_pool_rwlock *rw) {
  rw_tsan_released(rw, 0);
  uint32_t s = rw_state(rw);
  for (;;) {
    if (__builtin_expect(!rw_readers(s), 0))
      CACS_MUSTTAIL return rw_eperm(rw);
    // Other readers still in, or no writer queued: the caller just leaves.
    if (__builtin_expect(rw_readers(s) == 1 && (s & RW_WQUEUED), 0))
      CACS_MUSTTAIL return rdunlock_slow(rw);
    if (rw_cas(rw, &s, s - RW_READER1, __ATOMIC_RELEASE))
      return 0;
  }
}

// The write unlock past the fast path: readers queued (granted, one in
// place with CES where that pays, before `wmu` goes to the next writer),
// a plain thread, TSan, or a caller that does not hold it.
__attribute__((noinline)) static int wrunlock_slow(cacs_pool_rwlock *rw) {
  cacs__ptask *me = cacs__pool_self();
  if (rw_writer(rw) != self_id(me) || !(rw_state(rw) & RW_WRITER))
    return cacs__fail(EPERM);
  rw_set_writer(rw, NULL);
  rw_tsan_released(rw, 1);
  cacs__ptask *next = NULL;
  waiter *later = NULL;
  uint32_t s = RW_WRITER;
  if (!rw_cas(rw, &s, 0, __ATOMIC_RELEASE)) {
    spin_lock(&rw->spin);
    rw_grant_readers(rw, rw->kind == CACS_POOL_LOCK_CES ? &next : NULL, &later);
    spin_unlock(&rw->spin);
  }
  wake_later(later);
  // A reader kept to run here (`next`) runs only once this unlock returns:
  // a writer the unlock ran in our place would mark the lock and wait for
  // that reader, granted and counted in, held by this coroutine, queued
  // behind it (a wait of a whole time slice, while the worker has a
  // runnable reader). So with one, the next writer is woken to compete.
  mutex_unlock_checked(&rw->wmu, !next);
  run_served(next, 1);
  return 0;
}

// `wmu` with waiters or spinners: its release past the fast path (the
// caller cleared its owner). mutex_unlock_contended's, with the rwlock's
// type, for CACS_MUSTTAIL.
__attribute__((noinline)) static int
wmu_unlock_contended(cacs_pool_rwlock *rw) {
  return mutex_unlock_slow(&rw->wmu, 1);
}

int cacs_pool_rwlock_wrunlock(cacs_pool_rwlock *rw) {
  cacs__ptask *t = cacs__pool_cur;
  uint32_t s = RW_WRITER;
  if (__builtin_expect(!t || ptsan_linked() || rw_writer(rw) != t ||
                           !rw_cas(rw, &s, 0, __ATOMIC_RELEASE),
                       0))
    CACS_MUSTTAIL return wrunlock_slow(rw);
  rw_set_writer(rw, NULL);
  // `wmu`'s unlock without cacs_pool_mutex_unlock's checks, made above:
  // the writer (`t`, a pool coroutine, TSan absent) owns it. As the write
  // lock's fast path takes it: 7 instructions less a pair uncontended.
  if (!m_release_alone(&rw->wmu))
    CACS_MUSTTAIL return wmu_unlock_contended(rw);
  return 0;
}

// --- semaphore ---------------------------------------------------------------
//
// The mutex's rule with units (issue 37). A post frees its unit and wakes a
// queued waiter to compete for it (W_WOKEN), one of the first LOCAL_LOOK on
// the posting worker if there is one, and a coroutine that runs takes a
// free unit without queueing (barging); no more waiters are woken than
// units are free. A woken waiter stays queued, in its place: once it runs
// it takes a unit, or, none free, parks again where it was. Every
// PASS_LOOK-th post that wakes nobody looks at how long the head has
// waited, as a woken waiter that parks again does at its own wait; past
// STARVE_NS the semaphore starves (SEM_STARVING): posts then hand their
// units to queued waiters not woken (the first local one of the first
// LOCAL_LOOK while the first has waited at most STRICT_NS, else the first;
// run in place where that pays), and units posted while only woken
// waiters wait are kept for them (a coroutine that never parks would
// otherwise retake them forever while the woken one, homed on its worker,
// never runs), until the queue empties or a waiter is served within
// STARVE_NS (test/pool/sync-sem-starve.c). Handed to the head at every
// post, as before, a unit crossed to the other worker at nearly every post
// of a contended semaphore and every pair parked: 1.0 M pairs/s at 0 ns in
// the counter shape with 1 unit, Go 4.9 M; so, 21 M
// (bench/results/locks/sem-50).
// Everything is under the spin lock; `state` counts the woken waiters and
// the posts between two looks.
enum {
  SEM_STARVING = 1u << 31,
  SEM_PASS1 = 1u << 24,
  SEM_PASSES = (PASS_LOOK - 1) * SEM_PASS1,
  SEM_WOKEN = SEM_PASS1 - 1, // a count
};
_Static_assert((PASS_LOOK & (PASS_LOOK - 1)) == 0 && PASS_LOOK <= 64,
               "the posts between two looks fit their bits");

void cacs_pool_sem_init(cacs_pool_sem *s, uint64_t count) {
  memset(s, 0, sizeof *s);
  s->count = count;
}

// Whether a caller not woken for it may take a unit of `s` (its spin lock
// held): starving, the units free are kept for the woken waiters.
static int sem_free(const cacs_pool_sem *s) {
  uint32_t st = s->state;
  return s->count > (st & SEM_STARVING ? st & SEM_WOKEN : 0);
}

int cacs_pool_sem_wait(cacs_pool_sem *s, int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  spin_lock(&s->spin);
  if (sem_free(s)) {
    s->count--;
    spin_unlock(&s->spin);
    return 0;
  }
  if (timeout_us == 0) {
    spin_unlock(&s->spin);
    return cacs__fail(ETIMEDOUT);
  }
  waiter w;
  w_init(&w, me, timeout_us);
  w.since = cacs__now_ns();
  q_push(&s->waiters, &w);
  spins sp = {&s->spin, NULL};
  uint64_t deadline = deadline_of(timeout_us);
  for (;;) {
    int r = wait_served(&w, &sp, deadline, cancel_remove, s);
    if (r != EAGAIN)
      return ret(r); // 0: handed a unit
    // Woken to compete, still queued.
    spin_lock(&s->spin);
    s->state--;
    w.kind = 0;
    if (s->count) {
      s->count--;
      q_remove(&s->waiters, &w);
      spin_unlock(&s->spin);
      return 0;
    }
    if (cacs__now_ns() - w.since > STARVE_NS)
      s->state |= SEM_STARVING;
    __atomic_store_n(&w.served, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&w.futex, 0, __ATOMIC_RELAXED);
  }
}

int cacs_pool_sem_trywait(cacs_pool_sem *s) {
  spin_lock(&s->spin);
  int ok = sem_free(s);
  if (ok)
    s->count--;
  spin_unlock(&s->spin);
  return ok ? 0 : cacs__fail(EAGAIN);
}

// The first queued waiter of `s` not woken; NULL if none.
static waiter *sem_first(cacs_pool_sem *s) {
  waiter *w = s->waiters.head;
  while (w && w->kind == W_WOKEN)
    w = w->next;
  return w;
}

void cacs_pool_sem_post(cacs_pool_sem *s) {
  cacs__ptask *next = NULL, *woken = NULL;
  waiter *later = NULL;
  spin_lock(&s->spin);
  waiter *head = s->waiters.head;
  if (!head) {
    s->count++;
    s->state &= ~(uint32_t)SEM_STARVING;
    goto out;
  }
  waiter *first = sem_first(s);
  if (!(s->state & SEM_STARVING)) {
    if (first && (s->state & SEM_WOKEN) <= s->count) {
      // Free the unit and wake one to compete for it (serve() wakes a
      // timed waiter or a thread now, under the lock; a pool coroutine
      // without a timeout goes to `woken`, woken once the lock is
      // dropped). It stays queued.
      waiter *w = q_local_or(&s->waiters, first);
      s->count++;
      s->state++;
      w->kind = W_WOKEN;
      serve(w, EAGAIN, &woken);
      goto out;
    }
    // Every free unit has a waiter on its way: a pass, and now and then a
    // look at how long the head has waited.
    s->state = (s->state & ~(uint32_t)SEM_PASSES) |
               ((s->state + SEM_PASS1) & SEM_PASSES);
    if ((s->state & SEM_PASSES) || cacs__now_ns() - head->since <= STARVE_NS) {
      s->count++;
      goto out;
    }
    s->state |= SEM_STARVING;
  }
  if (!first) {
    // Only woken waiters: the unit is kept for them (cacs_pool_sem_wait).
    s->count++;
    goto out;
  }
  uint64_t now = cacs__now_ns();
  waiter *w =
      now - first->since <= STRICT_NS ? q_local_or(&s->waiters, first) : first;
  q_remove(&s->waiters, w);
  if (now - w->since < STARVE_NS)
    s->state &= ~(uint32_t)SEM_STARVING; // as Go: served in time
  // The unit passes to the waiter: in place where that pays (the objects'
  // rule, pool_waiter.h), else woken once the lock is dropped.
  serve_later(w, 0, inplace_pays(w) ? &next : NULL, &later);
out:
  spin_unlock(&s->spin);
  if (woken)
    cacs__pool_wake(woken);
  wake_later(later);
  run_served(next, 1);
}

// --- wait group ------------------------------------------------------------

void cacs_pool_waitgroup_init(cacs_pool_waitgroup *wg) {
  memset(wg, 0, sizeof *wg);
}

void cacs_pool_waitgroup_add(cacs_pool_waitgroup *wg, int64_t n) {
  spin_lock(&wg->spin);
  wg->count += n;
  if (wg->count < 0) {
    cacs__fatal("cacs: pool wait group counter below 0\n");
  }
  cacs__ptask *next = NULL;
  waiter *later = NULL;
  if (wg->count == 0) {
    waiter *w;
    while ((w = q_pop(&wg->waiters)))
      serve_later(w, 0, &next, &later);
  }
  spin_unlock(&wg->spin);
  wake_later(later);
  run_served(next, 1);
}

void cacs_pool_waitgroup_done(cacs_pool_waitgroup *wg) {
  cacs_pool_waitgroup_add(wg, -1);
}

int cacs_pool_waitgroup_wait(cacs_pool_waitgroup *wg, int64_t timeout_us) {
  cacs__ptask *me = cacs__pool_self();
  spin_lock(&wg->spin);
  if (wg->count == 0) {
    spin_unlock(&wg->spin);
    return 0;
  }
  if (timeout_us == 0) {
    spin_unlock(&wg->spin);
    return cacs__fail(ETIMEDOUT);
  }
  waiter w;
  w_init(&w, me, timeout_us);
  q_push(&wg->waiters, &w);
  spins sp = {&wg->spin, NULL};
  return ret(wait_served(&w, &sp, deadline_of(timeout_us), cancel_remove, wg));
}
