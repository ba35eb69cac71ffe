//===- lib/io.c - Descriptor I/O for coroutines: the calls --------------===//
//
// The calls of cacs/io.h: each tries its system call and, on EAGAIN, waits
// for the direction it needs (io_wait.c, through the thread's engine,
// io_epoll.c) and tries again. A pool coroutine's calls take the cold
// path of a descriptor the thread's loop has no record of to io_pool.c.
// The files of the module and what each holds: io_internal.h.
//
// Readiness is cached per direction for TCP sockets, as Asio does: a read
// (or write) that moved fewer bytes than asked found the socket drained
// (full) at that moment, so the next call in that direction waits for the
// next edge without trying first, which would only meet EAGAIN (one system
// call saved per request on a ping-pong connection). Any event for the
// direction clears the mark. Sound because TCP ends a short read only on
// an empty queue, and every byte that arrives after the read makes an edge
// (and poll(2) reports the level it leaves); the states a read does not
// consume (end of file, an error, an urgent byte that stops a read short)
// make their own event (EPOLLRDHUP, EPOLLERR/HUP, EPOLLPRI; POLLRDHUP,
// ...), after which the descriptor is always tried. Other descriptors
// (pipes, UNIX sockets, whose short reads stop before passed descriptors)
// are always tried.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#define CACS__DEFINE_PN_ENTRIES 1 // the calls below are the entries (io.h)
#include "cacs/io.h"
#include "cacs/pool.h"
#include "cacs/syncblock.h"
#include "errors.h"
#include "internal.h"
#include "io_internal.h"
#include "pool/pool_io.h"
#include "sched.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

// The pool's (lib/pool/pool_io.c), weak: see io_pool.c.
#pragma weak cacs__pool_io_forget
#pragma weak cacs__pool_io_forget_any
#pragma weak cacs__pool_io_close
#pragma weak cacs_pool_sleep

int cacs_wait_fd(int fd, uint32_t events, int64_t timeout_us) {
  unsigned dirs = (events & EPOLLIN ? 1u << DIR_IN : 0) |
                  (events & EPOLLOUT ? 1u << DIR_OUT : 0);
  if (!dirs) {
    errno = EINVAL;
    return -1;
  }
  if ((size_t)fd >= L.nfds && cacs__io_pool_caller())
    return cacs__io_wait_fd_pool(fd, events, dirs, timeout_us);
  int ready = cacs__io_poll_now(fd, events);
  if (ready)
    return ready < 0 ? -1 : 0;
  // Each wait a tail call, so that this frame is not below the park: the
  // ring's, or the epoll loop's, which inside a sync block blocks in
  // poll(2) instead (before either engine would park).
  if (cacs_sync_depth() == 0 && cacs__io_on_ring())
    return cacs__uring_wait_fd(fd, dirs, timeout_us);
  return cacs__io_wait_fd_thread(fd, dirs, timeout_us);
}

// --- the calls ------------------------------------------------------------

// The engine of a call whose descriptor this loop's records do not know:
// the pool's for a pool coroutine, else the thread's, chosen at its first
// call (io_uring.h).
enum { ENGINE_POOL = CACS_IO_ENGINE_URING + 1 };
__attribute__((noinline, cold)) static int call_engine(void) {
  if (cacs__io_pool_caller())
    return ENGINE_POOL;
  return cacs__io_engine_pick();
}

// The one rule for such a call, every call's: a thread on its ring stays
// there (checked inline: a ring thread's every call comes here); else
// call_engine's choice. ENGINE_POOL, CACS_IO_ENGINE_URING or
// CACS_IO_ENGINE_EPOLL (then the epoll loop takes the descriptor on).
static inline __attribute__((always_inline)) int unknown_fd_engine(void) {
  if (cacs__io_engine == CACS_IO_ENGINE_URING)
    return CACS_IO_ENGINE_URING;
  return call_engine();
}

