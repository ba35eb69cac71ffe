//===- lib/io_internal.h - What the I/O module's files share ----*- C -*-===//
//
// The I/O module (cacs/io.h, library cacs_io) is six files, one concept
// each, around an engine that waits for the kernel's readiness reports:
// - io.c: the calls (cacs_read ... cacs_close): try the system call, and
//   on EAGAIN wait for the direction it needs; the readiness cache.
// - io_wait.c: what does not depend on the engine: the records of
//   descriptors, the waiter lists, parking a coroutine on them.
// - io_epoll.c: the engine, poll(2) and epoll (io_epoll.h): the thread's
//   loop, its set of descriptors, the poll hook the core calls (sched.h).
// - io_pool.c: the same calls in a pool coroutine, which wait through the
//   pool's poller (lib/pool/pool_io.c) instead of the thread's loop.
// - io_pool_uring.c: the pool's io_uring engine, a ring per worker, which
//   io_pool.c's calls use when the worker has one.
// - io_uring.c: the other engine (io_uring.h), one ring per thread; a
//   thread runs one of the two, chosen at its first call, and the calls
//   hand over to it on their cold paths (io_do, cacs_accept, cacs_connect,
//   cacs__io_fd_wait, fd_forget).
// An engine provides what the section "the engine" below declares, and
// the inline parts of it in its header (the wait path calls them); the
// rest of the module reaches it through those only.
//
// Per descriptor number a record (struct io_fd) holds the two lists of
// waiters (readers, writers). A waiter is a node on the waiting
// coroutine's stack; readiness wakes every node of the list (each retries
// its call, and those that meet EAGAIN again wait for the next edge). The
// records are a table indexed by descriptor number that grows on demand;
// it may move while a coroutine is parked, so nodes never point into it
// (the list head is found again by number).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_IO_INTERNAL_H
#define CACS_LIB_IO_INTERNAL_H

#include "cacs/io.h"
#include "internal.h"
#include "sched.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

// The number in the environment variable `name` if it is one from 0 to
// `max`, else `fallback` (io_epoll.c).
long long cacs__io_env_number(const char *name, long long max,
                              long long fallback);

enum { DIR_IN = 0, DIR_OUT = 1 };
enum { WAIT_PENDING = -1 };

struct io_waiter {
  struct io_waiter *next, *prev; // prev == NULL: first of its list
  cacs_coro *co;
  int result; // WAIT_PENDING, then 0 (ready) or ECANCELED (closed)
};

// The engine's per-descriptor and per-thread state (io_fd_engine,
// io_loop_engine) and its inline hooks.
#include "io_epoll.h"
// The other engine, io_uring (io_uring.c): a thread runs one of the two,
// chosen at its first call; the calls hand over to it on their cold paths.
#include "io_uring.h"

struct io_fd {
  struct io_waiter *waiters[2]; // DIR_IN, DIR_OUT
  unsigned char known;          // O_NONBLOCK set, `socket` and `tcp` valid
  unsigned char socket;         // send with MSG_NOSIGNAL
  unsigned char tcp;            // a short transfer drains it (io.c)
  unsigned char drained[2];     // not ready, and no event since: wait first
  struct io_fd_engine eng;      // the engine's (io_epoll.h)
};

// A thread's loop.
typedef struct io_loop {
  int64_t spin_us; // cacs_io_set_spin; -1: not set, the default applies
  struct io_fd *fds;
  size_t nfds;
  struct io_loop_engine eng; // the engine's (io_epoll.h)
} io_loop;

#define IO_LOOP_INIT {.spin_us = -1, .eng = IO_LOOP_ENGINE_INIT}
extern CACS_HIDDEN CACS_TLS io_loop cacs__io_loop;
#define L cacs__io_loop

// --- records (io_wait.c) -----------------------------------------------------

