//===- lib/pool/pool_io.c - Descriptor waits of pool coroutines ----------===//
//
// cacs/io.h's waits in pool coroutines (pool_io.h). One epoll instance per
// pool, not per worker: a pool coroutine may resume on any worker, so a
// descriptor has no worker to belong to, and any idle worker can poll every
// descriptor of the pool. The workers' loop (pool_worker.c) polls it:
//   - an idle worker that finds no work becomes the pool's poller (one at a
//     time) and sleeps in epoll_wait until an event, its earliest timer, or
//     a kick: the pool's eventfd, in the epoll set, which cacs__pool_notify
//     writes when work arrives and no worker sleeping on the futex took it;
//   - a busy worker polls without sleeping every 61 coroutines, as it looks
//     at the shared queue, so readiness is seen while every worker is busy.
// The worker that polls an event wakes the waiters (cacs__pool_wake, the
// same token as their timeout: exactly one wins). Where a woken waiter
// resumes is the pool's rule (cacs/pool.h, pool_internal.h): by default on
// its home worker (the one that started it), which the wake wakes if it
// sleeps; with CACS_POOL_MIGRATE_RUNNING on the polling worker's deque,
// unless an idle worker steals it first, or, polled by a busy worker's
// turn, on the shared queue, behind what is ready (pool_ready.c).
//
// Each descriptor is registered once, edge-triggered, for both directions,
// the first time a coroutine waits on it (as io_epoll.c's epoll mode). Its record
// counts the events per direction (`gen`) under the record's lock: a caller
// reads the count before its system call, and its wait returns at once if
// the count moved, so an edge that comes between the EAGAIN and the wait
// (possibly polled by another worker) is not lost. A waiter links a node on
// its stack under the lock and parks with an `after` hook that releases the
// lock once it is switched out; the poller and cacs__pool_io_forget wake it
// while they hold the lock, so a waiter that timed out cannot return (and
// its node vanish) while they still use it.
//
// Records live in chunks of 256 that never move (the epoll data points at
// them) and are freed with the pool.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "pool_io.h"
#include "pool_internal.h"
#include "pool_park_inline.h"
#include "pool_spin.h"

#include "../core.h"
#include "../errors.h"
#include "../fd_probe.h"
#include "../sched.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

// The io_uring engine is in libcacs_io (pool_io.h).
#pragma weak cacs__pool_ring_forget

enum { DIR_IN = 0, DIR_OUT = 1 };
enum { WAIT_PENDING = -1 };
enum { CHUNK_BITS = 8, CHUNK = 1 << CHUNK_BITS, NCHUNKS = 1 << 14 };
// While descriptors are registered, how often the poller checks those
// that have waiters (sweep).
enum { SWEEP_NS = 1000000000 };
// The epoll data of the pool's own descriptors: below any record's address.
enum { KICK_MARK = 0, SWEEP_MARK = 1 };

struct pio_waiter {
  struct pio_waiter *next, *prev; // prev == NULL: first of its list
  cacs__ptask *task;
  // WAIT_PENDING, then 0 (ready) or ECANCELED (forgotten): written under
  // the record's lock before the wake; read without it by a waiter that
  // this wake resumed (cacs__pool_io_wait).
  _Atomic int result;
};

typedef struct pio_fd {
  // First: what io_pool.c uses inline (pool_io.h); `gen` is written under
  // `lock`, read without it.
  cacs__pool_fd hot;
  uint32_t lock; // pool_spin.h
  struct pool_io *io;
  struct pio_waiter *waiters[2]; // DIR_IN, DIR_OUT
  // O_NONBLOCK set and `flags` valid: set (release) under `lock` once
  // `flags` is written, so cacs__pool_io_prepare reads both without it.
  _Atomic unsigned char known;
  _Atomic unsigned char flags; // 1: a socket, 2: TCP
  unsigned char registered;    // in the epoll set
  // cacs_close calls between their forget and the end of their close(2)
  // (under `lock`): a wait then retries its call instead of parking.
  unsigned char closing;
  int fd;
} pio_fd;

struct pool_io {
  int epfd, evfd, tfd;
  int no_pwait2;        // epoll_pwait2 missing (older kernels, qemu-user)
  struct pool_io *next; // every pool's poller (`all`, under create_lock)
  // The sweep's timer (tfd, a timerfd in the epoll set) is armed: set by
  // a registration, cleared by a sweep that finds no descriptor left.
  _Atomic unsigned char sweeping;
  _Atomic unsigned chunks_end; // 1 + the highest chunk made: the sweep's end
  _Atomic(pio_fd *) chunks[NCHUNKS];
};

