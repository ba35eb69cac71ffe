//===- cacs/pool.h - Coroutines over all cores (M:N pool) -------*- C -*-===//
//
// A pool of worker threads that run pool coroutines: stackful coroutines
// that any worker may start. By default a coroutine that has started stays
// on the worker that started it (its home) after every wait and yield, so
// code built by any compiler may keep errno's or a __thread variable's
// address across them; a pool created with CACS_POOL_MIGRATE_RUNNING
// (cacs_pool_create_ex) also moves (migrates) running coroutines from one
// worker to another whenever they wait or yield, for code built by cacs
// with -fcoroutine-migration. This is a module of its own: a program that
// never calls cacs_pool_create links none of it, and the single-thread
// scheduler of cacs/coro.h is unchanged by it.
//
// Scheduling: every worker has a work-stealing deque (Chase-Lev). A
// coroutine spawned by a pool coroutine goes on the bottom of that
// coroutine's worker's deque and the worker takes from the bottom (last in,
// first out: a spawned tree runs depth first); idle workers steal from the
// top of the others' deques. Spawns from outside the pool (a plain thread,
// a cacs_coro, another pool's coroutine) go to the pool's shared queue
// (first in, first out), which every worker reads when its deque is empty
// and in its turns (below); by default (CACS_POOL_MIGRATE_UNSTARTED) each
// is placed instead on the worker with the fewest coroutines started
// there and not finished or placed there (ties go round the workers), in
// a queue of its own read where the shared queue is, so that coroutines
// spawned from main spread over the workers, whichever runs first; an
// idle worker takes a placed coroutine from another only once that worker
// has run one coroutine for 10 ms of CPU time (or 100 ms of wall-clock
// time) without taking it. By default only
// coroutines that have not started sit in deques and those queues; a
// started coroutine woken
// on its home goes to the home's own queue of woken coroutines (first in,
// first out, read before its deque), one that yields to its queue of
// yielded ones (read after the deque), and one woken from any other thread
// to its home's inbox (moved to the woken queue), and that worker is woken.
// With CACS_POOL_MIGRATE_RUNNING, a coroutine woken by a pool coroutine
// runs next on the waker's worker, as Go's runnext: no other worker takes
// it for 4 us (then an idle one may), and one woken before it there and
// not yet run goes on the deque; one woken from outside the pool or that
// yields goes on the shared queue. Every 61 coroutines a worker takes its
// turn: one coroutine from the queues it reads last, each first in every third
// turn: its yielded queue, the shared queue, the top (oldest) of its
// deque, the last only if the worker started no coroutine off its deque
// since that queue's previous turn (a spawned tree keeps its depth-first
// order). So coroutines that keep waking one another on a worker (a
// channel's ping-pong, sleeps that expire at each turn) delay a coroutine
// ready there by at most a few hundred coroutines per coroutine ahead of
// it in its queue, never for as long as they go on. A worker with nothing to run looks for work
// again for up to 50 µs (pausing, and yielding its CPU now and then) while
// another worker of the pool runs coroutines, at most half of the workers
// awake at once — in a default pool up to 2 ms while one of its coroutines
// waits for a mutex whose owner runs on another worker (the mutex comes to
// it within that bound, and found asleep the worker would keep the handed
// mutex idle for its wake-up) — and then sleeps in the kernel (futex, or the pool's
// epoll_wait) until work arrives: work made for a sleeping worker costs a
// futex wake and the sleeper's wake-up, and a lock handed to one of its
// coroutines stays held, running nothing, meanwhile. A pool with nothing to
// do anywhere sleeps at once; a pool of 1 worker never spins.
//
// Where a coroutine resumes after each kind of wait. By default
// (CACS_POOL_MIGRATE_UNSTARTED): on its home worker, after every wait and
// yield below, whoever wakes it; only a coroutine that has not started yet
// runs wherever it is taken (stolen or not). With
// CACS_POOL_MIGRATE_RUNNING:
//   - cacs_pool_yield: any worker (the shared queue);
//   - woken by a pool coroutine (cacs_pool_join's end, the waits of
//     cacs/pool_sync.h, which a pool coroutine's unlock, post, send,
//     close, notify, and wait-group done end): the waker's worker, next
//     (a join's end: on its deque), unless the waker runs on for 4 us or
//     wakes another first and an idle worker takes it meanwhile; a CES
//     unlock runs the next owner in
//     the unlocker's place (cacs/pool_sync.h) and the unlocker goes on the
//     deque, where it may be stolen;
//   - woken from outside the pool: any worker (the shared queue);
//   - cacs_pool_sleep and timeouts: the worker it went to sleep on (timers
//     are per worker), unless stolen;
//   - a coroutine that has not started yet: wherever it is taken;
//   - an I/O wait of cacs/io.h that ends because the descriptor became
//     ready: the worker that polled the readiness (see "I/O" below),
//     unless another worker steals it, or any worker (the shared queue,
//     behind the coroutines ready before) if a busy worker polled it
//     between two coroutines; one that times out: the worker it
//     waited on; one ended by cacs_close: the closer's worker (or any,
//     from outside the pool).
// So in that mode every one of these calls is a migration point: the
// waits, and the releases that may switch (a CES unlock hands the worker
// to the next owner; cacs_pool_yield).
//
// I/O: the calls of cacs/io.h (cacs_read, cacs_write_all, cacs_accept,
// cacs_connect, cacs_wait_fd, ..., timeouts included) work in pool
// coroutines without a second API: called from one, they wait through the
// pool's poller instead of the thread's event loop. One epoll instance per
// pool: a worker with nothing to run polls it (one worker at a time),
// asleep in epoll_wait until an event, its earliest timer, or new work (the
// pool's eventfd, written when no worker asleep on the futex takes the
// work); busy workers poll it without sleeping every 61 coroutines. A
// descriptor the pool waits on must not be waited on by a thread's own
// loop or another pool; close it with cacs_close, from any thread or
// coroutine (it finds the record in whichever pool knows the descriptor
// and wakes its waiters with ECANCELED; a wait that begins while the
// close is under way retries its call: EBADF once closed; a call that
// begins after it fails with EBADF, also the pool's first call, which
// makes the pool's poller, whose descriptors may take the closed number
// but are never used as the caller's). Closed
// otherwise (close(2), fclose, a library), its waiters are not woken at
// once: the descriptor left the epoll set unseen. Each fails with EBADF at
// its timeout or at the pool's next check, whichever comes first: while
// the pool has descriptors registered, the worker that polls re-arms
// those with waiters once a second (so an idle pool then wakes once a
// second). The pool then forgets the number, so a new descriptor that
// reuses it starts afresh; one that reuses it before that still has the
// closed one's record: call cacs_io_forget (from any thread or coroutine)
// before such a close.
// cacs_pool_destroy waits for coroutines waiting on I/O like any other:
// close their descriptors (their peers see end of file) or give timeouts.
//
// Thread-local storage: a coroutine that resumed on another thread would
// have to use that thread's errno and __thread variables, and compilers
// reuse a thread-local address across calls (docs/tls-migration.md). The
// default pool never moves a coroutine once it has started, so it is safe
// for code built by any compiler (gcc, stock clang, prebuilt libraries):
// the price is that a started coroutine waits for its home worker even
// when another is idle. CACS_POOL_MIGRATE_RUNNING requires that all code
// that runs in the pool's coroutines and reads errno or a __thread
// variable after a wait or yield (its own, and the libraries it calls into
// from them) be built by cacs with -fcoroutine-migration; otherwise it
// silently reads and writes another thread's copy. libcacs itself keeps
// its per-worker state behind out-of-line accessors.
//
// What a pool coroutine must not call: the waits of the single-thread
// scheduler (cacs_park, cacs_park_timeout, cacs_sleep, cacs_join,
// cacs_create, the waits of cacs/sync.h) block the worker
// thread or need the thread's own coroutines; each aborts with a message
// naming the call. cacs_yield and cacs_self in a pool coroutine see the
// worker thread's main coroutine (cacs_yield returns at once): use
// cacs_pool_yield and cacs_pool_current.
//
// Errors: as the rest of libcacs (runtime/README.md, "Errors"): -1 or NULL
// with errno set.
//
// Stack overflow: a pool coroutine that overflows its stack, on any worker,
// is reported as cacs/stack.h describes, as coroutine 'pool coroutine'
// with an id unique in its pool, and the program aborts.
//
// Exact stacks: in a program linked with -fcacs-stack-bounds, a pool
// coroutine whose entry has a proven bound (its waits cacs_pool_join,
// cacs_pool_yield, cacs_pool_sleep, cacs_pool_spawn and the calls of
// cacs/pool_sync.h and cacs/io.h count by their stack budgets,
// cacs/detail/contract.h; a channel's creation and destruction have none,
// and leave an entry that calls them without a bound) gets a stack of exactly that bound and no guard page, by the rule
// cacs_create follows (cacs/coro.h, cacs_stack_exact; docs/runtime.md, "Exact
// stacks"): on by default, `stack_size` then ignored; off for a pool created
// with CACS_STACK_NOBOUND in its attributes, for the process with
// CACS_STACK_BOUNDS=0. Such a stack comes from the slabs of the worker that
// starts the coroutine and goes back there when it ends, on whichever worker.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_POOL_H
#define CACS_POOL_H

