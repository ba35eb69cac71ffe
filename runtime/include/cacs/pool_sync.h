//===- cacs/pool_sync.h - Synchronization across pool workers ---*- C -*-===//
//
// Mutex, reader-writer lock, condition variable, counting semaphore, wait
// group and bounded channel for pool coroutines (cacs/pool.h) that run on
// different worker threads, and for plain threads beside them.
//
// Combine-and-exchange (CES, "Minimize Your Critical Path with
// Combine-and-Exchange Locks", Figure 6): a release that finds a waiter
// hands it the resource and *runs it at once on the releasing worker*; the
// releasing coroutine goes to that worker's queue, where any worker may
// take it (cacs__pool_handoff). Critical sections of a contended lock so
// run back to back on one worker with hot caches, and the parallel parts
// move to the other workers. A dispatch mutex (the paper's Figure 3:
// Boost.Fiber's, Tokio's) instead makes the next owner runnable and goes
// on, so the owner waits in a ready queue while nobody runs the critical
// section. Both are here (cacs_pool_mutex_init's `kind`) so they can be
// measured side by side (bench/locks). The semaphore, channel and wait
// group release CES-style too; the reader-writer lock takes a kind.
//
// In a default pool (cacs/pool.h: CACS_POOL_MIGRATE_UNSTARTED) a started
// coroutine runs only on its home worker, so CES runs the waiter in place
// only when the waiter's home is the releasing worker (then the releaser
// goes to that worker's own queue, not a stealable deque); a waiter homed
// on another worker is made runnable there, as dispatch would, and the
// releaser goes on. CES's back-to-back critical sections on one worker
// then need the contending coroutines to share a home; the parallel parts
// do not move. With CACS_POOL_MIGRATE_RUNNING, CES is as described above.
//
// The CES mutex barges where CES does not pay, as Go's sync.Mutex and
// glibc's mutex do: an uncontended lock and unlock are one atomic
// instruction each; a locker finding it held spins briefly (2 us at most,
// only in a pool of 2 workers or more, where the holder may be running;
// in a default pool only while the holder runs on another worker and no
// waiter is queued, so that the mutex stays on the worker its holders
// run on) before it parks; an unlock that finds a spinner, or a waiter already
// woken, just releases it, so a running coroutine takes it without a
// switch. An unlock hands it over (CES, run in place) only when nobody is
// about to take it and the hand-off costs no parallelism: the longest
// waiter may run on the releasing worker and either its stack is there
// (homed there; with CACS_POOL_MIGRATE_RUNNING, parked there) or another
// worker is idle and takes the releaser at once. Otherwise (every worker
// busy) a waiter is woken to compete and the releaser goes on, where a
// hand-off would queue the releaser and carry the waiter's stack across
// caches for each critical section: among the first few waiters, one on
// the releasing worker (homed or parked there), which runs once that
// worker is free, so the mutex and the data it guards stay on one worker
// while its coroutines keep taking it; else the longest waiter. In a
// default pool a waiter so woken that loses the race, while the holder
// runs on another worker and others wait, keeps its turn (it yields, its
// worker stays awake) rather than park to be woken again by the next
// unlock, a wake across workers at each critical section. A waiter
// that has waited over 1 ms, having lost a race or been passed over by
// coroutines that kept taking the mutex, makes every unlock hand it over,
// newcomers queueing (Go's starvation mode), until the queue drains: to
// the first few waiters on the releasing worker, back to back, while the
// longest waiter has waited at most 2 ms, else to the longest waiter, so
// that the workers take turns by batches instead of waking each other at
// each critical section; that bounds every wait. The dispatch
// mutex, and every other object
// here, hands the resource directly to the longest waiter (first come,
// first served; a newcomer cannot overtake a waiter). Exactly one
// waiter is run in place; when a release serves several (readers after a
// writer, a wait group reaching 0) the others are made runnable. Waiters
// with a timeout are always made runnable, never run in place: the
// releaser cannot otherwise know that a waiter whose timeout is firing
// still exists when it switches to it.
//
// Condition variables wake as Go's sync.Cond and pthread's do, not as the
// paper's rule: a signal makes the waiter runnable, and the waiter takes
// the mutex back as any locker (spinning briefly, then queueing), while
// the signaller runs on; moved onto the mutex's queue (the paper's rule),
// the waiter was handed the mutex at the signaller's unlock, and a bounded
// queue passed one item per switch (issue 37). A broadcast moves its
// waiters onto the mutex's queue, in order, rather than wake them all to
// fight for it. Neither ever switches the caller out.
//
// Who may call: a pool coroutine (it parks without blocking its worker) or
// a plain thread (it blocks in the kernel, on a futex). A coroutine of the
// single-thread scheduler (cacs/coro.h) blocks its whole thread when it
// waits here, and counts as its thread: a second coroutine of the thread
// locking a mutex the first holds fails with EDEADLK. Use the cacs/sync.h
// objects among one thread's coroutines.
//
// What a critical section may do (a pool mutex or rwlock held):
//   - compute, yield (cacs_pool_yield), sleep, wait on other objects of this
//     header, lock further mutexes (in one global order): the lock belongs
//     to the coroutine, not to the worker, so it stays held while the
//     coroutine is away and whichever worker resumes it may unlock it;
//   - not block the worker thread for long: a blocking system call, a
//     pthread mutex or a busy wait for another coroutine stalls every
//     coroutine queued on that worker, and with one worker it deadlocks;
//   - in a pool created with CACS_POOL_MIGRATE_RUNNING (in a default pool
//     a started coroutine never changes threads, and this does not apply),
//     not keep thread-local addresses across a lock, an unlock or any wait
//     here: each is a migration point. A contended lock resumes on the
//     worker of the coroutine that released the mutex, and a contended CES
//     unlock returns only after the waiter's turn, from the worker's queue,
//     on whichever worker takes it. `errno`, `__thread` variables and
//     pthread objects tied to a thread (a pthread_mutex_t locked before,
//     thread-specific data) after the call belong to the new thread.
//     Code built by cacs with -fcoroutine-migration re-reads thread-local
//     addresses after calls that may switch (test/pool/sync-timeout.c
//     reads a stale errno at -O2 without it); libcacs sets errno only
//     after the last switch.
// Enforced: unlocking a mutex (or write lock) the caller does not own
// fails with EPERM, and relocking one it owns with EDEADLK (the owner is
// the pool coroutine, or the plain thread); a condition wait by a non-owner
// fails with EPERM, and one on a condition variable that other waiters use
// with another mutex with EINVAL; a read unlock with no reader holding the
// lock, EPERM.
//
// Timeouts are in microseconds: CACS_POOL_FOREVER (any negative value)
// waits forever, 0 does not wait. A waiter handed the resource in the same
// instant its timeout expires gets it (returns 0). Calls return 0, or -1
// with errno set (runtime/README.md, "Errors"); each lists its errors.
//
// The objects are plain structs with static initializers; destroy one
// (simply drop it) only when no coroutine or thread is inside a call on it.
//
// Every call but a channel's creation and destruction (which allocate and
// free) carries the pool's wait stack budget (cacs/detail/contract.h,
// CACS_CONTRACT_POOL_WAIT_STACK_BUDGET), as the waits of cacs/pool.h do: a
// coroutine entry that locks, waits or sends keeps a stack bound
// (-fcacs-stack-bounds) and may run on an exact stack.
// test/pool/pool-sync-stack-budget.c measures them.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_POOL_SYNC_H
#define CACS_POOL_SYNC_H