// --- the pool's poller and records ------------------------------------------

// Guards the making of pollers and the list of every pool's poller, which
// cacs_close and cacs_io_forget from outside a pool (or from another
// pool's coroutine) walk to find the pools that know the descriptor.
static pthread_mutex_t create_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pool_io *all;
static _Atomic unsigned n_all; // the length of `all`, read without the lock

struct make_io {
  cacs_pool *p;
  struct pool_io *io;
};

// The pool's poller: calloc and five system calls, run on the worker's own
// stack (cacs__deep_call, core.h), so that the waits' stack budget
// (cacs/detail/contract.h), which a pool coroutine's exact stack is sized
// by, need not hold them.
static void make_io(void *arg) {
  struct make_io *m = arg;
  cacs_pool *p = m->p;
  struct pool_io *io;
  pthread_mutex_lock(&create_lock);
  io = atomic_load_explicit(&p->io, memory_order_relaxed);
  if (!io && (io = calloc(1, sizeof *io))) {
    io->epfd = epoll_create1(EPOLL_CLOEXEC);
    io->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    io->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    struct epoll_event ev = {EPOLLIN, {.u64 = KICK_MARK}};
    struct epoll_event tev = {EPOLLIN, {.u64 = SWEEP_MARK}};
    if (io->epfd < 0 || io->evfd < 0 || io->tfd < 0 ||
        epoll_ctl(io->epfd, EPOLL_CTL_ADD, io->evfd, &ev) != 0 ||
        epoll_ctl(io->epfd, EPOLL_CTL_ADD, io->tfd, &tev) != 0) {
      int e = cacs__errno();
      if (io->epfd >= 0)
        close(io->epfd);
      if (io->evfd >= 0)
        close(io->evfd);
      if (io->tfd >= 0)
        close(io->tfd);
      free(io);
      io = NULL;
      cacs__set_errno(e);
    } else {
      io->next = all;
      all = io;
      atomic_fetch_add_explicit(&n_all, 1, memory_order_relaxed);
      atomic_store_explicit(&p->io, io, memory_order_release);
    }
  } else if (!io) {
    cacs__set_errno(ENOMEM);
  }
  pthread_mutex_unlock(&create_lock);
  m->io = io;
}

// The pool's poller, created on the first wait; NULL with errno set.
static struct pool_io *io_of(cacs_pool *p) {
  struct pool_io *io = atomic_load_explicit(&p->io, memory_order_acquire);
  if (io)
    return io;
  struct make_io m = {p, NULL};
  cacs__deep_call(make_io, &m);
  return m.io;
}

// A chunk of records (calloc: on the worker's own stack, as make_io).
static void chunk_alloc(void *arg) {
  *(pio_fd **)arg = calloc(CHUNK, sizeof(pio_fd));
}

// The record of `fd`, made on first use; NULL with errno EBADF or ENOMEM.
// EBADF too for the poller's own descriptors. The pool makes them in its
// first call of cacs/io.h, and they take the lowest free numbers: the
// number of a descriptor that another thread closed as that call began is
// the pool's epoll instance, eventfd or timerfd by the time the call uses
// it. Read or written as the caller's descriptor, it would fail with
// EINVAL (no error of read(2) on a closed descriptor), or worse, an 8-byte
// write would count into the pool's eventfd; to the caller it is a closed
// descriptor, EBADF, as if the pool had made its descriptors before.
static pio_fd *rec(struct pool_io *io, int fd) {
  if (fd < 0 || (size_t)fd >= (size_t)NCHUNKS * CHUNK) {
    cacs__set_errno(EBADF);
    return NULL;
  }
  _Atomic(pio_fd *) *slot = &io->chunks[fd >> CHUNK_BITS];
  pio_fd *c = atomic_load_explicit(slot, memory_order_acquire);
  if (!c) {
    pio_fd *n = NULL;
    cacs__deep_call(chunk_alloc, &n);
    if (!n) {
      cacs__set_errno(ENOMEM);
      return NULL;
    }
    for (int i = 0; i < CHUNK; ++i) {
      n[i].io = io;
      n[i].fd = (fd & ~(CHUNK - 1)) + i;
      n[i].hot.own =
          n[i].fd == io->epfd || n[i].fd == io->evfd || n[i].fd == io->tfd;
    }
    if (atomic_compare_exchange_strong_explicit(
            slot, &c, n, memory_order_acq_rel, memory_order_acquire)) {
      c = n;
      unsigned end = (unsigned)(fd >> CHUNK_BITS) + 1,
               was =
                   atomic_load_explicit(&io->chunks_end, memory_order_relaxed);
      while (was < end && !atomic_compare_exchange_weak_explicit(
                              &io->chunks_end, &was, end, memory_order_relaxed,
                              memory_order_relaxed)) {
      }
      // Against the sweep's fence: a registration in this chunk that reads
      // a `sweeping` older than a sweep's clear is in a chunk it walks.
      atomic_thread_fence(memory_order_seq_cst);
    } else {
      free(n); // another thread made it first
    }
  }
  pio_fd *r = &c[fd & (CHUNK - 1)];
  if (__builtin_expect(r->hot.own, 0)) {
    cacs__set_errno(EBADF);
    return NULL;
  }
  return r;
}