#include "cacs/detail/contract.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cacs_pool cacs_pool;
/// A pool coroutine (a handle to join it).
typedef struct cacs__ptask cacs_pool_task;

/// Which coroutines a pool may move between workers (see "Thread-local
/// storage" above).
enum {
  /// The default: only coroutines that have not started yet; one that has
  /// started resumes on the worker that started it after every wait.
  CACS_POOL_MIGRATE_UNSTARTED = 0,
  /// Running coroutines too, at every wait and yield. Only for programs
  /// whose code running in the pool's coroutines is built by cacs with
  /// -fcoroutine-migration (or never keeps an errno or __thread address
  /// across a wait).
  CACS_POOL_MIGRATE_RUNNING = 1,
};

typedef struct cacs_pool_attr {
  unsigned workers;  ///< 0: one per online CPU
  size_t stack_size; ///< every coroutine's stack; 0: CACS_STACK_DEFAULT_SIZE
  int migrate;       ///< CACS_POOL_MIGRATE_*; 0: UNSTARTED
  /// CACS_STACK_NOBOUND (cacs/stack.h): no exact stacks for this pool's
  /// coroutines (see "Exact stacks" above); other flags are ignored.
  unsigned stack_flags;
} cacs_pool_attr;

/// Start a pool of `workers` worker threads (0: one per online CPU).
/// \return the pool, or NULL with errno set:
///   - ENOMEM: no memory;
///   - EAGAIN: a worker thread could not be created (pthread_create).
cacs_pool *cacs_pool_create(unsigned workers);
/// cacs_pool_create with attributes (`attr` NULL: the defaults). Same
/// errors, and EINVAL for a stack size no mapping can hold or a `migrate`
/// that is not a CACS_POOL_MIGRATE_* value.
cacs_pool *cacs_pool_create_ex(const cacs_pool_attr *attr);