#include "cacs/detail/contract.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Wait without a deadline.
#define CACS_POOL_FOREVER ((int64_t)-1)

/// A FIFO of waiters (private layout: the records live on the waiters'
/// stacks) and the spin lock that guards an object's state.
typedef struct cacs__pwaitq {
  struct cacs__pwaiter *head, *tail;
} cacs__pwaitq;

/// How a release hands a lock to the next waiter.
enum cacs_pool_lock_kind {
  /// Combine-and-exchange (the CES paper's Figure 6): the waiter runs now on
  /// the releasing worker, the releaser is queued. The default.
  CACS_POOL_LOCK_CES = 0,
  /// Dispatch (the paper's Figure 3): the waiter is made runnable and waits
  /// in a ready queue owning the lock; the releaser goes on.
  CACS_POOL_LOCK_DISPATCH = 1,
};

// --- Mutex ------------------------------------------------------------------

typedef struct cacs_pool_mutex {
  uint32_t state;    ///< held, waiters, starving, spinners (private)
  uint32_t spin;     ///< guards the waiters (private)
  uint32_t kind;     ///< enum cacs_pool_lock_kind
  uint32_t spun_out; ///< the last spin for it ran out (private)
  uint32_t passes;   ///< releases that left waiters queued (private)
  uint32_t woken_us; ///< when the waiter woken to compete queued (private)
  void *owner;       ///< the holder, NULL if none (private)
  cacs__pwaitq waiters;
} cacs_pool_mutex;
// clang-format off
#define CACS_POOL_MUTEX_INIT {0, 0, CACS_POOL_LOCK_CES, 0, 0, 0, NULL, {NULL, NULL}}
// clang-format on