cacs__pool_fd *cacs__pool_io_fd(int fd) {
  struct pool_io *io = io_of(cacs__pool_self()->pool);
  pio_fd *r = io ? rec(io, fd) : NULL;
  return r ? &r->hot : NULL;
}

// The whole record of what cacs__pool_io_fd handed out (its first member).
static pio_fd *whole(cacs__pool_fd *h) { return (pio_fd *)h; }

// --- waking ----------------------------------------------------------------

// Under r->lock.
static int wake_all(pio_fd *r, int dir, int result) {
  int n = 0;
  struct pio_waiter *w = r->waiters[dir];
  r->waiters[dir] = NULL;
  while (w) {
    struct pio_waiter *next = w->next;
    w->next = w->prev = NULL;
    atomic_store_explicit(&w->result, result, memory_order_relaxed);
    n += cacs__pool_wake(w->task);
    w = next;
  }
  return n;
}

// A new event in `dir` (under r->lock).
static void bump(pio_fd *r, int dir) {
  atomic_store_explicit(
      &r->hot.gen[dir],
      atomic_load_explicit(&r->hot.gen[dir], memory_order_relaxed) + 1,
      memory_order_release);
}

static void unlink_waiter(pio_fd *r, int dir, struct pio_waiter *w) {
  if (w->prev)
    w->prev->next = w->next;
  else
    r->waiters[dir] = w->next;
  if (w->next)
    w->next->prev = w->prev;
}

// --- io_pool.c's side ---------------------------------------------------------

// cacs__pool_io_prepare's first look at a descriptor: three or four system
// calls and a struct stat, on the worker's own stack (cacs__deep_call, as
// make_io), once per descriptor.
struct prepare {
  pio_fd *r;
  int ret;
};
static void prepare(void *arg);

int cacs__pool_io_prepare(cacs__pool_fd *h) {
  pio_fd *r = whole(h);
  if (atomic_load_explicit(&r->known, memory_order_acquire))
    return atomic_load_explicit(&r->flags, memory_order_relaxed);
  struct prepare m = {r, -1};
  cacs__deep_call(prepare, &m);
  return m.ret;
}

static void prepare(void *arg) {
  struct prepare *m = arg;
  pio_fd *r = m->r;
  int fd = r->fd;
  spin_lock(&r->lock);
  int ret = atomic_load_explicit(&r->flags, memory_order_relaxed);
  if (!atomic_load_explicit(&r->known, memory_order_relaxed)) {
    struct stat st;
    int sock = fd_probe(fd, &st), proto = 0;
    if (sock < 0) {
      ret = -1;
    } else {
      socklen_t len = sizeof proto;
      int tcp = sock &&
                getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) == 0 &&
                proto == IPPROTO_TCP;
      ret = sock | tcp << 1;
      r->hot.dev = (uint64_t)st.st_dev;
      r->hot.ino = (uint64_t)st.st_ino;
      atomic_store_explicit(&r->flags, (unsigned char)ret,
                            memory_order_relaxed);
      atomic_store_explicit(&r->known, 1, memory_order_release);
    }
  }
  spin_unlock(&r->lock);
  m->ret = ret;
}

// The generations of both directions as one number (IN high, OUT low).
static uint64_t gens(const pio_fd *r) { return cacs__pool_io_gen(&r->hot); }

static uint32_t gen_of(uint64_t g, int dir) {
  return cacs__pool_io_gen_of(g, dir);
}