// Try the call, unless the direction is known drained and the call may
// wait (a zero timeout always tries); on EAGAIN wait for the direction it
// needs and try again.
static inline __attribute__((always_inline)) ssize_t
io_do(int fd, const struct io_op *op, struct io_deadline *d) {
  struct io_fd *r;
  if (__builtin_expect(FD_KNOWN(fd), 1)) {
    r = &L.fds[fd];
  } else {
    int engine = unknown_fd_engine();
    if (engine == CACS_IO_ENGINE_URING)
      return cacs__uring_io(fd, op, d);
    if (engine == ENGINE_POOL)
      return cacs__io_do_pool(fd,
                              (uint64_t)op->kind << 32 | (uint32_t)op->flags,
                              op->buf, op->n, op->addrlen, d);
    if (!(r = cacs__io_fd_setup(fd)))
      return -1;
  }
  int socket = r->socket; // `r` may move while we wait
  int dir = op->kind == OP_WRITE || op->kind == OP_WRITEV || op->kind == OP_SEND
                ? DIR_OUT
                : DIR_IN;
  for (;;) {
    r = &L.fds[fd];
    if (!r->drained[dir] || d->timeout_us == 0) {
      ssize_t n = op_try(fd, op, socket);
      if (n >= 0) {
        if (r->tcp && n > 0 && (size_t)n < op->n && op_short_drains(op))
          r->drained[dir] = 1;
        return n;
      }
      if (errno == EINTR)
        continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK)
        return -1;
    }
    int e = cacs__io_fd_wait(fd, 1u << dir, d);
    if (e) {
      errno = e;
      return -1;
    }
  }
}

// A transfer that started on the thread's ring, which a fork took, after
// the thread moved to the epoll loop (io_uring.h's CACS__URING_MOVED):
// io_do again, now the epoll loop's, on the deadline the call began. The
// ring's call jumps here (a tail call), so that its frame is not below
// this one's wait. Its own frame is the cost of the rare path: io_do out
// of the entry, which knew the call's kind (op_try's every system call is
// in this one's frame).
__attribute__((noinline, cold)) ssize_t
cacs__io_do_moved(int fd, const struct io_op *op, struct io_deadline *d) {
  return io_do(fd, op, d);
}

static inline __attribute__((always_inline)) ssize_t
io_call(int fd, struct io_op op, int64_t timeout_us) {
  struct io_deadline d = {timeout_us, 0};
  return io_do(fd, &op, &d);
}

ssize_t cacs_read(int fd, void *buf, size_t n, int64_t timeout_us) {
  return io_call(fd, (struct io_op){OP_READ, 0, buf, n, NULL}, timeout_us);
}

ssize_t cacs_write(int fd, const void *buf, size_t n, int64_t timeout_us) {
  return io_call(fd, (struct io_op){OP_WRITE, 0, (void *)buf, n, NULL},
                 timeout_us);
}

ssize_t cacs_readv(int fd, const struct iovec *iov, int iovcnt,
                   int64_t timeout_us) {
  return io_call(fd,
                 (struct io_op){OP_READV, 0, (void *)iov, (size_t)iovcnt, NULL},
                 timeout_us);
}

ssize_t cacs_writev(int fd, const struct iovec *iov, int iovcnt,
                    int64_t timeout_us) {
  return io_call(
      fd, (struct io_op){OP_WRITEV, 0, (void *)iov, (size_t)iovcnt, NULL},
      timeout_us);
}

ssize_t cacs_recv(int fd, void *buf, size_t n, int flags, int64_t timeout_us) {
  return io_call(fd, (struct io_op){OP_RECV, flags, buf, n, NULL}, timeout_us);
}

ssize_t cacs_send(int fd, const void *buf, size_t n, int flags,
                  int64_t timeout_us) {
  return io_call(fd, (struct io_op){OP_SEND, flags, (void *)buf, n, NULL},
                 timeout_us);
}

ssize_t cacs_write_all(int fd, const void *buf, size_t n, int64_t timeout_us) {
  struct io_deadline d = {timeout_us, 0};
  size_t done = 0;
  while (done < n) {
    struct io_op op = {OP_WRITE, 0, (char *)buf + done, n - done, NULL};
    ssize_t k = io_do(fd, &op, &d);
    if (k < 0)
      return -1;
    done += (size_t)k;
  }
  return (ssize_t)n;
}

// accept4's errors that say a connection was dropped between the kernel's
// queue and the call (accept(2): "treat them like EAGAIN"): the listener is
// fine, the next connection is taken at once.
static int accept_dropped(int e) {
  return e == ECONNABORTED || e == EPROTO || e == ENETDOWN ||
         e == ENOPROTOOPT || e == EHOSTDOWN || e == ENONET ||
         e == EHOSTUNREACH || e == EOPNOTSUPP || e == ENETUNREACH;
}