/// Initialize `m`, unlocked, with the given release (`kind`).
/// \return 0, or -1 with errno EINVAL for an unknown kind.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_mutex_init(cacs_pool_mutex *m, unsigned kind);
/// Lock `m`, waiting up to the timeout. Contended, the caller resumes as
/// the owner on its home worker (a default pool), or (a pool with
/// CACS_POOL_MIGRATE_RUNNING) on the worker that released it (CES), or on
/// any worker.
/// \return 0, or -1 with errno set:
///   - ETIMEDOUT: another coroutine or thread held it until the timeout;
///   - EDEADLK: the caller owns it already;
///   - ENOMEM: the timer could not be armed.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_mutex_lock(cacs_pool_mutex *m, int64_t timeout_us);
/// Lock `m` if it is free.
/// \return 0, or -1 with errno EBUSY if it is held.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_mutex_trylock(cacs_pool_mutex *m);
/// Unlock `m`. With waiters and nobody spinning for it, CES hands `m` to
/// the longest waiter and runs it now on this worker if that pays (in a
/// default pool, a waiter homed on this worker; with
/// CACS_POOL_MIGRATE_RUNNING, one that parked on this worker, or any while
/// another worker is idle; else a waiter is woken to compete, one on this
/// worker first, and the caller goes on), and the caller returns
/// later, from the worker's queue, on another worker only with
/// CACS_POOL_MIGRATE_RUNNING; dispatch hands it over, makes the waiter
/// runnable and returns at once.
/// \return 0, or -1 with errno EPERM if the caller does not own it.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_mutex_unlock(cacs_pool_mutex *m);

// --- Reader-writer lock -------------------------------------------------
//
// Go's sync.RWMutex's structure: writers take a pool mutex among
// themselves (its barging, spinning, hand-offs and starvation bound), then
// mark the lock and wait for the readers in to leave; readers are a count
// beside it. Uncontended, a read lock and unlock are one atomic
// instruction each, a write lock and unlock two (the mutex's and the
// count's). A reader that finds a writer marked, or the writer that finds
// readers in, queues (it does not spin: measured, a spin made no
// difference). Only the writer that holds
// the mutex keeps readers out: writers waiting for the mutex do not.
// Phases: a writer's release grants every reader queued before the next
// writer gets the mutex, and that writer waits for them to leave, while
// readers that come after its mark queue for the phase after it. So a
// reader waits for at most one writer phase, and a writer for the writers
// ahead of it on the mutex (the mutex's bound) and one reader phase each.
// Releases as the paper's CES reader-writer mutex: CES runs one waiter
// granted in place, a waiter on this worker (as the mutex: in a default
// pool one homed here), and makes the others runnable; with a reader to
// run in place, the mutex goes to the next writer without a hand-off in
// place (it is woken to compete), so that writer never waits for a reader
// kept to run after it. A dispatch lock's mutex is a dispatch mutex, and
// it never spins.

typedef struct cacs_pool_rwlock {
  cacs_pool_mutex wmu; ///< serialises the writers (private)
  uint32_t state;      ///< writer marked, queued, readers (private)
  uint32_t spin;       ///< guards the waiters (private)
  uint32_t kind;       ///< enum cacs_pool_lock_kind
  void *writer;        ///< the writer holding or marking it (private)
  cacs__pwaitq waiters;
} cacs_pool_rwlock;
// clang-format off
#define CACS_POOL_RWLOCK_INIT \
  {CACS_POOL_MUTEX_INIT, 0, 0, CACS_POOL_LOCK_CES, NULL, {NULL, NULL}}