// epoll_ctl(2) of the record, both directions: 0 or its errno.
static int ctl(struct pool_io *io, int op, pio_fd *r) {
  struct epoll_event ev = {EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLPRI | EPOLLET,
                           {.ptr = r}};
  return epoll_ctl(io->epfd, op, r->fd, &ev) == 0 ? 0 : cacs__errno();
}

// Forget what the record knows (under r->lock), waking its waiters with
// `result`: ECANCELED (cacs__pool_io_forget) or EBADF (closed behind the
// pool's back, cacs__pool_io_wait).
static int reset(pio_fd *r, int result) {
  int n = wake_all(r, DIR_IN, result) + wake_all(r, DIR_OUT, result);
  r->registered = 0;
  atomic_store_explicit(&r->flags, 0, memory_order_relaxed);
  atomic_store_explicit(&r->known, 0, memory_order_relaxed);
  atomic_store_explicit(&r->hot.no_cache, 0, memory_order_relaxed);
  bump(r, DIR_IN); // an event polled before the DEL finds a new generation
  bump(r, DIR_OUT);
  return n;
}

void cacs__pool_io_stale(cacs__pool_fd *h) {
  pio_fd *r = whole(h);
  spin_lock(&r->lock);
  reset(r, EBADF);
  spin_unlock(&r->lock);
}

// The sweep's timer: once, SWEEP_NS from now.
static void arm_sweep(struct pool_io *io) {
  struct itimerspec its = {{0, 0},
                           {SWEEP_NS / 1000000000, SWEEP_NS % 1000000000}};
  timerfd_settime(io->tfd, 0, &its, NULL);
}

// A descriptor was registered (under its record's lock): sweeps are due.
// The first since the timer stopped arms it. Under the record's lock, so
// that a sweep that cleared `sweeping` either saw this registration (and
// re-arms) or is seen to have cleared it (see sweep).
static void note_registered(struct pool_io *io) {
  if (atomic_load_explicit(&io->sweeping, memory_order_relaxed))
    return;
  atomic_store_explicit(&io->sweeping, 1, memory_order_relaxed);
  arm_sweep(io);
}

static void unlock_after(void *arg) { spin_unlock(&((pio_fd *)arg)->lock); }

// The system calls of a wait (under r->lock), each on the worker's own
// stack (cacs__deep_call): epoll_ctl(2) and timerfd_settime(2) take their
// arguments in memory, which would otherwise be in the wait's frame, and
// that frame stays on the coroutine's stack while it is parked (the waits'
// stack budget, cacs/detail/contract.h). `e`: the result.
struct rec_call {
  pio_fd *r;
  int e;
};

// A record's first wait: both directions, once (the readiness found now
// comes as an event), and the sweeps are due. 0, or epoll_ctl's errno.
static void register_deep(void *arg) {
  struct rec_call *c = arg;
  pio_fd *r = c->r;
  int e = ctl(r->io, EPOLL_CTL_ADD, r);
  c->e = e && e != EEXIST ? e : 0; // EPERM: a file epoll cannot wait for
  if (c->e)
    return;
  r->registered = 1;
  note_registered(r->io);
}

// A timed-out wait: was the descriptor closed behind the pool's back
// (close(2) without cacs_close)? The kernel then dropped it from the
// epoll set, so no event will ever come: EBADF (closed) or ENOENT (its
// number is now another file's) from a re-arm tells, at one system call
// per timeout. Every waiter then fails with EBADF, and the record starts
// afresh (`e` EBADF; else 0).
static void stale_deep(void *arg) {
  struct rec_call *c = arg;
  pio_fd *r = c->r;
  int e = ctl(r->io, EPOLL_CTL_MOD, r);
  c->e = 0;
  if (e == EBADF || e == ENOENT) {
    reset(r, EBADF);
    c->e = EBADF;
  }
}

