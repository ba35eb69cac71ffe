//===- lib/io_wait.c - Descriptor records and waits, engine-independent ---===//
//
// The part of the I/O module that no engine changes (io_internal.h): the
// table of descriptor records, what a descriptor is learnt to be the first
// time a call sees it, and parking a coroutine on a record's waiter lists
// until the engine's poll wakes it, its deadline passes, cacs_close
// cancels it or cacs_wake interrupts it.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "cacs/syncblock.h"
#include "errors.h"
#include "internal.h"
#include "io_internal.h"
#include "io_op.h"
#include "sched.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

CACS_TLS io_loop cacs__io_loop = IO_LOOP_INIT;

// --- records ------------------------------------------------------------

// On the thread's own stack (cacs__deep_call): realloc, and pthread's
// once and key at the thread's first records. `arg`: the descriptor in,
// its result out (0, or -1 with errno).
static void rec_grow_deep(void *arg) {
  int *fd = (int *)arg;
  void *t = L.fds;
  if (fd_table_grow(&t, &L.nfds, sizeof *L.fds, *fd) != 0) {
    *fd = -1;
    return;
  }
  // The thread's first records: freed at its exit even if it never makes
  // a loop (its calls never wait, or the loop cannot be made).
  if (!L.fds)
    cacs__io_loop_free_at_exit();
  L.fds = (struct io_fd *)t;
  *fd = 0;
}

// One body in two conventions: the preserve_none one for fd_wait
// (preserve_none itself), so that it pushes no callee-saved registers below
// the wait's frame
// (a thread's first wait: the park budget).
static inline __attribute__((always_inline)) struct io_fd *rec_grow(int fd) {
  int r = fd;
  cacs__deep_call(rec_grow_deep, &r);
  return r < 0 ? NULL : &L.fds[fd];
}

struct io_fd *cacs__io_rec_grow(int fd) {
  return rec_grow(fd);
}

__attribute__((noinline, cold)) CACS__IO_PN static struct io_fd *
rec_grow_pn(int fd) {
  return rec_grow(fd);
}

struct io_fd *cacs__io_fd_setup(int fd) {
  struct io_fd *r = fd_rec(fd);
  if (!r)
    return NULL;
  int socket = fd_first_sight(fd, io_engine_owns(&L.eng, fd));
  if (socket < 0)
    return NULL;
  r->socket = (unsigned char)socket;
  int proto = 0;
  socklen_t len = sizeof proto;
  r->tcp = r->socket &&
           getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) == 0 &&
           proto == IPPROTO_TCP;
  r->known = 1;
  return r;
}

static void waiter_link(int fd, int dir, struct io_waiter *w) {
  struct io_fd *r = &L.fds[fd];
  w->prev = NULL;
  w->next = r->waiters[dir];
  if (w->next)
    w->next->prev = w;
  r->waiters[dir] = w;
}

static void waiter_unlink(int fd, int dir, struct io_waiter *w) {
  if (w->prev)
    w->prev->next = w->next;
  else
    L.fds[fd].waiters[dir] = w->next;
  if (w->next)
    w->next->prev = w->prev;
}

// --- waiting ------------------------------------------------------------

// Park `self` on the records `w` until `fd` is ready in one of the
// directions `dirs`, the deadline `d` passes (io_park), the descriptor is
// closed, or a cacs_wake. Inlined into its two callers, so that the common
// one (cacs__io_fd_wait) keeps `w` in its own frame.
static inline __attribute__((always_inline)) int
fd_park(int fd, unsigned dirs, struct io_fd *r, const struct io_deadline *d,
        struct io_waiter *w, cacs_coro *self) {
  for (int dir = 0; dir < 2; dir++) {
    w[dir].co = self;
    w[dir].result = WAIT_PENDING;
    if (dirs & (1u << dir))
      waiter_link(fd, dir, &w[dir]);
  }
  int parked = errno = ENOMEM;
  if (cacs__io_interest_pn(fd, r) == 0 && cacs__io_wait_begin() == 0) {
    parked = io_park(d);
    cacs__io_wait_end();
  }
  // A node the loop or cacs_close did not take is still linked.
  int result = -1;
  for (int dir = 0; dir < 2; dir++) {
    if (!(dirs & (1u << dir)))
      continue;
    if (w[dir].result == WAIT_PENDING)
      waiter_unlink(fd, dir, &w[dir]);
    else if (result != ECANCELED)
      result = w[dir].result;
  }
  cacs__io_interest_pn(fd, &L.fds[fd]); // drop what the waiters left
  if (result >= 0)
    return result; // ready (even if the timer fired too), or closed
  return parked != 0 ? parked : EINTR; // timeout, no memory, or cacs_wake
}

// fd_park for a coroutine on a shared stack: the records go to the heap,
// since the loop writes them while its frames are copied out
// (cacs/stack.h).
static __attribute__((noinline, cold)) int
fd_park_heap(int fd, unsigned dirs, struct io_fd *r,
             const struct io_deadline *d) {
  struct io_waiter *w = malloc(2 * sizeof *w);
  if (!w)
    return ENOMEM;
  int e = fd_park(fd, dirs, r, d, w, cacs_self());
  free(w);
  return e;
}