/// Grow the table to hold `fd`; NULL with errno EBADF or ENOMEM.
__attribute__((noinline, cold)) CACS_HIDDEN struct io_fd *
cacs__io_rec_grow(int fd);
/// First sight of a descriptor: make it non-blocking, note if it is a
/// socket (and TCP). NULL with errno set.
__attribute__((noinline, cold)) CACS_HIDDEN struct io_fd *
cacs__io_fd_setup(int fd);

// The record of `fd`; NULL with errno EBADF or ENOMEM.
static inline struct io_fd *fd_rec(int fd) {
  if (__builtin_expect((size_t)fd < L.nfds, 1))
    return &L.fds[fd];
  return cacs__io_rec_grow(fd);
}

// Whether this thread's epoll loop has taken `fd` on (a record, made
// non-blocking): the calls' fast path. A macro: inside __builtin_expect
// clang weighs each of its two tests, where it would weigh a function's
// result only (2 more instructions a cacs_write_all, callgrind).
#define FD_KNOWN(fd) ((size_t)(fd) < L.nfds && L.fds[fd].known)

// The record of `fd` after making it non-blocking (once per descriptor).
static inline struct io_fd *fd_prepare(int fd) {
  if (__builtin_expect(FD_KNOWN(fd), 1))
    return &L.fds[fd];
  return cacs__io_fd_setup(fd);
}

static inline void wake_all(struct io_fd *r, int dir, int result) {
  struct io_waiter *w = r->waiters[dir];
  r->waiters[dir] = NULL;
  while (w) {
    struct io_waiter *next = w->next;
    w->next = w->prev = NULL;
    w->result = result;
    cacs_wake(w->co);
    w = next;
  }
}

// --- waiting (io_wait.c) -----------------------------------------------------

// A call's timeout: the deadline is fixed at its first wait, so that the
// timeout covers every retry of the call.
struct io_deadline {
  int64_t timeout_us;
  uint64_t at_ns; // 0: not started
};

// What is left of the call's timeout now (< 0: none); 0 once the
// deadline has passed. The first call fixes the deadline io_park waits for.
// The clock is read off the caller's stack (cacs__wait_now_ns, sched.h):
// the waits' stack budget.
static inline int64_t remaining_us(struct io_deadline *d) {
  if (d->timeout_us <= 0)
    return d->timeout_us;
  uint64_t now = cacs__wait_now_ns();
  if (d->at_ns == 0) {
    d->at_ns = cacs__deadline_ns(now, d->timeout_us);
    return d->timeout_us;
  }
  return cacs__us_until(d->at_ns, now);
}

// io_park's parks: the plain preserve_none entries (core.h), not the _bp
// ones that cacs_park() and cacs__park_until bind to where the compiler
// may keep a base pointer in rbx / x19 across such a call (detail/bind.h:
// stock clang before 22): libcacs's frames keep none (no realignment, no
// dynamic alloca), and the _bp entry's save and call would lie below the
// wait's frame (16 bytes of the park budget on x86-64). Under ASan, whose
// frames may keep one, the _bp ones (core.h's switch_pn, same rule).
#if !CACS_ASAN
CACS__PN_DEF void cacs__park_pn(void);
CACS__PN_DEF int cacs__park_until_pn(uint64_t deadline_ns);
#define CACS__IO_PARK() cacs__park_pn()
#define CACS__IO_PARK_UNTIL(ns) cacs__park_until_pn(ns)
#else
#define CACS__IO_PARK() cacs_park()
#define CACS__IO_PARK_UNTIL(ns) cacs__park_until(ns)
#endif

/// The engines' park for a call whose remaining_us(d) was > 0 or < 0 (no
/// deadline): 0 if woken, else ETIMEDOUT or ENOMEM. On the deadline that
/// remaining_us fixed, without reading the clock again: the timeout counts
/// from the call (cacs/io.h).
static inline __attribute__((always_inline)) int
io_park(const struct io_deadline *d) {
  if (d->timeout_us < 0) {
    CACS__IO_PARK();
    return 0;
  }
  return CACS__IO_PARK_UNTIL(d->at_ns);
}

