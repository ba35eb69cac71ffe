//===- lib/pool/pool_io.h - Descriptor waits of pool coroutines --*- C -*-===//
//
// What cacs/io.h's calls (io_pool.c, io.c; library cacs_io) use when the caller
// is a pool coroutine, and what the workers' loop (pool_worker.c) uses to poll.
// The functions live in libcacs with the pool (pool_io.c); io_pool.c and io.c
// refer to them weakly, so that a program using cacs/io.h without the pool
// links none of the pool. Private to libcacs.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_POOL_IO_H
#define CACS_LIB_POOL_IO_H

#include "../internal.h" // CACS__IO_PN

#include <stdatomic.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cacs_pool cacs_pool;
struct epoll_event;

// --- for io_pool.c (the calling pool coroutine's pool) -----------------------
// A call looks its descriptor's record up once (cacs__pool_io_fd) and hands
// the record to the rest: a lookup finds the pool, its poller and the
// record's chunk, which is most of what one request would otherwise pay
// again in every step.

/// The pool's record of a descriptor: the part a call reads and writes
/// without the record's lock, inline here (the rest is pool_io.c's).
typedef struct cacs__pool_fd {
  // Events seen per direction (0: in, 1: out), counted by the poller.
  _Atomic uint32_t gen[2];
  // 1 + the generation at which a TCP transfer in the direction moved
  // fewer bytes than asked (drained it), 0: none (see io.c's readiness
  // cache: the next call waits for the next event before it tries).
  _Atomic uint32_t drained_at[2];
  _Atomic unsigned char no_cache; // an event a call does not consume came
  // The number is one of the pool's own descriptors (its poller's): never
  // a caller's. Set with the record, before the record is published.
  unsigned char own;
  // The io_uring engine (io_pool_uring.c), under `ulock`: cacs_close
  // calls between their forget and their close(2) (a request then waits
  // for the close and is made again), and the requests in flight on the
  // descriptor, on any worker's ring.
  unsigned char uclosing;
  uint32_t ulock;
  void *ureqs;
  // The file's identity when the pool first saw the number (fstat(2)'s
  // st_dev, st_ino; valid with the record's `known`): the ring's sweep
  // tells a descriptor closed behind the pool's back by it.
  uint64_t dev, ino;
} cacs__pool_fd;

/// The record of `fd` in the calling pool coroutine's pool, made (and the
/// pool's poller created) on first use. \return NULL with errno set (EBADF:
/// a negative or too large number, or one of the poller's own descriptors,
/// which a number closed as the call began may have become; ENOMEM;
/// epoll_create1(2)'s errors).
cacs__pool_fd *cacs__pool_io_fd(int fd);

/// Make the descriptor non-blocking the first time the pool sees it.
/// \return flags: 1 a socket, 2 a TCP socket; or -1 with errno set (EBADF,
/// fcntl(2)'s errors).
int cacs__pool_io_prepare(cacs__pool_fd *r);

/// The readiness generation of the descriptor (both directions, in high,
/// out low): read it before the system call whose EAGAIN leads to
/// cacs__pool_io_wait, which then returns at once if an event came in
/// between (no edge is lost).
static inline uint64_t cacs__pool_io_gen(const cacs__pool_fd *r) {
  return (uint64_t)atomic_load_explicit(&r->gen[0], memory_order_acquire)
             << 32 |
         atomic_load_explicit(&r->gen[1], memory_order_acquire);
}

static inline uint32_t cacs__pool_io_gen_of(uint64_t gen, int dir) {
  return dir == 0 ? (uint32_t)(gen >> 32) : (uint32_t)gen;
}

/// Whether direction `dir` (0: in, 1: out) of a TCP socket was drained by a
/// short transfer at generation `gen` (cacs__pool_io_set_drained) and no
/// event came since: a call then waits before it tries (io.c's readiness
/// cache). Events a call does not consume (hangup, error, urgent data)
/// turn this off for the descriptor.
static inline int cacs__pool_io_drained(const cacs__pool_fd *r, int dir,
                                        uint64_t gen) {
  return atomic_load_explicit(&r->drained_at[dir], memory_order_relaxed) ==
             cacs__pool_io_gen_of(gen, dir) + 1 &&
         !atomic_load_explicit(&r->no_cache, memory_order_relaxed);
}

/// A transfer in `dir` that began at generation `gen` moved fewer bytes
/// than asked.
static inline void cacs__pool_io_set_drained(cacs__pool_fd *r, int dir,
                                             uint64_t gen) {
  atomic_store_explicit(&r->drained_at[dir], cacs__pool_io_gen_of(gen, dir) + 1,
                        memory_order_relaxed);
}

/// Park the calling pool coroutine until the descriptor is ready in one of
/// `dirs` (bit 0: in, bit 1: out) after generation `gen`, the deadline
/// passes (CLOCK_MONOTONIC ns, 0: none), or cacs__pool_io_forget.
/// \return 0 (ready: retry the call), ETIMEDOUT, ECANCELED (forgotten),
/// or an errno value (ENOMEM, epoll_ctl(2)'s errors: EBADF for a descriptor
/// closed before its first wait).
CACS__IO_PN int cacs__pool_io_wait(cacs__pool_fd *r, unsigned dirs,
                                   uint64_t gen, uint64_t deadline_ns);