// Inside a sync block (cacs/syncblock.h) no other coroutine may run, so
// a wait does what the blocking system call would: it blocks the thread in
// poll(2) until `fd` is ready or the deadline passes, and the caller's
// retry makes the call. The thread's waits (below, either engine's) and a
// pool coroutine's (io_pool.c) all come here.
int cacs__io_poll_blocking(int fd, unsigned dirs, struct io_deadline *d) {
  struct pollfd p = {fd,
                     (short)((dirs & 1u << DIR_IN ? POLLIN : 0) |
                             (dirs & 1u << DIR_OUT ? POLLOUT : 0)),
                     0};
  for (;;) {
    int64_t t = remaining_us(d);
    if (t == 0)
      return ETIMEDOUT;
    int ms = t < 0                           ? -1
             : t >= (int64_t)INT_MAX * 1000 ? INT_MAX
                                            : (int)((t + 999) / 1000);
    int n = poll(&p, 1, ms);
    if (n > 0)
      return p.revents & POLLNVAL ? EBADF : 0;
    if (n < 0 && errno != EINTR)
      return errno;
  }
}

// The thread's wait inside a block: ready, the record's directions are no
// longer known drained.
static __attribute__((noinline, cold)) int
fd_wait_blocking(int fd, unsigned dirs, struct io_deadline *d) {
  int e = cacs__io_poll_blocking(fd, dirs, d);
  if (!e && (size_t)fd < L.nfds)
    L.fds[fd].drained[DIR_IN] = L.fds[fd].drained[DIR_OUT] = 0;
  return e;
}

// The thread's loop, made on its own stack (cacs__deep_call, internal.h):
// epoll_create1, the environment's settings, pthread's keys and the
// inbox's eventfd run inside a thread's first wait, once, and the waits'
// stack budgets (cacs/detail/contract.h) need not hold them. `arg`: its
// result.
static void loop_init_deep(void *arg) { *(int *)arg = cacs__io_loop_init(); }

// cacs__io_fd_wait's body, inlined into cacs__io_wait_fd_thread too.
static inline __attribute__((always_inline)) int
fd_wait(int fd, unsigned dirs, struct io_deadline *d) {
  // Before either engine's park: inside a sync block no engine may switch.
  if (__builtin_expect(cacs_sync_depth() != 0, 0))
    return fd_wait_blocking(fd, dirs, d);
  if (cacs__io_on_ring())
    return cacs__uring_wait(fd, dirs, d);
  if (remaining_us(d) == 0)
    return ETIMEDOUT;
  if (!io_engine_ready(&L.eng)) {
    int made = -1;
    cacs__deep_call(loop_init_deep, &made);
    if (made != 0)
      return errno;
    // The loop's descriptors, made just now, took the lowest free numbers:
    // if another thread closed `fd` since the call tried it, its number may
    // be one of them, which the wait would watch (a poll(2) of the loop's
    // own epoll instance is never ready: a wait to the timeout) and the
    // retry read (EINVAL, or the wake-ups' count). The call is on a closed
    // descriptor: EBADF, as the retry would have found. What the call
    // learnt of it (non-blocking, a socket) was of the closed file: the
    // next call looks again (cacs__io_fd_setup: EBADF).
    if (io_engine_owns(&L.eng, fd)) {
      if ((size_t)fd < L.nfds)
        L.fds[fd].known = 0;
      return EBADF;
    }
  }
  struct io_fd *r =
      __builtin_expect((size_t)fd < L.nfds, 1) ? &L.fds[fd] : rec_grow_pn(fd);
  if (!r)
    return errno;
  if (io_engine_watch(&L.eng, &r->eng, fd, r) != 0)
    return errno;
  // One call finds the running coroutine and whether it is on a shared
  // stack (the echo server's request path counts it: bench/net).
  cacs_coro *self = cacs__self_unshared();
  if (__builtin_expect(!self, 0))
    return fd_park_heap(fd, dirs, r, d);
  struct io_waiter w[2];
  return fd_park(fd, dirs, r, d, w, self);
}

CACS__IO_PN int cacs__io_fd_wait(int fd, unsigned dirs, struct io_deadline *d) {
  return fd_wait(fd, dirs, d);
}

int cacs__io_poll_now(int fd, uint32_t events) {
  struct pollfd p = {fd,
                     (short)((events & EPOLLIN ? POLLIN : 0) |
                             (events & EPOLLOUT ? POLLOUT : 0)),
                     0};
  int n;
  while ((n = poll(&p, 1, 0)) < 0 && cacs__errno() == EINTR) {
  }
  if (n <= 0)
    return n;
  if (p.revents & POLLNVAL) {
    cacs__set_errno(EBADF);
    return -1;
  }
  return 1;
}

int cacs__io_wait_fd_thread(int fd, unsigned dirs, int64_t timeout_us) {
  struct io_deadline d = {timeout_us, 0};
  return cacs__result(fd_wait(fd, dirs, &d));
}