// Its errors that say the process or the system has no descriptor or no
// memory for one more connection now: they pass once connections close.
static int accept_starved(int e) {
  return e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM;
}

// The back-off's nap: the pool's sleep in a pool coroutine (linked if the
// caller is one), the thread's scheduler's otherwise; 0, or -1 with errno
// (EINTR: a cacs_wake; ENOMEM: no timer). Inside a sync block, where no
// coroutine may sleep, the thread sleeps.
static int accept_nap(int64_t usec) {
  if (cacs_sync_depth() != 0) {
    struct timespec ts = {(time_t)(usec / 1000000), usec % 1000000 * 1000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    return 0;
  }
  return cacs__io_pool_caller() ? cacs_pool_sleep(usec) : cacs_sleep(usec);
}

// Starved, the call backs off instead of failing, as Go's net/http and
// Boost.Asio's examples do: it naps 5 ms, doubling up to 1 s, and tries
// again, while the connections it could not take wait in the kernel's
// queue. A server loop that ends at accept's first error (docs/runtime.md's
// echo server) so keeps its established connections and serves new ones
// once descriptors free up. Within the caller's timeout: at it, ETIMEDOUT;
// with timeout 0, the error itself, as the call may not wait.
// The calls' engine (`uring`, a constant): this thread's epoll loop (or a
// pool coroutine's poller: io_do's choice), or its ring.
// On the ring, CACS__URING_MOVED too (accept_ring's).
static inline __attribute__((always_inline)) int
accept_loop(int lfd, struct sockaddr *addr, socklen_t *addrlen,
            struct io_deadline *d, int uring) {
  int64_t nap = 0;
  for (;;) {
    int c;
    if (uring) {
      c = cacs__uring_accept(lfd, addr, addrlen, remaining_us(d));
      if (c == CACS__URING_MOVED)
        return c;
    } else {
      struct io_op op = {OP_ACCEPT, 0, addr, 0, addrlen};
      c = (int)io_do(lfd, &op, d);
    }
    if (c >= 0)
      return c;
    int e = errno;
    if (accept_dropped(e))
      continue;
    if (!accept_starved(e) || d->timeout_us == 0)
      return -1;
    nap = nap ? (nap < 500000 ? nap * 2 : 1000000) : 5000;
    int64_t left = remaining_us(d);
    if (left == 0) {
      errno = ETIMEDOUT;
      return -1;
    }
    if (accept_nap(left > 0 && left < nap ? left : nap) != 0)
      return -1;
  }
}

// The io_uring engine's accept (it keeps its own record of the
// connection), out of cacs_accept's frame, which holds the epoll loop's
// inlined wait: a tail call, so that frame is not below the ring's (672
// bytes of the transfers' budget of 704 on x86-64 with it, a thread's
// first accept on io_uring; 560 without). A thread that lost its ring to a
// fork and moved to the epoll loop (CACS__URING_MOVED) makes the call
// again through cacs_accept, which then takes the epoll loop's path (the
// thread's engine is epoll for good): a tail call too, so that the loop's
// wait is not below this frame and the ring's (752 bytes on x86-64, a
// thread's first accept after such a fork). preserve_none, as its caller
// and that callee are, so that both calls can be tail calls.
__attribute__((noinline)) CACS__IO_PN static int
accept_ring(int lfd, struct sockaddr *addr, socklen_t *addrlen,
            int64_t timeout_us) {
  struct io_deadline d = {timeout_us, 0};
  int c = accept_loop(lfd, addr, addrlen, &d, 1);
  if (__builtin_expect(c != CACS__URING_MOVED, 1))
    return c;
  return cacs_accept(lfd, addr, addrlen, remaining_us(&d));
}

int cacs_accept(int lfd, struct sockaddr *addr, socklen_t *addrlen,
                int64_t timeout_us) {
  // A listener the epoll loop does not know yet goes to this thread's
  // engine.
  if (!FD_KNOWN(lfd) && unknown_fd_engine() == CACS_IO_ENGINE_URING)
    return accept_ring(lfd, addr, addrlen, timeout_us);
  struct io_deadline d = {timeout_us, 0};
  int c = accept_loop(lfd, addr, addrlen, &d, 0);
  if (c < 0)
    return -1;
  if ((size_t)lfd >= L.nfds) { // a pool coroutine's (io_pool.c)
    cacs__pool_io_forget(c);   // a new descriptor: what the number meant
    return c;                  // before is stale
  }
  int tcp = L.fds[lfd].tcp; // a connection of a TCP listener is TCP
  // A new descriptor: whatever the number meant before is stale.
  fd_forget(c, 0);
  struct io_fd *r = fd_rec(c);
  if (!r) {
    close(c);
    return -1;
  }
  r->known = 1;
  r->socket = 1;
  r->tcp = (unsigned char)tcp;
  return c;
}

// Out of line, so that a pool coroutine that resumed on another worker
// reads and sets its new thread's errno here.
int cacs__io_connect_finished(int fd) {
  int err = 0;
  socklen_t len = sizeof err;
  if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
    return -1;
  if (err) {
    errno = err;
    return -1;
  }
  struct sockaddr_storage peer;
  len = sizeof peer;
  if (getpeername(fd, (struct sockaddr *)&peer, &len) == 0)
    return 0;
  return errno == ENOTCONN ? 1 : -1;
}

// The epoll loop's wait of a connecting socket (io_connect_thread).
static inline __attribute__((always_inline)) int
connect_wait(int fd, struct io_deadline *d) {
  return cacs__io_fd_wait(fd, 1u << DIR_OUT, d);
}

int cacs_connect(int fd, const struct sockaddr *addr, socklen_t addrlen,
                 int64_t timeout_us) {
  if (!FD_KNOWN(fd)) {
    int engine = unknown_fd_engine();
    if (engine == ENGINE_POOL)
      return cacs__io_connect_pool(fd, addr, addrlen, timeout_us);
    if (engine == CACS_IO_ENGINE_URING)
      return cacs__uring_connect(fd, addr, addrlen, timeout_us);
  }
  if (!fd_prepare(fd))
    return -1;
  return io_connect_thread(fd, addr, addrlen, timeout_us, connect_wait);
}

// Both reach the records of every pool that knows the descriptor, from
// any thread or coroutine (a program that links no pool has none).
void cacs_io_forget(int fd) {
  fd_forget(fd, 1);
  if (cacs__pool_io_forget_any)
    cacs__pool_io_forget_any(fd);
}

int cacs_close(int fd) {
  fd_forget(fd, 0); // closing removes it from the epoll set
  return cacs__pool_io_close ? cacs__pool_io_close(fd) : close(fd);
}

// The default-convention symbols of the entries above (io.h).
CACS__DEFAULT_ENTRY(int, wait_fd, cacs_wait_fd,
                    (int fd, uint32_t events, int64_t t), (fd, events, t))
CACS__DEFAULT_ENTRY(ssize_t, read, cacs_read,
                    (int fd, void *buf, size_t n, int64_t t), (fd, buf, n, t))
CACS__DEFAULT_ENTRY(ssize_t, write, cacs_write,
                    (int fd, const void *buf, size_t n, int64_t t),
                    (fd, buf, n, t))
CACS__DEFAULT_ENTRY(ssize_t, readv, cacs_readv,
                    (int fd, const struct iovec *iov, int iovcnt, int64_t t),
                    (fd, iov, iovcnt, t))
CACS__DEFAULT_ENTRY(ssize_t, writev, cacs_writev,
                    (int fd, const struct iovec *iov, int iovcnt, int64_t t),
                    (fd, iov, iovcnt, t))
CACS__DEFAULT_ENTRY(ssize_t, recv, cacs_recv,
                    (int fd, void *buf, size_t n, int flags, int64_t t),
                    (fd, buf, n, flags, t))
CACS__DEFAULT_ENTRY(ssize_t, send, cacs_send,
                    (int fd, const void *buf, size_t n, int flags, int64_t t),
                    (fd, buf, n, flags, t))
CACS__DEFAULT_ENTRY(ssize_t, write_all, cacs_write_all,
                    (int fd, const void *buf, size_t n, int64_t t),
                    (fd, buf, n, t))
CACS__DEFAULT_ENTRY(int, accept, cacs_accept,
                    (int lfd, struct sockaddr *a, socklen_t *l, int64_t t),
                    (lfd, a, l, t))
CACS__DEFAULT_ENTRY(int, connect, cacs_connect,
                    (int fd, const struct sockaddr *a, socklen_t l, int64_t t),
                    (fd, a, l, t))