// cacs__pool_io_wait and cacs__pool_io_wait_fd (pool_io.h): one body in
// two conventions.
static inline __attribute__((always_inline)) int
io_wait(cacs__pool_fd *h, unsigned dirs, uint64_t gen, uint64_t deadline_ns) {
  pio_fd *r = whole(h);
  cacs__ptask *t = cacs__pool_self();
  spin_lock(&r->lock);
  if (r->closing) {
    // A cacs_close forgot the descriptor and has not closed it yet: a wait
    // registered now would leave the epoll set unseen at the close and
    // never end. Let the closer finish (it does not park in between), then
    // the caller retries: EBADF, or the new file that took the number.
    // The yield inlined, as the park is: a call's frames would lie below
    // this one, past the wait's budget (pool_park_inline.h).
    spin_unlock(&r->lock);
    cacs__pool_yield_inline(t);
    return 0;
  }
  if (!r->registered) {
    struct rec_call c = {r, 0};
    cacs__deep_call(register_deep, &c);
    if (c.e) {
      spin_unlock(&r->lock);
      return c.e;
    }
  }
  uint64_t now = gens(r);
  if (((dirs & 1) && gen_of(now, DIR_IN) != gen_of(gen, DIR_IN)) ||
      ((dirs & 2) && gen_of(now, DIR_OUT) != gen_of(gen, DIR_OUT))) {
    spin_unlock(&r->lock);
    return 0; // an event came since the caller's attempt: try again
  }
  int parked, result = -1;
  { // The nodes' scope: what follows may share their stack slots.
    struct pio_waiter w[2];
    for (int dir = 0; dir < 2; ++dir) {
      w[dir].task = t;
      atomic_store_explicit(&w[dir].result, WAIT_PENDING, memory_order_relaxed);
      if (dirs & (1u << dir)) {
        w[dir].prev = NULL;
        w[dir].next = r->waiters[dir];
        if (w[dir].next)
          w[dir].next->prev = &w[dir];
        r->waiters[dir] = &w[dir];
      }
    }
    parked = cacs__pool_park_inline(t, unlock_after, r, deadline_ns, 0);
    // Woken (not timed out) in one direction: the wake that won is the one
    // that unlinked the node and wrote its result (pool_park.h: only a wake
    // of this park may wake it), and it touches neither again: no lock.
    if (parked == 0 && dirs != 3) {
      int d = dirs == 1 ? DIR_IN : DIR_OUT;
      int res = atomic_load_explicit(&w[d].result, memory_order_relaxed);
      if (res != WAIT_PENDING)
        return res;
    }
    if (parked != ENOMEM) // ENOMEM: did not park, the lock is still held
      spin_lock(&r->lock);
    for (int dir = 0; dir < 2; ++dir) {
      if (!(dirs & (1u << dir)))
        continue;
      int res = atomic_load_explicit(&w[dir].result, memory_order_relaxed);
      if (res == WAIT_PENDING)
        unlink_waiter(r, dir, &w[dir]);
      else if (result != ECANCELED)
        result = res;
    }
  }
  // Timed out: closed behind the pool's back?
  if (result < 0 && parked == ETIMEDOUT && r->registered) {
    struct rec_call c = {r, 0};
    cacs__deep_call(stale_deep, &c);
    if (c.e)
      result = c.e;
  }
  spin_unlock(&r->lock);
  if (result >= 0)
    return result; // ready (even if the timer fired too), forgotten, closed
  return parked;   // ETIMEDOUT, ENOMEM
}

CACS__IO_PN int cacs__pool_io_wait(cacs__pool_fd *h, unsigned dirs,
                                   uint64_t gen, uint64_t deadline_ns) {
  return io_wait(h, dirs, gen, deadline_ns);
}

CACS__IO_PN int cacs__pool_io_wait_fd(cacs__pool_fd *h, unsigned dirs,
                                      uint64_t gen, uint64_t deadline_ns) {
  return cacs__result(io_wait(h, dirs, gen, deadline_ns));
}

// The record of `fd` in `io` if it has one (NULL: never seen).
static pio_fd *known_rec(struct pool_io *io, int fd) {
  if (!io || fd < 0 || (size_t)fd >= (size_t)NCHUNKS * CHUNK)
    return NULL;
  pio_fd *c =
      atomic_load_explicit(&io->chunks[fd >> CHUNK_BITS], memory_order_acquire);
  return c ? &c[fd & (CHUNK - 1)] : NULL;
}