/// Park until `fd` is ready in one of the directions `dirs` (bit DIR_IN,
/// bit DIR_OUT), the deadline passes, the descriptor is closed, or a
/// cacs_wake. Returns 0 (ready: retry the call) or an errno value. Called
/// after a system call returned EAGAIN, so only edges to come matter.
CACS__IO_PN CACS_HIDDEN int cacs__io_fd_wait(int fd, unsigned dirs,
                                             struct io_deadline *d);
/// cacs_wait_fd's look (io_wait.c): poll(2) of `fd` for `events` (EPOLLIN,
/// EPOLLOUT) without waiting, level-triggered (the edges already consumed
/// do not come again): 1 ready, 0 not, -1 with errno set. Out of line,
/// so that its struct pollfd is not in the frame of a caller that then
/// waits, and that caller's wait can be a tail call.
__attribute__((noinline)) CACS_HIDDEN int cacs__io_poll_now(int fd,
                                                            uint32_t events);
/// cacs_wait_fd's wait on the thread's epoll loop (io_wait.c), after its
/// look: 0, or -1 with errno set. Preserve_none, as cacs_wait_fd's entry
/// is, which reaches it by a tail call: its frame, with the wait of
/// cacs__io_fd_wait inlined, is the only one below the caller's while it
/// is parked (the park budget).
CACS__IO_PN CACS_HIDDEN int cacs__io_wait_fd_thread(int fd, unsigned dirs,
                                                    int64_t timeout_us);
/// The wait inside a sync block (cacs/syncblock.h), where no coroutine may
/// park: block the thread in poll(2) until `fd` is ready in `dirs` or the
/// deadline passes. 0 (ready: retry the call) or an errno value.
__attribute__((noinline, cold)) CACS_HIDDEN int
cacs__io_poll_blocking(int fd, unsigned dirs, struct io_deadline *d);

// --- the engine (io_epoll.c) -------------------------------------------------
// Besides these, an engine's header defines struct io_fd_engine, struct
// io_loop_engine, IO_LOOP_ENGINE_INIT and the hooks the wait path inlines:
//   io_engine_ready(&L.eng): the thread's loop is set up (a child after
//     fork: no longer);
//   io_engine_owns(&L.eng, fd): `fd` is one of the loop's own descriptors
//     (made at the thread's first wait), never a caller's;
//   io_engine_watch(&L.eng, &r->eng, fd, r): before a wait on `fd`; 0, or
//     -1 with errno (epoll mode: register it, once).

/// Set the thread's loop up (at its first wait, and in a child after fork)
/// and install the core's poll hook; 0, or -1 with errno.
CACS_HIDDEN int cacs__io_loop_init(void);
/// Free the thread's loop and records when it exits: at the loop's setup,
/// and at the records' first allocation, which a thread whose calls never
/// wait (or whose loop could not be made) makes without a loop.
CACS_HIDDEN void cacs__io_loop_free_at_exit(void);
/// The waiters of `r` changed: watch `fd` for the directions it has
/// waiters in, and no more (a wait adds them, readiness and the wait's end
/// remove them). 0, or -1 with errno.
CACS_HIDDEN int cacs__io_interest(int fd, struct io_fd *r);
/// The same for a wait (io_wait.c's fd_park), preserve_none as its caller
/// is (CACS__IO_PN): it pushes no callee-saved registers below the wait's
/// frame (the park budget), and its rare growth of the poll set runs on
/// the thread's own stack.
CACS__IO_PN CACS_HIDDEN int cacs__io_interest_pn(int fd, struct io_fd *r);
/// `r`'s waiters are gone and it is being forgotten: stop watching `fd`,
/// and with `deregister` drop what the kernel holds for it.
CACS_HIDDEN void cacs__io_unwatch(int fd, struct io_fd *r, int deregister);