// clang-format on

/// \return 0, or -1 with errno EINVAL for an unknown kind.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_rwlock_init(cacs_pool_rwlock *rw, unsigned kind);
/// Take the lock shared, waiting up to the timeout (behind any writer
/// already waiting).
/// \return 0, or -1 with errno set:
///   - ETIMEDOUT: not granted before the timeout;
///   - ENOMEM: the timer could not be armed.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_rwlock_rdlock(cacs_pool_rwlock *rw, int64_t timeout_us);
/// Take the lock exclusive, waiting up to the timeout.
/// \return 0, or -1 with errno set:
///   - ETIMEDOUT: not granted before the timeout;
///   - EDEADLK: the caller holds it for writing already;
///   - ENOMEM: the timer could not be armed.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_rwlock_wrlock(cacs_pool_rwlock *rw, int64_t timeout_us);
/// Take the lock shared if no writer holds it or waits for its readers.
/// \return 0, or -1 with errno EBUSY.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_rwlock_tryrdlock(cacs_pool_rwlock *rw);
/// Take the lock exclusive if nobody holds it and no writer waits for its
/// readers (a free writers' mutex is taken as its trylock takes it, even
/// when a woken writer is on its way to it).
/// \return 0, or -1 with errno EBUSY.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_rwlock_trywrlock(cacs_pool_rwlock *rw);
/// Release a shared hold.
/// \return 0, or -1 with errno EPERM if no reader holds it.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_rwlock_rdunlock(cacs_pool_rwlock *rw);
/// Release the exclusive hold.
/// \return 0, or -1 with errno EPERM if the caller is not the writer.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_rwlock_wrunlock(cacs_pool_rwlock *rw);

// --- Condition variable -------------------------------------------------

typedef struct cacs_pool_cond {
  uint32_t spin;
  cacs_pool_mutex *mutex; ///< the waiters' mutex (private)
  cacs__pwaitq waiters;
} cacs_pool_cond;
// clang-format off
#define CACS_POOL_COND_INIT {0, NULL, {NULL, NULL}}
// clang-format on

/// Initialize `c` with no waiter. Never fails.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
void cacs_pool_cond_init(cacs_pool_cond *c);
/// Unlock `m`, wait for a signal, relock `m`: the caller owns `m` whenever
/// this returns, except for EPERM and EINVAL. Succeeds only when a signal
/// or broadcast chose this waiter; re-check the predicate anyway. `m` is
/// released dispatch-style (its next owner is made runnable) since the
/// caller parks right after.
/// \return 0, or -1 with errno set:
///   - ETIMEDOUT: no signal chose this waiter before the timeout;
///   - EPERM: the caller does not own `m`;
///   - EINVAL: other coroutines wait on `c` with another mutex;
///   - ENOMEM: the timer could not be armed.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_cond_wait(cacs_pool_cond *c, cacs_pool_mutex *m,
                        int64_t timeout_us);
/// Wake the longest waiter (no effect if none waits): make it runnable; it
/// then relocks the mutex as any locker does. The caller keeps running
/// (never switched out, not a migration point), with or without the mutex.
/// Never fails.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
void cacs_pool_cond_signal(cacs_pool_cond *c);
/// Wake every waiter, in the order they came: they join the mutex's queue
/// (the first becomes its owner, made runnable, if the mutex is free) and
/// are served one at a time by unlocks. The caller keeps running (never
/// switched out, not a migration point). Never fails.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
void cacs_pool_cond_broadcast(cacs_pool_cond *c);

// --- Counting semaphore -------------------------------------------------

typedef struct cacs_pool_sem {
  uint32_t spin;
  uint32_t state; ///< waiters woken to compete, starving (private)
  uint64_t count;
  cacs__pwaitq waiters;
} cacs_pool_sem;
// clang-format off
#define CACS_POOL_SEM_INIT(n) {0, 0, (n), {NULL, NULL}}
// clang-format on

