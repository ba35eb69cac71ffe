//===- cacs/sync.h - Synchronization between coroutines ---------*- C -*-===//
//
// Mutex, condition variable, counting semaphore, wait group and bounded
// channel for the coroutines of one thread, plus a semaphore and a channel
// that coroutines (and plain threads) of different threads share.
//
// Every wait takes a timeout in microseconds: CACS_FOREVER (any negative
// value) waits forever, 0 does not wait. Calls return 0, or -1 with errno
// set (runtime/README.md, "Errors"):
//   ETIMEDOUT  the timeout passed first (at once for timeout 0)
//   EPIPE      the channel is closed
//   EPERM      unlock / condition wait by a coroutine that does not own the
//              mutex; EDEADLK: locking a mutex the caller already owns
//   ENOMEM     a timer (or, for the shared objects, the thread's wake-up
//              descriptor) could not be set up
// Waiters are served first come, first served: a release hands the mutex,
// the semaphore unit or the channel item directly to the longest waiter,
// so a newcomer cannot overtake it. A waiter that is handed the resource
// in the same instant its timeout expires gets the resource (returns 0).
// A stray cacs_wake() of a waiting coroutine does not end the wait.
//
// The one-thread objects are plain structs (static initializers below); they
// must be used by the coroutines of a single thread, and destroyed (simply
// dropped) only when no coroutine waits on them. The shared objects
// (cacs_xsem, channels created with CACS_CHAN_SHARED) take a lock and wake
// waiters on other threads through the core's cross-thread inbox: the
// waiting thread's service coroutine sleeps on an eventfd the waker
// writes.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SYNC_H
#define CACS_SYNC_H

#include "cacs/coro.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// The calls that may wait bind as coro.h's waiting calls do (see
// cacs_yield there): the names and their addresses are the
// default-convention symbols, and a function-like macro of the same name
// sends a call to a preserve_none entry, so that -fauto-preserve-none
// reaches the code calling them. They have no _bp entries: for callers that
// would need one, calls stay calls of the default-convention symbols
// (CACS__WAIT_NO_BP_BIND).

/// A FIFO of waiting coroutines (private layout: the records live on the
/// waiters' stacks).
typedef struct cacs__waitq {
  struct cacs__waiter *head, *tail;
} cacs__waitq;

// --- Mutex ------------------------------------------------------------------

typedef struct cacs_mutex {
  cacs_coro *owner; ///< NULL: unlocked
  cacs__waitq waiters;
} cacs_mutex;
// clang-format off
#define CACS_MUTEX_INIT {NULL, {NULL, NULL}}
// clang-format on

/// Make `m` an unlocked mutex, as CACS_MUTEX_INIT does (zeroes it). Never
/// fails. Only while no coroutine holds `m` or waits on it.
void cacs_mutex_init(cacs_mutex *m);
/// Lock `m`, waiting up to the timeout.
/// \return 0, or -1 with errno set:
///   - ETIMEDOUT: another coroutine held it until the timeout;
///   - EDEADLK: the caller owns it already;
///   - ENOMEM: the timer could not be armed.
int cacs_mutex_lock(cacs_mutex *m, int64_t timeout_us);
/// Lock `m` if it is free.
/// \return 0, or -1 with errno EBUSY if a coroutine owns it.
int cacs_mutex_trylock(cacs_mutex *m);
/// Unlock `m`, handing it to the longest waiter.
/// \return 0, or -1 with errno EPERM if the caller does not own it.
int cacs_mutex_unlock(cacs_mutex *m);

// --- Condition variable -------------------------------------------------

typedef struct cacs_cond {
  cacs__waitq waiters;
} cacs_cond;
// clang-format off
#define CACS_COND_INIT {{NULL, NULL}}
// clang-format on

/// Make `c` a condition variable without waiters, as CACS_COND_INIT does
/// (zeroes it). Never fails. Only while no coroutine waits on `c`.
void cacs_cond_init(cacs_cond *c);
/// Unlock `m`, wait for a signal, relock `m` (also after a timeout: the
/// caller owns `m` whenever this returns, except for EPERM). Succeeds only
/// when a signal or broadcast chose this waiter; re-check the predicate
/// anyway (another coroutine may have changed it before the mutex came
/// back).
/// \return 0, or -1 with errno set:
///   - ETIMEDOUT: no signal chose this waiter before the timeout;
///   - EPERM: the caller does not own `m`;
///   - ENOMEM: the timer could not be armed.
int cacs_cond_wait(cacs_cond *c, cacs_mutex *m, int64_t timeout_us);
/// Wake the longest waiter (no effect if none waits).
void cacs_cond_signal(cacs_cond *c);
/// Wake every waiter, in the order they came (no effect if none waits).
/// Never fails; the woken relock the mutex one after the other.
void cacs_cond_broadcast(cacs_cond *c);

// --- Counting semaphore -------------------------------------------------

typedef struct cacs_sem {
  uint64_t count;
  cacs__waitq waiters;
} cacs_sem;
// clang-format off
#define CACS_SEM_INIT(n) {(n), {NULL, NULL}}
// clang-format on

/// Make `s` a semaphore holding `count` units, as CACS_SEM_INIT(count)
/// does. Never fails. Only while no coroutine waits on `s`.
void cacs_sem_init(cacs_sem *s, uint64_t count);
/// Take one unit, waiting up to the timeout.
/// \return 0, or -1 with errno ETIMEDOUT (no unit before the timeout) or
/// ENOMEM (the timer could not be armed).
int cacs_sem_wait(cacs_sem *s, int64_t timeout_us);
/// Take one unit if one is free.
/// \return 0, or -1 with errno EAGAIN when no unit is free.
int cacs_sem_trywait(cacs_sem *s);
/// Give one unit (to the longest waiter if any).
void cacs_sem_post(cacs_sem *s);