// Forget `fd` in `io` (its waiters: ECANCELED); `closing` +1: a close
// follows (cacs__pool_io_close), -1: it is done.
static void forget_in(struct pool_io *io, int fd, int closing) {
  pio_fd *r = known_rec(io, fd);
  if (!r)
    return;
  spin_lock(&r->lock);
  if (closing < 0) {
    // (A record made since the forget was never marked.)
    if (r->closing)
      --r->closing;
    // What a call learned of the descriptor while it was being closed
    // (cacs__pool_io_prepare: non-blocking, a socket) was of the closed
    // file: a new file that takes the number must be prepared afresh, or
    // a blocking one would be read with read(2) on the worker's thread.
    atomic_store_explicit(&r->flags, 0, memory_order_relaxed);
    atomic_store_explicit(&r->known, 0, memory_order_relaxed);
  } else {
    if (r->registered)
      epoll_ctl(io->epfd, EPOLL_CTL_DEL, fd, NULL);
    reset(r, ECANCELED);
    r->closing = (unsigned char)(r->closing + closing);
  }
  // The requests on the workers' rings (io_pool_uring.c), if any.
  if (cacs__pool_ring_forget)
    cacs__pool_ring_forget(&r->hot, closing);
  spin_unlock(&r->lock);
}

// The calling pool coroutine's pool's poller, NULL if none.
static struct pool_io *own_io(void) {
  cacs__ptask *t = cacs__pool_self();
  return t ? atomic_load_explicit(&t->pool->io, memory_order_acquire) : NULL;
}

void cacs__pool_io_forget(int fd) { forget_in(own_io(), fd, 0); }

// forget_in(..., closing) on every pool's poller; the caller's own first,
// without the global lock; the others (a caller outside any pool, or
// several pools) under create_lock, which the caller then holds (*locked).
static void forget_everywhere(struct pool_io *own, int fd, int closing,
                              int *locked) {
  forget_in(own, fd, closing);
  if (!*locked &&
      atomic_load_explicit(&n_all, memory_order_relaxed) > (own != NULL)) {
    pthread_mutex_lock(&create_lock);
    *locked = 1;
  }
  if (*locked)
    for (struct pool_io *io = all; io; io = io->next)
      if (io != own)
        forget_in(io, fd, closing);
}

void cacs__pool_io_forget_any(int fd) {
  int locked = 0;
  forget_everywhere(own_io(), fd, 0, &locked);
  if (locked)
    pthread_mutex_unlock(&create_lock);
}

int cacs__pool_io_close(int fd) {
  struct pool_io *own = own_io();
  int locked = 0;
  forget_everywhere(own, fd, 1, &locked);
  int rc = close(fd), e = rc ? cacs__errno() : 0;
  // The pools stay listed while the lock is held (cacs__pool_io_free).
  forget_in(own, fd, -1);
  if (locked) {
    for (struct pool_io *io = all; io; io = io->next)
      if (io != own)
        forget_in(io, fd, -1);
    pthread_mutex_unlock(&create_lock);
  }
  if (rc)
    cacs__set_errno(e);
  return rc;
}

// --- the worker loop's side (pool_worker.c) ----------------------------------

static int io_epoll_wait(struct pool_io *io, struct epoll_event *ev, int block,
                         uint64_t deadline_ns) {
  const int max = CACS__POOL_IO_EVENTS;
  if (!block)
    return epoll_wait(io->epfd, ev, max, 0);
  if (!deadline_ns)
    return epoll_wait(io->epfd, ev, max, -1);
  uint64_t now = cacs__now_ns();
  uint64_t left = deadline_ns > now ? deadline_ns - now : 0;
  if (!io->no_pwait2) {
    struct timespec ts = {(time_t)(left / 1000000000u),
                          (long)(left % 1000000000u)};
    int n = epoll_pwait2(io->epfd, ev, max, &ts, NULL);
    if (n >= 0 || cacs__errno() != ENOSYS)
      return n;
    io->no_pwait2 = 1;
  }
  // Milliseconds, rounded up: a timer is never polled early.
  uint64_t ms = (left + 999999u) / 1000000u;
  return epoll_wait(io->epfd, ev, max, ms > INT_MAX ? INT_MAX : (int)ms);
}

// --- the sweep ---------------------------------------------------------------
// A descriptor closed by close(2) (not cacs_close) leaves the epoll set
// unseen: a wait with a timeout finds out when it times out (the re-arm in
// cacs__pool_io_wait), one without would wait for ever. So while the pool
// has registered descriptors, a timer in the epoll set fires once per
// SWEEP_NS, and the worker that polls it re-arms each registered
// descriptor that has waiters: EBADF or ENOENT (the number is another
// file's now) fails them with EBADF. The timer stops when a sweep finds no
// descriptor registered; a registration (a descriptor's first wait)
// restarts it. Neither a wait nor a poll pays anything for it (a mark per
// wait without a timeout, to sweep only for those, cost 7 instructions a
// wait); an idle pool with registered descriptors wakes once per SWEEP_NS.