/// The same for cacs_wait_fd (io_pool.c), whose caller is preserve_none:
/// this one is too (internal.h's CACS__IO_PN), as is the call above (its
/// callers, io_pool.c's transfers, are), and pushes no callee-saved
/// registers below the park. Its result is cacs_wait_fd's: 0, or -1
/// with errno set, so that its caller reaches it by a tail call and keeps
/// no frame of its own below the park.
CACS__IO_PN int cacs__pool_io_wait_fd(cacs__pool_fd *r, unsigned dirs,
                                      uint64_t gen, uint64_t deadline_ns);

/// The descriptor of `h` was closed behind the pool's back (io_pool_uring.c
/// found another file, or none, under its number): forget what the record
/// knows, so that the next call looks at the number afresh.
void cacs__pool_io_stale(cacs__pool_fd *h);

/// Wake the calling pool coroutine's pool's waiters on `fd` with ECANCELED
/// and forget the descriptor (its epoll registration too).
void cacs__pool_io_forget(int fd);

/// cacs__pool_io_forget in every pool that knows `fd`, from any thread or
/// coroutine (cacs_io_forget).
void cacs__pool_io_forget_any(int fd);

/// cacs_close from any thread or coroutine: forget `fd` in every pool that
/// knows it (waiters: ECANCELED), close(2) it, and until the close is done
/// make a wait that comes in between retry its call instead of registering
/// the descriptor anew (the close would then drop it from the epoll set
/// unseen, and the wait would never end). \return close(2)'s result.
int cacs__pool_io_close(int fd);

// --- the io_uring engine: a ring per worker (io_pool_uring.c) ---------------
// In libcacs_io with the other engine; weak in libcacs, as above the other
// way round. A pool's workers make a ring each when io_uring is asked for
// (CACS_IO_ENGINE=uring, cacs_io_set_engine) and every worker can; then a
// pool coroutine's calls are requests on the ring of the worker it runs on,
// which submits and reaps them in its loop (pool_worker.c).

/// A worker's ring.
struct cacs__pool_ring;

/// On a worker thread as it starts: make its ring if io_uring is asked
/// for. \return 1 (made: *out), 0 (not asked for), -1 (asked for and
/// io_uring cannot serve: the pool runs on epoll).
int cacs__pool_ring_new(struct cacs__pool_ring **out);

/// On the ring's worker, in its loop: send the cancellations cacs_close
/// asked for and the requests queued, and make the coroutines of the
/// completions runnable. `block`: first wait for a completion, a kick or
/// `deadline_ns` (CLOCK_MONOTONIC, 0: none), and leave the completions to
/// the next call. Without `block` the kernel is entered only with something
/// to send or to reap. \return the coroutines made runnable.
int cacs__pool_ring_pass(struct cacs__pool_ring *r, int block,
                         uint64_t deadline_ns);

/// Whether the ring has requests in flight (or cancellations to send): its
/// worker must then sleep in it (block), not on the futex.
int cacs__pool_ring_busy(const struct cacs__pool_ring *r);

/// Whether the worker, out of work, should go straight to its blocking
/// pass: the ring's last blocking wait found it busy, and its next one
/// gathers completions (io_pool_uring.c). A non-blocking pass would take
/// the few that are there and run them, one small batch after another.
int cacs__pool_ring_gather(const struct cacs__pool_ring *r);

/// From any thread: end a blocking cacs__pool_ring_pass (an eventfd the
/// ring watches; a kick before the wait is not lost).
void cacs__pool_ring_kick(struct cacs__pool_ring *r);

/// On the ring's worker as it ends (no request in flight).
void cacs__pool_ring_free(struct cacs__pool_ring *r);

/// cacs__pool_io_forget's and cacs__pool_io_close's part (pool_io.c,
/// forget_in): `closing` 0 or +1 (a close follows): every request in flight
/// on the descriptor fails with ECANCELED (its worker cancels it); -1: the
/// close is done.
void cacs__pool_ring_forget(cacs__pool_fd *h, int closing);

// --- for pool_worker.c ----------------------------------------------------

/// The most events one poll hands out.
enum { CACS__POOL_IO_EVENTS = 64 };

/// One epoll_wait of the pool's set into `ev` (CACS__POOL_IO_EVENTS):
/// `block`: sleep until an event, cacs__pool_io_kick, or `deadline_ns`
/// (CLOCK_MONOTONIC, 0: none); else return at once.
/// \return the number of events, 0 (none, or no descriptor ever waited
/// on), or -1 (EINTR).
int cacs__pool_io_wait_events(cacs_pool *p, struct epoll_event *ev, int block,
                              uint64_t deadline_ns);

/// Make the waiters of the descriptors in `ev` runnable (on the calling
/// worker's deque: cacs__pool_wake). \return the number woken.
int cacs__pool_io_dispatch(cacs_pool *p, const struct epoll_event *ev, int n);

/// Make a cacs__pool_io_wait_events that sleeps return (its eventfd).
void cacs__pool_io_kick(cacs_pool *p);

/// Free the pool's poller (cacs_pool_destroy, workers joined).
void cacs__pool_io_free(cacs_pool *p);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_LIB_POOL_IO_H
