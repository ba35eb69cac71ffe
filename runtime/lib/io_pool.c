//===- lib/io_pool.c - The I/O calls in pool coroutines ------------------===//
//
// In a pool coroutine (cacs/pool.h) the calls wait through the pool's
// poller (lib/pool/pool_io.c), not this thread's loop: a worker thread's
// loop never has a record, so a call reaches the pool's side from the cold
// path that a descriptor without a record takes, and the single-thread
// path pays nothing for it. The pool's functions are weak references: a
// program that uses this module without the pool links none of the pool.
// A pool coroutine may resume on another worker after a wait, whose errno
// is another address, so errno is read and set by out-of-line helpers
// after a wait (as in lib/pool/pool.c).
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "cacs/syncblock.h"
#include "errors.h"
#include "internal.h"
#include "io_internal.h"
#include "pool/pool_io.h"

#include <errno.h>
#include <poll.h>
#include <sys/epoll.h>

struct cacs__ptask *cacs__pool_self(void) __attribute__((weak));
#pragma weak cacs__pool_io_fd
#pragma weak cacs__pool_io_prepare
#pragma weak cacs__pool_io_wait
#pragma weak cacs__pool_io_wait_fd

int cacs__io_pool_caller(void) {
  return cacs__pool_self && cacs__pool_self();
}

// The pool's wait for `fd` (record `r`) in `dirs` after generation `gen`
// (pool_io.h), under the call's deadline: 0 (try again) or an errno value.
// Inside a sync block the coroutine may not park: the worker blocks in
// poll(2), as a thread's coroutine does (io_wait.c), and the coroutine
// stays on it. Inlined into the transfers' callers, preserve_none
// (CACS__IO_PN) as the waits are: no frame between the entry and the park
// saves callee-saved registers; cacs_wait_fd's (below) makes the same
// choices and ends in a tail call of the waits that set errno.
static inline __attribute__((always_inline)) int
pool_fd_wait(int fd, cacs__pool_fd *r, unsigned dirs, uint64_t gen,
             struct io_deadline *d) {
  if (__builtin_expect(cacs_sync_depth() != 0, 0))
    return cacs__io_poll_blocking(fd, dirs, d);
  int64_t timeout = remaining_us(d);
  if (timeout == 0)
    return ETIMEDOUT;
  uint64_t at = timeout < 0 ? 0 : d->at_ns;
  if (cacs__pool_ring_on()) // a poll request on the worker's ring
    return cacs__pool_ring_wait(fd, r, dirs, at);
  return cacs__pool_io_wait(r, dirs, gen, at);
}

// cacs_wait_fd inside a sync block (pool_fd_wait's first case), out of
// line: its deadline's address is taken, which would keep the caller's
// waits from being tail calls.
__attribute__((noinline, cold)) static int
wait_fd_blocking(int fd, unsigned dirs, int64_t timeout_us) {
  struct io_deadline d = {timeout_us, 0};
  return cacs__result(cacs__io_poll_blocking(fd, dirs, &d));
}

// cacs_wait_fd: the generation before the look.
int cacs__io_wait_fd_pool(int fd, uint32_t events, unsigned dirs,
                          int64_t timeout_us) {
  cacs__pool_fd *r = cacs__pool_io_fd(fd);
  // No record: poll says why, but for EBADF, which may be a number that is
  // now the pool's own descriptor (pool_io.h), whose readiness is not the
  // caller's.
  if (!r && cacs__errno() == EBADF)
    return -1;
  uint64_t gen = r ? cacs__pool_io_gen(r) : 0;
  int ready = cacs__io_poll_now(fd, events);
  if (ready)
    return ready < 0 ? -1 : 0;
  if (!r)
    return -1;
  // pool_fd_wait's choices, each wait a tail call that sets errno itself
  // (pool_io.h): this frame is not on the stack while the caller parks.
  if (__builtin_expect(cacs_sync_depth() != 0, 0))
    return wait_fd_blocking(fd, dirs, timeout_us);
  if (timeout_us == 0) // poll(2) said not ready
    return cacs__result(ETIMEDOUT);
  uint64_t at =
      timeout_us < 0 ? 0 : cacs__deadline_ns(cacs__wait_now_ns(), timeout_us);
  if (cacs__pool_ring_on())
    return cacs__pool_ring_wait_fd(fd, r, dirs, at);
  return cacs__pool_io_wait_fd(r, dirs, gen, at);
}