// --- forgetting a descriptor (io.c) ------------------------------------------

// The thread's own loop's record (the pools' records: cacs_io_forget,
// cacs_close): wake its waiters (ECANCELED) and forget what it knew.
// `deregister`: take it out of the engine too (it stays open).
static inline void fd_forget(int fd, int deregister) {
  if (cacs__io_engine == CACS_IO_ENGINE_URING)
    cacs__uring_forget(fd);
  if ((size_t)fd >= L.nfds) // a pool worker's own loop never has records
    return;
  struct io_fd *r = &L.fds[fd];
  wake_all(r, DIR_IN, ECANCELED);
  wake_all(r, DIR_OUT, ECANCELED);
  cacs__io_unwatch(fd, r, deregister);
  memset(r, 0, sizeof *r);
}

// --- the calls (io.c, io_pool.c) ---------------------------------------------

enum io_kind {
  OP_READ,
  OP_WRITE,
  OP_READV,
  OP_WRITEV,
  OP_RECV,
  OP_SEND,
  OP_ACCEPT
};

struct io_op {
  enum io_kind kind;
  int flags;
  void *buf;          // buffer; iovec array (readv, writev); sockaddr (accept)
  size_t n;           // length; iovec count
  socklen_t *addrlen; // accept
};

static inline __attribute__((always_inline)) ssize_t
op_try(int fd, const struct io_op *op, int socket) {
  switch (op->kind) {
  case OP_READ:
    return read(fd, op->buf, op->n);
  case OP_WRITE:
    return socket ? send(fd, op->buf, op->n, MSG_NOSIGNAL)
                  : write(fd, op->buf, op->n);
  case OP_READV:
    return readv(fd, (const struct iovec *)op->buf, (int)op->n);
  case OP_WRITEV:
    if (socket) {
      struct msghdr m = {0};
      m.msg_iov = (struct iovec *)op->buf;
      m.msg_iovlen = op->n;
      return sendmsg(fd, &m, MSG_NOSIGNAL);
    }
    return writev(fd, (const struct iovec *)op->buf, (int)op->n);
  case OP_RECV:
    return recv(fd, op->buf, op->n, op->flags);
  case OP_SEND:
    return send(fd, op->buf, op->n, op->flags | MSG_NOSIGNAL);
  case OP_ACCEPT:
    return accept4(fd, (struct sockaddr *)op->buf, op->addrlen,
                   SOCK_NONBLOCK | SOCK_CLOEXEC);
  }
  errno = EINVAL;
  return -1;
}

// Whether a transfer of fewer bytes than asked leaves the direction
// drained: plain reads and writes (not a peek, out-of-band data, ...).
static inline __attribute__((always_inline)) int
op_short_drains(const struct io_op *op) {
  return op->kind == OP_READ || op->kind == OP_WRITE ||
         ((op->kind == OP_RECV || op->kind == OP_SEND) &&
          (op->flags & ~MSG_DONTWAIT) == 0);
}

// --- pool coroutines (io_pool.c) ---------------------------------------------
// The calls' cold paths for a caller that is a pool coroutine (io_pool.c
// says why they are separate).

/// Whether the caller is a pool coroutine.
__attribute__((noinline, cold)) CACS_HIDDEN int cacs__io_pool_caller(void);
/// cacs_wait_fd, the calls (io_do: the operation's kind << 32 | its
/// flags, and the rest of it), cacs_connect and cacs_accept's ending in a
/// pool coroutine.
__attribute__((noinline, cold)) CACS_HIDDEN CACS__IO_PN int
cacs__io_wait_fd_pool(int fd, uint32_t events, unsigned dirs,
                      int64_t timeout_us);
__attribute__((noinline, cold)) CACS_HIDDEN CACS__IO_PN ssize_t
cacs__io_do_pool(int fd, uint64_t kind_flags, void *buf, size_t n_,
                 socklen_t *addrlen, struct io_deadline *d);