/// Graceful shutdown: wait until every coroutine spawned on `p` has
/// finished (joined or not, detached ones included), stop the workers and
/// join their threads, then free the pool. Handles of finished coroutines
/// stay valid for cacs_pool_join. Call it from outside the pool, once: a
/// pool destroyed already (or being destroyed) aborts the program with a
/// message naming the misuse.
/// \return 0, or -1 with errno set:
///   - EDEADLK: called from a coroutine of `p`;
///   - EINVAL: `p` is NULL.
int cacs_pool_destroy(cacs_pool *p);

/// Number of worker threads of `p`.
unsigned cacs_pool_workers(const cacs_pool *p);

/// Spawn a pool coroutine running entry(arg) on `p`, from any thread or
/// coroutine. Its stack is allocated by the worker that first runs it.
/// Every coroutine it returns must be joined exactly once (cacs_pool_join);
/// cacs_pool_spawn_detached spawns one that is not.
/// \return the coroutine, or NULL with errno set:
///   - ENOMEM: no memory for its control block;
///   - EINVAL: `p` or `entry` is NULL.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
cacs_pool_task *cacs_pool_spawn(cacs_pool *p, void (*entry)(void *),
                                void *arg);

/// Spawn a detached pool coroutine running entry(arg) on `p`, from any
/// thread or coroutine: nothing joins it, and its control block and stack
/// are freed when entry returns. cacs_pool_destroy waits for detached
/// coroutines as for the others: one still running, ready or parked keeps
/// it waiting until it returns (one parked forever, e.g. on a mutex nobody
/// unlocks, keeps it waiting forever). If no stack can be allocated for it
/// when a worker first takes it, the program aborts with a message: there
/// is no join to report ENOMEM to.
/// \return 0, or -1 with errno set:
///   - ENOMEM: no memory for its control block;
///   - EINVAL: `p` or `entry` is NULL.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_spawn_detached(cacs_pool *p, void (*entry)(void *), void *arg);

/// Wait until `t` has finished, then free it (`t` is invalid afterwards).
/// From any thread, any cacs_coro (it blocks its thread) or any pool
/// coroutine (of any pool: it waits without blocking its worker). A `t`
/// joined already (or not a handle cacs_pool_spawn returned) aborts the
/// program with a message naming the misuse: it may be freed memory.
/// \return 0, or -1 with errno set:
///   - EINVAL: `t` is NULL, or another join of `t` is waiting for it;
///   - EDEADLK: `t` is the calling coroutine;
///   - ENOMEM: `t` never ran, no stack could be allocated for it.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_join(cacs_pool_task *t);

/// Let the other ready coroutines of the pool run: the caller resumes after
/// them, on its home worker (by default) or on whichever worker takes it
/// from the pool's shared queue (CACS_POOL_MIGRATE_RUNNING: a migration
/// point). Outside a pool coroutine: sched_yield(2).
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
void cacs_pool_yield(void);

/// Sleep `usec` microseconds (<= 0: cacs_pool_yield) without blocking the
/// worker. Outside a pool coroutine: nanosleep(2).
/// \return 0, or -1 with errno set:
///   - ENOMEM: the timer could not be armed.
CACS__STACK_BUDGET(CACS_CONTRACT_POOL_WAIT_STACK_BUDGET)
int cacs_pool_sleep(int64_t usec);

/// The calling pool coroutine, NULL outside one.
cacs_pool_task *cacs_pool_current(void);
/// The index (0 to workers-1) of the worker running the caller, -1 on a
/// thread that is not a worker. Changes across a wait or yield only in a
/// pool created with CACS_POOL_MIGRATE_RUNNING.
int cacs_pool_worker_index(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_POOL_H
