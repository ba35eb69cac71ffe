//===- lib/pool/pool_park.h - Parking pool coroutines ------------*- C -*-===//
//
// The pool's internal contract with the synchronization primitives built on
// it (the thread-safe mutexes, condition variables, channels). Private to
// libcacs: no public header includes it. Fixed in the project's
// coordination notes; pool_park.c and pool_worker.c implement it.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_POOL_PARK_H
#define CACS_LIB_POOL_PARK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A pool coroutine's control block (opaque to the synchronization code).
typedef struct cacs__ptask cacs__ptask;

/// The calling pool coroutine; NULL when the caller is not a pool coroutine
/// (a plain thread, or a single-thread cacs_coro), or runs on a worker
/// outside any coroutine (an `after` hook).
cacs__ptask *cacs__pool_self(void);

/// What cacs__pool_self() returns, as a thread-local variable of the worker
/// (NULL on other threads) for the synchronization objects' inline fast
/// paths: read it only where the caller cannot switch before using it (a
/// coroutine may resume on another worker; AArch64 compilers may keep the
/// thread pointer across calls). libcacs is a static library: one
/// %fs / tpidr_el0-relative load.
extern __thread cacs__ptask *cacs__pool_cur
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

/// Suspend the calling pool coroutine until cacs__pool_wake(t) or the
/// deadline. `after(arg)` (may be NULL) runs on the worker once the caller
/// is fully switched out (its registers and stack saved), so a waker that
/// found it in a wait queue may resume it at once, on any worker, without
/// racing its save: release the wait queue's spin lock there. The caller is
/// armed for a wake before `after` runs, so a wake from inside `after` is
/// not lost. deadline_ns: CLOCK_MONOTONIC ns (cacs__now_ns), 0 = none.
/// \return 0 (woken), ETIMEDOUT, or ENOMEM (the timer could not be armed;
/// then the caller did not park and `after` has not run).
int cacs__pool_park(void (*after)(void *), void *arg, uint64_t deadline_ns);

/// Make a parked pool coroutine runnable, from any thread or coroutine
/// (pool, single-thread, plain thread). Exactly one of wake and the
/// timeout wins: returns 1 if this call woke it, 0 if it had already been
/// woken or had timed out (then the caller must not count on it, e.g. a
/// mutex hands ownership to the next waiter instead). `t` must be parked
/// (or about to be: armed, its `after` not yet run) or have been woken by
/// this park already; a woken coroutine may run (and finish) as soon as
/// this returns 1.
int cacs__pool_wake(cacs__ptask *t);

/// CES (the CES paper's Figure 6): the caller (a pool coroutine) becomes
/// runnable on its worker (as cacs__pool_wake would make it: on the deque,
/// where any worker may steal it, or, pinned, on the worker's own queue)
/// and `t` (parked, woken by this call as cacs__pool_wake would; if that
/// wake loses the race, handoff degrades to a plain yield) runs now on
/// this thread with no trip through a queue: one switch, from the caller
/// straight to `t`; the caller is queued once that switch has finished. If
/// `t` may not run here (pinned to another worker, pool_internal.h's "Where a
/// coroutine may run"; or of another pool), or is still switching out on
/// another worker, it is made runnable as a wake would, and the caller
/// goes on without switching (a dispatch).
void cacs__pool_handoff(cacs__ptask *t);

/// Whether a CES hand-off to `t` (parked, so its home is fixed) pays: it
/// would run `t` at once on the caller's worker (the caller is a pool
/// coroutine, `t` belongs to the same pool and is not pinned to another
/// worker) without pulling `t`'s stack from another worker's cache while
/// every worker is busy. So: `t` is homed on the caller's worker (a
/// default pool), or may migrate and either parked on the caller's worker
/// or another worker runs no coroutine (idle, or between two), to take the
/// caller, queued by the hand-off, at once. Lets a releaser choose between a hand-off in
/// place and a release (pool_sync.c, "Barging or hand-off").
int cacs__pool_handoff_pays(cacs__ptask *t);

/// The longest a coroutine queued on a pool mutex waits for its turn once
/// the mutex starves (pool_sync.c, STRICT_NS), and so the longest an idle
/// worker spins for such a waiter (pool_worker.c, LOCK_SPIN_NS).
#define CACS__POOL_MUTEX_TURN_NS 2000000u

/// The calling pool coroutine queues (`owner`: the lock's owner word) or
/// stops waiting (NULL) for a lock. Where it may run only on its worker (a
/// default pool), that worker, idle, keeps spinning for up to 2 ms rather
/// than 50 us while the lock's owner runs on another worker (pool_worker.c,
/// idle_spin): the lock comes to it within a bounded time (pool_sync.c,
/// STRICT_NS), and finding the worker asleep would cost the releaser a futex
/// wake and the lock an idle wake-up. The lock must outlive the wait, as it
/// does its queued waiters. Nothing where coroutines migrate.
void cacs__pool_lock_wait(void *const *owner);

/// Whether the caller is a pool coroutine of a pool that keeps started
/// coroutines on their worker (no CACS_POOL_MIGRATE_RUNNING): there an
/// unlock cannot run a waiter of another worker in place, so a lock's
/// lockers park rather than spin once others queue (pool_sync.c).
int cacs__pool_pinned(void);

/// Whether `owner` (a lock's owner word: a pool coroutine, a thread's
/// marker, or NULL while it is being set) may run while the calling pool
/// coroutine spins for the lock: 0 only in a default pool (started
/// coroutines stay on their worker) when no other worker runs it, where
/// a holder homed on the caller's worker cannot run before the caller
/// switches out, and one homed on another worker waits for that worker
/// to finish what it runs; 1 where the caller cannot tell (NULL; a plain
/// thread calling) and with migrating coroutines, where a holder just
/// handed the lock may be taken by an idle worker at once. Compares
/// `owner` with what the workers run, never reads it: it may be gone.
int cacs__pool_owner_may_run(const void *owner);

/// The number of worker threads of the caller's pool; 0 when the caller is
/// not a pool coroutine. A waiter spins only when another worker may run
/// the holder meanwhile.
unsigned cacs__pool_workers(void);

/// The calling pool coroutine becomes runnable and the worker runs
/// something else: it goes to the pool's shared queue (a migration point;
/// see the 12:50 note in the contract), or, pinned to its worker, to the
/// worker's own queue, so it runs after what is ready now.
void cacs__pool_yield(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_LIB_POOL_PARK_H