__attribute__((noinline, cold)) CACS_HIDDEN CACS__IO_PN int
cacs__io_connect_pool(int fd, const struct sockaddr *addr, socklen_t addrlen,
                      int64_t timeout_us);
/// The pool's io_uring engine (io_pool_uring.c): whether the calling pool
/// coroutine's worker has a ring; a call on it (`h` the pool's record of
/// `fd`; the operation as cacs__io_do_pool takes it, bit 63 set for a
/// socket): its result, or -1 with errno set; a wait for readiness in
/// `dirs` until `at_ns` (0: none; the caller found it not passed yet):
/// 0 (ready, retry) or an errno value.
struct cacs__pool_fd;
CACS_HIDDEN int cacs__pool_ring_on(void);
CACS_HIDDEN ssize_t cacs__pool_ring_io(int fd, struct cacs__pool_fd *h,
                                       uint64_t kind_flags, void *buf, size_t n,
                                       struct io_deadline *d);
CACS__IO_PN CACS_HIDDEN int cacs__pool_ring_wait(int fd,
                                                 struct cacs__pool_fd *h,
                                                 unsigned dirs, uint64_t at_ns);
/// The same wait for cacs_wait_fd (cacs__io_wait_fd_pool), preserve_none
/// as its caller is (CACS__IO_PN): its request record lies in a frame
/// that pushes no callee-saved registers below the park (the waits' park
/// budget), as the call above does for the transfers (CACS__IO_PN too). Its
/// result is cacs_wait_fd's (0, or -1 with errno set): its caller's call
/// is a tail call, whose frame is gone before the park.
CACS__IO_PN CACS_HIDDEN int cacs__pool_ring_wait_fd(int fd,
                                                    struct cacs__pool_fd *h,
                                                    unsigned dirs,
                                                    uint64_t at_ns);
/// After a wait for a connecting socket to be writable: 0 connected, -1 the
/// connection failed (errno set), 1 not yet (a wakeup that came early).
__attribute__((noinline)) CACS_HIDDEN int cacs__io_connect_finished(int fd);
/// cacs_connect's start, every engine's (the engine has made `fd`
/// non-blocking): 0 connected, -1 failed (errno set), 1 in progress
/// (EINPROGRESS, or EINTR: the connection goes on, connect(2)), to wait
/// for writable and ask cacs__io_connect_finished.
static inline __attribute__((always_inline)) int
io_connect_start(int fd, const struct sockaddr *addr, socklen_t addrlen) {
  if (connect(fd, addr, addrlen) == 0)
    return 0;
  if (errno != EINPROGRESS && errno != EINTR)
    return -1;
  return 1;
}
/// cacs_connect on a thread's engine, which has taken `fd` on: start it,
/// then wait for writable (`wait_out`, the engine's wait: 0 or an errno
/// value, under the call's deadline) and ask, until it is connected (0)
/// or has failed (-1, errno set). Inlined, `wait_out` a constant: the
/// engine's wait is a direct call. A pool coroutine's (io_pool.c) keeps
/// its own loop: it may resume on another worker (errno is set out of
/// line) and reads its record's generation before each wait.
static inline __attribute__((always_inline)) int
io_connect_thread(int fd, const struct sockaddr *addr, socklen_t addrlen,
                  int64_t timeout_us,
                  int (*wait_out)(int fd, struct io_deadline *d)) {
  int started = io_connect_start(fd, addr, addrlen);
  if (started <= 0)
    return started;
  struct io_deadline d = {timeout_us, 0};
  for (;;) {
    int e = wait_out(fd, &d);
    if (e) {
      errno = e;
      return -1;
    }
    int done = cacs__io_connect_finished(fd);
    if (done <= 0)
      return done;
  }
}

#endif // CACS_LIB_IO_INTERNAL_H