// op_try in a pool coroutine, errno read on the thread that made the call.
__attribute__((noinline)) static ssize_t op_try_pool(int fd,
                                                     const struct io_op *op,
                                                     int socket, int *err) {
  ssize_t n = op_try(fd, op, socket);
  *err = n < 0 ? errno : 0;
  return n;
}

// io_do (io.c): the generation of the descriptor's events is
// read before each attempt, so that an event polled by any worker between
// the EAGAIN and the wait makes the wait return at once (pool_io.h).
// TCP sockets keep the readiness cache of the single-thread loop (see the
// top of io.c), per generation: a short transfer marks the direction
// drained until the next event.
ssize_t cacs__io_do_pool(int fd, uint64_t kind_flags, void *buf, size_t n_,
                         socklen_t *addrlen, struct io_deadline *d) {
  // The operation comes in registers, so that io_do's fast path does not
  // build it in memory for this cold call.
  const struct io_op o = {(enum io_kind)(kind_flags >> 32), (int)kind_flags,
                          buf, n_, addrlen};
  const struct io_op *op = &o;
  cacs__pool_fd *r = cacs__pool_io_fd(fd);
  int flags = r ? cacs__pool_io_prepare(r) : -1;
  if (flags < 0)
    return -1;
  // On a worker's ring: the call is a request (io_pool_uring.c); accept
  // tries first, as connections come in bursts. Not a call that may not
  // wait, nor inside a sync block (as below). The ring's waits (below:
  // accept's) move no generation: no readiness cache.
  // A tail call: this frame is not on the stack while the call waits.
  int ring = cacs__pool_ring_on();
  if (ring && op->kind != OP_ACCEPT && d->timeout_us != 0 &&
      cacs_sync_depth() == 0)
    return cacs__pool_ring_io(fd, r, kind_flags | (uint64_t)(flags & 1) << 63,
                              buf, n_, d);
  int dir = op->kind == OP_WRITE || op->kind == OP_WRITEV || op->kind == OP_SEND
                ? DIR_OUT
                : DIR_IN;
  // Not inside a sync block: its waits poll the descriptor, not the
  // pool's generations, which only the poller moves.
  int cache =
      !ring && (flags & 2) && op_short_drains(op) && cacs_sync_depth() == 0;
  for (;;) {
    uint64_t gen = cacs__pool_io_gen(r);
    int err = EAGAIN;
    ssize_t n = -1;
    if (!cache || d->timeout_us == 0 || !cacs__pool_io_drained(r, dir, gen))
      n = op_try_pool(fd, op, flags & 1, &err);
    if (n >= 0) {
      if (cache && n > 0 && (size_t)n < op->n)
        cacs__pool_io_set_drained(r, dir, gen);
      return n;
    }
    if (err == EINTR)
      continue;
    if (err != EAGAIN && err != EWOULDBLOCK) {
      cacs__set_errno(err);
      return -1;
    }
    if ((err = pool_fd_wait(fd, r, 1u << dir, gen, d))) {
      cacs__set_errno(err);
      return -1;
    }
  }
}

// cacs_connect (see cacs__io_do_pool).
int cacs__io_connect_pool(int fd, const struct sockaddr *addr,
                          socklen_t addrlen, int64_t timeout_us) {
  cacs__pool_fd *r = cacs__pool_io_fd(fd);
  if (!r || cacs__pool_io_prepare(r) < 0)
    return -1;
  uint64_t gen = cacs__pool_io_gen(r);
  int started = io_connect_start(fd, addr, addrlen);
  if (started <= 0)
    return started;
  struct io_deadline d = {timeout_us, 0};
  for (;;) {
    int e = pool_fd_wait(fd, r, 1u << DIR_OUT, gen, &d);
    if (e) {
      cacs__set_errno(e);
      return -1;
    }
    gen = cacs__pool_io_gen(r);
    int done = cacs__io_connect_finished(fd);
    if (done <= 0)
      return done;
  }
}