// --- Wait group -------------------------------------------------------------

typedef struct cacs_waitgroup {
  int64_t count;
  cacs__waitq waiters;
} cacs_waitgroup;
// clang-format off
#define CACS_WAITGROUP_INIT {0, {NULL, NULL}}
// clang-format on

/// Make `wg` a wait group with counter 0, as CACS_WAITGROUP_INIT does
/// (zeroes it). Never fails. Only while no coroutine waits on `wg`.
void cacs_waitgroup_init(cacs_waitgroup *wg);
/// Add `n` (may be negative) to the counter; when it reaches 0 every waiter
/// is woken. A counter below 0 aborts ("cacs: wait group counter below 0").
void cacs_waitgroup_add(cacs_waitgroup *wg, int64_t n);
void cacs_waitgroup_done(cacs_waitgroup *wg); ///< add(-1)
/// Wait until the counter is 0.
/// \return 0, or -1 with errno ETIMEDOUT (not 0 before the timeout) or
/// ENOMEM (the timer could not be armed).
int cacs_waitgroup_wait(cacs_waitgroup *wg, int64_t timeout_us);

// --- Bounded channel ----------------------------------------------------
//
// A FIFO of fixed-size items copied in and out with memcpy. Capacity 0 is a
// rendezvous: a send completes when a receiver takes the item. After
// cacs_chan_close, sends fail with EPIPE (the item is not queued; senders
// blocked at that moment get EPIPE too), and receivers get the items still
// buffered, then EPIPE.

typedef struct cacs_chan cacs_chan;

enum cacs_chan_flags {
  /// Usable by coroutines of any threads and by plain threads; waiters are
  /// woken across threads (see the top of this file).
  CACS_CHAN_SHARED = 1u << 0,
};

/// A channel of `capacity` items of `item_size` bytes.
/// \return the channel, or NULL with errno set:
///   - EINVAL: `item_size` is 0, `flags` has unknown bits, or the buffer's
///     size overflows;
///   - ENOMEM: no memory;
///   - errors of pthread_mutex_init (CACS_CHAN_SHARED).
cacs_chan *cacs_chan_create(size_t item_size, size_t capacity, unsigned flags);
/// Free it. A one-thread channel may be freed right after the send or
/// close that served its last waiter (a one-shot reply channel).
/// \return 0, or -1 with errno EBUSY (and nothing freed) while a coroutine
/// waits on it; for a shared channel also while a coroutine that a send,
/// receive or close served has not returned from its call yet (it takes
/// the channel's lock again).
int cacs_chan_destroy(cacs_chan *ch);
/// Copy item_size bytes from `item` into the channel.
/// \return 0, or -1 with errno set:
///   - ETIMEDOUT: no room (or, capacity 0, no receiver) before the timeout;
///   - EPIPE: the channel is closed (the item is not queued);
///   - ENOMEM: the timer or the wake-up descriptor could not be set up.
int cacs_chan_send(cacs_chan *ch, const void *item, int64_t timeout_us);
/// Copy the oldest item to `item`.
/// \return 0, or -1 with errno set:
///   - ETIMEDOUT: no item before the timeout;
///   - EPIPE: the channel is closed and empty;
///   - ENOMEM: the timer or the wake-up descriptor could not be set up.
int cacs_chan_recv(cacs_chan *ch, void *item, int64_t timeout_us);
/// Close the channel and wake every waiter.
/// \return 0, or -1 with errno EPIPE if it was closed already.
int cacs_chan_close(cacs_chan *ch);
/// Items buffered now (a snapshot for a shared channel). Never fails.
size_t cacs_chan_len(cacs_chan *ch);
/// The capacity given to cacs_chan_create. Never fails.
size_t cacs_chan_cap(const cacs_chan *ch);
/// The item size given to cacs_chan_create. Never fails.
size_t cacs_chan_item_size(const cacs_chan *ch);

// --- Shared semaphore: waking coroutines from other threads -------------
//
// cacs_xsem_post may be called from any thread, including one that never
// runs a coroutine, and from a coroutine; cacs_xsem_wait from any coroutine
// of any thread (a plain thread's own stack is its main coroutine). It is
// the way to wake a coroutine from another thread: the coroutine waits on
// a cacs_xsem, the other thread posts it. (There is no cross-thread
// cacs_wake(coro): the waker could not know that the coroutine still
// exists, or that it is still waiting for this.)

typedef struct cacs_xsem {
  pthread_mutex_t lock;
  cacs_sem sem;
} cacs_xsem;

/// \return 0, or -1 with errno set by pthread_mutex_init.
int cacs_xsem_init(cacs_xsem *s, uint64_t count);
/// No coroutine may wait on it, nor be still returning from a wait that a
/// post served (it takes the lock again): destroy it from the waiting side,
/// or once the waiter has told you it is done.
void cacs_xsem_destroy(cacs_xsem *s);
/// Take one unit, waiting up to the timeout.
/// \return 0, or -1 with errno ETIMEDOUT (no unit before the timeout) or
/// ENOMEM (the timer or the thread's wake-up descriptor could not be set
/// up).
int cacs_xsem_wait(cacs_xsem *s, int64_t timeout_us);
/// Take one unit if one is free.
/// \return 0, or -1 with errno EAGAIN when no unit is free.
int cacs_xsem_trywait(cacs_xsem *s);
/// Give one unit (to the longest waiter, on whichever thread). Never fails.
void cacs_xsem_post(cacs_xsem *s);

#include "cacs/detail/sync_bind.h"

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_SYNC_H