// \return the waiters woken (EBADF).
static int sweep(struct pool_io *io) {
  uint64_t v;
  ssize_t k = read(io->tfd, &v, sizeof v); // level-triggered
  (void)k;
  // Cleared first: a registration in a record this walk has passed sees
  // the clear (the record's lock orders them) and arms the timer itself;
  // one this walk finds keeps it going.
  atomic_store_explicit(&io->sweeping, 0, memory_order_relaxed);
  atomic_thread_fence(memory_order_seq_cst); // see rec()
  int woken = 0, left = 0;
  unsigned end = atomic_load_explicit(&io->chunks_end, memory_order_relaxed);
  for (size_t i = 0; i < end; ++i) {
    pio_fd *c = atomic_load_explicit(&io->chunks[i], memory_order_acquire);
    for (int j = 0; c && j < CHUNK; ++j) {
      pio_fd *r = &c[j];
      spin_lock(&r->lock);
      if (r->registered && (r->waiters[DIR_IN] || r->waiters[DIR_OUT])) {
        int e = ctl(io, EPOLL_CTL_MOD, r);
        if (e == EBADF || e == ENOENT)
          woken += reset(r, EBADF); // (no longer registered)
      }
      left |= r->registered;
      spin_unlock(&r->lock);
    }
  }
  if (left) {
    atomic_store_explicit(&io->sweeping, 1, memory_order_relaxed);
    arm_sweep(io);
  }
  return woken;
}

int cacs__pool_io_wait_events(cacs_pool *p, struct epoll_event *ev, int block,
                              uint64_t deadline_ns) {
  struct pool_io *io = atomic_load_explicit(&p->io, memory_order_acquire);
  return io ? io_epoll_wait(io, ev, block, deadline_ns) : 0;
}

int cacs__pool_io_dispatch(cacs_pool *p, const struct epoll_event *ev, int n) {
  struct pool_io *io = atomic_load_explicit(&p->io, memory_order_relaxed);
  int woken = 0;
  for (int i = 0; i < n; ++i) {
    pio_fd *r = ev[i].data.ptr;
    uint32_t e = ev[i].events;
    if (ev[i].data.u64 <= SWEEP_MARK) {
      if (ev[i].data.u64 == SWEEP_MARK) {
        woken += sweep(io);
      } else { // a kick: reset the eventfd (level-triggered)
        uint64_t v;
        ssize_t k = read(io->evfd, &v, sizeof v);
        (void)k;
      }
      continue;
    }
    spin_lock(&r->lock);
    if (e & (EPOLLRDHUP | EPOLLHUP | EPOLLERR | EPOLLPRI))
      atomic_store_explicit(&r->hot.no_cache, 1, memory_order_relaxed);
    if (e & (EPOLLIN | EPOLLPRI | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
      bump(r, DIR_IN);
      woken += wake_all(r, DIR_IN, 0);
    }
    if (e & (EPOLLOUT | EPOLLHUP | EPOLLERR)) {
      bump(r, DIR_OUT);
      woken += wake_all(r, DIR_OUT, 0);
    }
    spin_unlock(&r->lock);
  }
  return woken;
}

void cacs__pool_io_kick(cacs_pool *p) {
  struct pool_io *io = atomic_load_explicit(&p->io, memory_order_acquire);
  if (!io)
    return;
  uint64_t one = 1;
  ssize_t k = write(io->evfd, &one, sizeof one);
  (void)k; // EAGAIN: the counter is full, the poller is woken anyway
}

void cacs__pool_io_free(cacs_pool *p) {
  struct pool_io *io = atomic_load_explicit(&p->io, memory_order_relaxed);
  if (!io)
    return;
  pthread_mutex_lock(&create_lock);
  struct pool_io **at = &all;
  while (*at != io)
    at = &(*at)->next;
  *at = io->next;
  atomic_fetch_sub_explicit(&n_all, 1, memory_order_relaxed);
  pthread_mutex_unlock(&create_lock);
  for (size_t i = 0; i < NCHUNKS; ++i) {
    pio_fd *c = atomic_load_explicit(&io->chunks[i], memory_order_relaxed);
    if (!c)
      continue;
    free(c);
  }
  close(io->epfd);
  close(io->evfd);
  close(io->tfd);
  free(io);
  p->io = NULL;
}