/// Initialize `s` with `count` units. Never fails.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
void cacs_pool_sem_init(cacs_pool_sem *s, uint64_t count);
/// Take one unit, waiting up to the timeout.
/// \return 0, or -1 with errno ETIMEDOUT (no unit before the timeout) or
/// ENOMEM (the timer could not be armed).
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_sem_wait(cacs_pool_sem *s, int64_t timeout_us);
/// Take one unit if one is free (while waiters starve, units posted for
/// waiters already woken are theirs).
/// \return 0, or -1 with errno EAGAIN when no unit is free.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_sem_trywait(cacs_pool_sem *s);
/// Give one unit back. With waiters, as the mutex's unlock: the unit is
/// freed and a waiter woken to compete for it (one of the caller's
/// worker first), and a running coroutine may take it first; once a
/// waiter has waited over 1 ms, units are handed to waiters directly
/// (the longest waiter within 2 ms), run in the caller's place where that
/// pays. Never fails.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
void cacs_pool_sem_post(cacs_pool_sem *s);

// --- Wait group -------------------------------------------------------------

typedef struct cacs_pool_waitgroup {
  uint32_t spin;
  int64_t count;
  cacs__pwaitq waiters;
} cacs_pool_waitgroup;
// clang-format off
#define CACS_POOL_WAITGROUP_INIT {0, 0, {NULL, NULL}}
// clang-format on

/// Initialize `wg` with a counter of 0. Never fails.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
void cacs_pool_waitgroup_init(cacs_pool_waitgroup *wg);
/// Add `n` (may be negative) to the counter; when it reaches 0 every waiter
/// is woken (the longest one runs at once in the caller's place if the
/// caller is a pool coroutine). A counter below 0 aborts ("cacs: pool wait
/// group counter below 0").
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
void cacs_pool_waitgroup_add(cacs_pool_waitgroup *wg, int64_t n);
/// cacs_pool_waitgroup_add(wg, -1).
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
void cacs_pool_waitgroup_done(cacs_pool_waitgroup *wg);
/// Wait until the counter is 0.
/// \return 0, or -1 with errno ETIMEDOUT (not 0 before the timeout) or
/// ENOMEM (the timer could not be armed).
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_waitgroup_wait(cacs_pool_waitgroup *wg, int64_t timeout_us);

// --- Bounded channel ----------------------------------------------------
//
// A FIFO of fixed-size items copied in and out. Capacity 0 is a
// rendezvous. A send to a waiting receiver copies the item into the
// receiver's buffer and runs the receiver at once in the sender's place
// (CES) if the sender is a pool coroutine. After cacs_pool_chan_close,
// sends fail with EPIPE; receivers get the items still buffered, then
// EPIPE.

typedef struct cacs_pool_chan cacs_pool_chan;

/// A channel of `capacity` items of `item_size` bytes.
/// \return the channel, or NULL with errno set:
///   - EINVAL: `item_size` is 0 or the buffer's size overflows;
///   - ENOMEM: no memory.
cacs_pool_chan *cacs_pool_chan_create(size_t item_size, size_t capacity);
/// Free it.
/// \return 0, or -1 with errno EBUSY (nothing freed) while someone waits
/// on it.
int cacs_pool_chan_destroy(cacs_pool_chan *ch);
/// Copy item_size bytes from `item` into the channel.
/// \return 0, or -1 with errno set:
///   - ETIMEDOUT: no room (or, capacity 0, no receiver) before the timeout;
///   - EPIPE: the channel is closed (the item is not queued);
///   - ENOMEM: the timer could not be armed.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_chan_send(cacs_pool_chan *ch, const void *item,
                        int64_t timeout_us);
/// Copy the oldest item to `item`.
/// \return 0, or -1 with errno set:
///   - ETIMEDOUT: no item before the timeout;
///   - EPIPE: the channel is closed and empty;
///   - ENOMEM: the timer could not be armed.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_chan_recv(cacs_pool_chan *ch, void *item, int64_t timeout_us);
/// Close the channel and wake every waiter (they fail with EPIPE).
/// \return 0, or -1 with errno EPIPE if it was closed already.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_chan_close(cacs_pool_chan *ch);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_POOL_SYNC_H
