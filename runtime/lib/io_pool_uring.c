//===- lib/io_pool_uring.c - Pool coroutines' calls on io_uring -----------===//
//
// The io_uring engine of the pool (cacs/pool.h, lib/pool/pool_io.h): one
// ring per worker, made by the worker's thread as it starts when io_uring
// is asked for (CACS_IO_ENGINE=uring, cacs_io_set_engine); if any worker
// cannot make one, the pool runs on its epoll poller (pool_worker.c).
//
// A pool coroutine's transfer (cacs_read ... cacs_send) is a request on the
// ring of the worker it runs on, as on a thread's ring (io_uring.c): the
// request lives in the coroutine's frame, the coroutine parks, and the
// worker's loop submits the requests its coroutines queued and reaps the
// completions once per pass (when its own queues run dry, every 61
// coroutines, and in its idle wait, where it sleeps in the ring while it
// has requests in flight; a busy worker lets completions gather there as a
// busy thread does, io_uring.c's ur_wait_batch, and goes to that wait as
// soon as it is out of work). A wait for readiness (cacs_wait_fd,
// cacs_connect, cacs_accept's empty queue, a file that will not wait) is a
// poll request on the same ring.
//
// The rule that makes migration safe: a request completes on the ring it
// was submitted to, and its coroutine does not run until that ring's
// worker has reaped the completion. So nothing but the completion wakes
// the coroutine: its timeout is a linked timeout on the same ring (the
// request then completes with ECANCELED; the coroutine waits for the
// timeout's own completion too, see reap), and cacs_close or cacs_io_forget
// from any thread marks the descriptor's requests closed and kicks their
// workers, each of which cancels its own (or turns one not submitted yet
// into a no-op) in its next pass. Once reaped, the coroutine may resume on
// any worker the pool's rule allows (its home by default), and its next
// request goes to that worker's ring.
//
// Against cacs_close: a request is linked to its descriptor's list before
// it is queued, under the record's `ulock`, and not at all while a close
// is between its forget and its close(2) (the coroutine yields and tries
// again: EBADF, or the file that took the number). A request the forget
// saw is canceled by its worker even if it is submitted only after the
// forget: the cancellation names the request, not the descriptor.
//
// What differs from the epoll poller: a descriptor closed with close(2)
// behind the pool's back keeps its requests (the kernel holds the file)
// until their timeout, as on a thread's ring (cacs/io.h), where the
// poller's sweep fails them with EBADF within a second.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "cacs/io.h"
#include "errors.h"
#include "io_internal.h"
#include "io_op.h"
#include "pool/pool_io.h"
#include "pool/pool_park.h"

#ifndef CACS_HAVE_LIBURING

// Built without liburing: every pool runs on its epoll poller.
int cacs__pool_ring_new(struct cacs__pool_ring **out) {
  *out = NULL;
  return 0;
}
int cacs__pool_ring_pass(struct cacs__pool_ring *r, int block,
                         uint64_t deadline_ns) {
  (void)r, (void)block, (void)deadline_ns;
  return 0;
}
int cacs__pool_ring_busy(const struct cacs__pool_ring *r) {
  (void)r;
  return 0;
}
int cacs__pool_ring_gather(const struct cacs__pool_ring *r) {
  (void)r;
  return 0;
}
void cacs__pool_ring_kick(struct cacs__pool_ring *r) { (void)r; }
void cacs__pool_ring_free(struct cacs__pool_ring *r) { (void)r; }
void cacs__pool_ring_forget(cacs__pool_fd *h, int closing) {
  (void)h, (void)closing;
}
int cacs__pool_ring_on(void) { return 0; }
ssize_t cacs__pool_ring_io(int fd, cacs__pool_fd *h, uint64_t kind_flags,
                           void *buf, size_t n, struct io_deadline *d) {
  (void)fd, (void)h, (void)kind_flags, (void)buf, (void)n, (void)d;
  cacs__set_errno(ENOSYS);
  return -1;
}
CACS__IO_PN int cacs__pool_ring_wait(int fd, cacs__pool_fd *h, unsigned dirs,
                                     uint64_t at_ns) {
  (void)fd, (void)h, (void)dirs, (void)at_ns;
  return ENOSYS;
}
CACS__IO_PN int cacs__pool_ring_wait_fd(int fd, cacs__pool_fd *h, unsigned dirs,
                                        uint64_t at_ns) {
  (void)fd, (void)h, (void)dirs, (void)at_ns;
  cacs__set_errno(ENOSYS);
  return -1;
}

#else // CACS_HAVE_LIBURING

#include "pool/pool_park_inline.h"
#include "pool/pool_spin.h"
#include "valgrind_requests.h"

#include <liburing.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/stat.h>

// The pool's, weak: a program whose I/O calls never run in a pool links
// none of it (io_pool.c).
#pragma weak cacs__pool_worker
#pragma weak cacs__pool_resumed
#pragma weak cacs__pool_resumed_from_loop
#pragma weak cacs__pool_wake
#pragma weak cacs__pool_yield
#pragma weak cacs__pool_io_stale

// Submission and completion queues, as a thread's ring (io_uring.c).
enum { PR_SQ = 256, PR_CQ = 4096 };
// Completions that are no request's: cancellations, no-ops, and the watch
// of the ring's eventfd. A linked timeout's is its request's address with
// PR_LTIMEOUT set (a struct preq is aligned: the bit is free).
enum { PR_IGNORE = 0, PR_KICK = 1, PR_LTIMEOUT = 1 };

struct cacs__pool_ring {
  struct io_uring ring;
  int evfd;            // cacs__pool_ring_kick writes it
  unsigned inflight;   // requests queued or submitted, not reaped
  struct preq *reqs;   // those (the worker's thread only)
  _Atomic int cancels; // a forget marked some of them closed
  // Held by the worker from its look at the closed marks (send_cancels)
  // to the end of the io_uring_enter that submits, and by a forget while
  // it marks this ring's requests closed: a closed request is a no-op or
  // already in the kernel (which holds its file) by the time the close(2)
  // that follows the forget can free the number for another file.
  uint32_t sublock;
  unsigned passes;   // non-blocking passes, to look at the clock
  uint64_t sweep_at; // the next sweep (CLOCK_MONOTONIC ns)
  // Batching, as a thread's ring (io_uring.c's ur_wait_batch): the kernel
  // has a minimum wait; the last blocking wait found the worker busy
  // (cacs__uring_busy).
  unsigned batch_us;      // cacs__uring_batch_us; 0: never
  unsigned char min_wait; // cacs__uring_min_wait
  unsigned char busy;     // the next blocking wait gathers completions
  unsigned char reg_ring; // io_uring_register_ring_fd took the ring
  unsigned char waited;   // WAIT_PLAIN or WAIT_BATCH: reap judges `busy`
  // The watch of evfd could not be queued (no entry, and the submit that
  // would make room failed): the next blocking pass tries again, and
  // sleeps at most RETRY_NS at a time meanwhile (a wake from another
  // thread would not end the wait before the sweep; as a thread's ring,
  // io_uring.c's `unwatched`).
  unsigned char unwatched;
  uint64_t wait_ns;       // how long the last plain wait lasted
};
enum { WAIT_PLAIN = 1, WAIT_BATCH = 2 };

// A request in flight, in the waiting coroutine's frame.
struct preq {
  struct preq *next, *prev;   // the descriptor's (h->ureqs), under h->ulock
  struct preq *onext, *oprev; // the ring's, on its worker only
  struct cacs__pool_ring *ring;
  cacs__ptask *task;
  cacs__pool_fd *h;
  struct __kernel_timespec at; // the linked timeout's deadline
  int res;
  int fd;
  // CLOSED (cacs_close, cacs_io_forget): ECANCELED; STALE (closed behind
  // the pool's back, found by the sweep): EBADF.
  _Atomic unsigned char closed;
  unsigned char cancel_sent;
  unsigned char in; // a receive or a wait to read: cacs__uring_busy's
  // Completions still to come: the request's, and its linked timeout's
  // (see reap).
  unsigned char cqes;
};
_Static_assert(_Alignof(struct preq) > PR_LTIMEOUT, "PR_LTIMEOUT is free");
enum { CLOSED = 1, STALE = 2 };
// How often a ring with requests in flight looks for descriptors closed
// behind the pool's back (as the epoll poller's sweep, pool_io.c).
#define SWEEP_NS 1000000000u
// How soon a watch of the ring's eventfd that could not be queued is tried
// again (io_uring.c's UR_RETRY_US).
#define RETRY_NS 1000000u

// The calling worker's ring; NULL on other threads and on a pool's
// workers that run on epoll.
static CACS_TLS struct cacs__pool_ring *tls_ring;

// Out of line and opaque: a coroutine may resume on another worker after
// a wait, and must read its new worker's ring (pool_worker.c's rule).
__attribute__((noinline)) static struct cacs__pool_ring *self_ring(void) {
  struct cacs__pool_ring *r = tls_ring;
  __asm__ volatile("" : "+r"(r) : : "memory");
  return r;
}

int cacs__pool_ring_on(void) { return self_ring() != NULL; }

// --- the worker's side ------------------------------------------------------

static int submit_locked(struct cacs__pool_ring *r, int get_events);

static void arm_kick(struct cacs__pool_ring *r) {
  struct io_uring_sqe *s = io_uring_get_sqe(&r->ring);
  if (!s && submit_locked(r, 0) >= 0)
    s = io_uring_get_sqe(&r->ring);
  r->unwatched = !s;
  if (!s)
    return; // again at the next blocking pass (cacs__pool_ring_pass)
  io_uring_prep_poll_multishot(s, r->evfd, POLLIN);
  io_uring_sqe_set_data64(s, PR_KICK);
}

int cacs__pool_ring_new(struct cacs__pool_ring **out) {
  *out = NULL;
  // Not under Valgrind: its Linux port holds its lock while a thread
  // waits in io_uring_enter (no other thread runs), so a worker asleep in
  // its ring would stop the pool (liburing's issue 657). Its epoll poller
  // waits in epoll_wait, which Valgrind knows may block.
  if (cacs__io_engine_wanted() != CACS_IO_ENGINE_URING || cacs__on_valgrind())
    return 0;
  struct cacs__pool_ring *r = calloc(1, sizeof *r);
  if (!r)
    return -1;
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  // Submitted and reaped by this thread only: completions run in its
  // io_uring_enter, never interrupt it (as a thread's ring, io_uring.c).
  p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER |
            IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
  p.cq_entries = PR_CQ;
  int e = io_uring_queue_init_params(PR_SQ, &r->ring, &p);
  if (e == -EINVAL) { // before Linux 6.1
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_CQSIZE;
    p.cq_entries = PR_CQ;
    e = io_uring_queue_init_params(PR_SQ, &r->ring, &p);
  }
  if (e < 0) {
    free(r);
    return -1;
  }
  unsigned need =
      IORING_FEAT_EXT_ARG | IORING_FEAT_FAST_POLL | IORING_FEAT_NODROP;
  r->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if ((p.features & need) != need || !cacs__uring_serves(&r->ring) ||
      r->evfd < 0) {
    if (r->evfd >= 0)
      close(r->evfd);
    io_uring_queue_exit(&r->ring);
    free(r);
    return -1;
  }
  // Fewer look-ups per enter, if it can.
  r->reg_ring = io_uring_register_ring_fd(&r->ring) == 1;
  r->batch_us = cacs__uring_batch_us();
  r->min_wait = (unsigned char)cacs__uring_min_wait(&p, r->batch_us);
  arm_kick(r);
  tls_ring = r;
  *out = r;
  return 1;
}

void cacs__pool_ring_free(struct cacs__pool_ring *r) {
  if (!r)
    return;
  if (tls_ring == r)
    tls_ring = NULL;
  io_uring_queue_exit(&r->ring);
  close(r->evfd);
  free(r);
}

int cacs__pool_ring_gather(const struct cacs__pool_ring *r) {
  return r->busy && r->min_wait && r->inflight;
}

void cacs__pool_ring_kick(struct cacs__pool_ring *r) {
  uint64_t one = 1;
  ssize_t k = write(r->evfd, &one, sizeof one);
  (void)k; // EAGAIN: the counter is full, the ring is woken anyway
}

int cacs__pool_ring_busy(const struct cacs__pool_ring *r) {
  return r->inflight != 0 ||
         atomic_load_explicit(&r->cancels, memory_order_relaxed);
}

static void ring_unlink(struct cacs__pool_ring *r, struct preq *q) {
  if (q->oprev)
    q->oprev->onext = q->onext;
  else
    r->reqs = q->onext;
  if (q->onext)
    q->onext->oprev = q->oprev;
}

// The closed requests of this ring (under r->sublock): those not sent to
// the kernel yet become no-ops, all of them first, since a full queue is
// submitted below to make room for the cancellations of the others, by
// name.
static void send_cancels(struct cacs__pool_ring *r) {
  for (struct preq *q = r->reqs; q; q = q->onext)
    // A no-op never names the descriptor (a closed number may be reused
    // at once). Its linked timeout, if any, is left without a request and
    // fails by itself (EINVAL), its completion counted as ever.
    if (!q->cancel_sent &&
        atomic_load_explicit(&q->closed, memory_order_relaxed) &&
        cacs__uring_unqueue(&r->ring, (uint64_t)(uintptr_t)q))
      q->cancel_sent = 1;
  for (struct preq *q = r->reqs; q; q = q->onext) {
    if (q->cancel_sent ||
        !atomic_load_explicit(&q->closed, memory_order_relaxed))
      continue;
    struct io_uring_sqe *s = io_uring_get_sqe(&r->ring);
    if (!s && io_uring_submit(&r->ring) >= 0)
      s = io_uring_get_sqe(&r->ring);
    if (!s) { // again at the next pass
      atomic_store_explicit(&r->cancels, 1, memory_order_relaxed);
      return;
    }
    q->cancel_sent = 1;
    io_uring_prep_cancel64(s, (uint64_t)(uintptr_t)q, 0);
    io_uring_sqe_set_data64(s, PR_IGNORE);
  }
}

// Every submit of the ring: the closed marks are looked at and the queue
// sent in one hold of r->sublock (a close between the two would let a
// request it closed reach the file that takes the number next:
// test/pool/pool-uring-close-submit.c). get_events: reap what the kernel
// has completed too (IORING_SETUP_DEFER_TASKRUN).
static int submit_locked(struct cacs__pool_ring *r, int get_events) {
  spin_lock(&r->sublock);
  if (atomic_load_explicit(&r->cancels, memory_order_relaxed) &&
      atomic_exchange_explicit(&r->cancels, 0, memory_order_acquire))
    send_cancels(r);
  int n = get_events ? io_uring_submit_and_get_events(&r->ring)
                     : io_uring_submit(&r->ring);
  spin_unlock(&r->sublock);
  return n;
}

// Take `q` off its descriptor's list.
static void fd_unlink(cacs__pool_fd *h, struct preq *q) {
  spin_lock(&h->ulock);
  if (q->prev)
    q->prev->next = q->next;
  else
    h->ureqs = q->next;
  if (q->next)
    q->next->prev = q->prev;
  spin_unlock(&h->ulock);
}

static int reap(struct cacs__pool_ring *r) {
  struct io_uring_cqe *c;
  unsigned head, n = 0, reqs = 0, in = 0;
  int woken = 0, rearm = 0;
  io_uring_for_each_cqe(&r->ring, head, c) {
    ++n;
    uint64_t ud = c->user_data;
    if (ud == PR_IGNORE)
      continue;
    if (ud == PR_KICK) {
      uint64_t v;
      ssize_t k = read(r->evfd, &v, sizeof v);
      (void)k;
      rearm |= !(c->flags & IORING_CQE_F_MORE);
      continue;
    }
    struct preq *q = (struct preq *)(uintptr_t)(ud & ~(uint64_t)PR_LTIMEOUT);
    if (!(ud & PR_LTIMEOUT)) {
      ++reqs;
      in += q->in;
      q->res = c->res;
      // Done: off the lists that a forget, the sweep and send_cancels walk.
      ring_unlink(r, q);
      fd_unlink(q->h, q);
    }
    // A request with a linked timeout is done once both have completed:
    // a timeout that fires cancels its request by name (the user data,
    // the request's address) in task work, which may run only after the
    // request has completed by itself and the coroutine, resumed, has
    // made its next request from the same frame, under the same name --
    // which it would cancel (ECANCELED for a wait without a timeout).
    // The timeout's completion comes after that task work.
    if (--q->cqes)
      continue;
    --r->inflight;
    // The last touch of `q`: the coroutine may run (and return) at once.
    woken += cacs__pool_wake(q->task);
  }
  io_uring_cq_advance(&r->ring, n);
  if (rearm)
    arm_kick(r);
  // The first reap after a blocking wait: was the worker busy?
  if (r->waited) {
    r->busy = (unsigned char)(r->waited == WAIT_BATCH
                                  ? reqs > 1
                                  : cacs__uring_busy(in, r->wait_ns));
    r->waited = 0;
  }
  return woken;
}

// Whether `fd` is no longer the file of record `h` (closed, or the number
// is another file's): close(2) behind the pool's back, which a request in
// flight does not see (it holds the file).
static int stale(int fd, const cacs__pool_fd *h) {
  struct stat st;
  return fstat(fd, &st) != 0 || (uint64_t)st.st_dev != h->dev ||
         (uint64_t)st.st_ino != h->ino;
}

// Fail the requests whose descriptor was closed behind the pool's back
// with EBADF (the epoll poller's sweep: waits without a timeout would
// wait for ever).
static void sweep(struct cacs__pool_ring *r, uint64_t now) {
  r->sweep_at = now + SWEEP_NS;
  for (struct preq *q = r->reqs; q; q = q->onext) {
    if (atomic_load_explicit(&q->closed, memory_order_relaxed) ||
        !stale(q->fd, q->h))
      continue;
    atomic_store_explicit(&q->closed, STALE, memory_order_relaxed);
    atomic_store_explicit(&r->cancels, 1, memory_order_relaxed);
  }
}

int cacs__pool_ring_pass(struct cacs__pool_ring *r, int block,
                         uint64_t deadline_ns) {
  struct io_uring *u = &r->ring;
  if (r->inflight && (block || !(++r->passes & 63))) {
    uint64_t now = cacs__now_ns();
    if (!r->sweep_at)
      r->sweep_at = now + SWEEP_NS;
    else if (now >= r->sweep_at)
      sweep(r, now);
    if (block && (!deadline_ns || deadline_ns > r->sweep_at))
      deadline_ns = r->sweep_at;
  }
  if (block) {
    // A watch of the eventfd not queued: again; while it is not, the wake
    // of another thread would not end the wait, which lasts RETRY_NS at
    // most.
    if (r->unwatched)
      arm_kick(r);
    if (r->unwatched) {
      uint64_t retry = cacs__now_ns() + RETRY_NS;
      if (!deadline_ns || deadline_ns > retry)
        deadline_ns = retry;
    }
    // Sent here; the wait below submits nothing (a request closed after
    // this must not reach the kernel unlocked). A queue the kernel did not
    // take: no sleep, the next pass sends it.
    submit_locked(r, 0);
    if (io_uring_sq_ready(u))
      return 0;
    struct __kernel_timespec ts, *tsp = NULL;
    uint64_t left = UINT64_MAX; // until the deadline
    if (deadline_ns) {
      uint64_t now = cacs__now_ns();
      left = deadline_ns > now ? deadline_ns - now : 0;
      ts.tv_sec = (long long)(left / 1000000000u);
      ts.tv_nsec = (long long)(left % 1000000000u);
      tsp = &ts;
    }
    // Busy: gather completions, as a thread's ring does (ur_wait_batch),
    // unless a timer or the sweep is due sooner than the batch. The
    // entries are all submitted: this enter submits none.
    if (r->busy && r->min_wait && left > (uint64_t)r->batch_us * 1000u) {
      int e = cacs__uring_wait_min(u, r->reg_ring, 0, r->inflight, r->batch_us,
                                   tsp);
      if (e != EINVAL) {
        r->waited = WAIT_BATCH;
        return 0; // reaped by the next pass, once the worker is not idle
      }
      r->min_wait = 0; // refused after all: wait as before from now on
    }
    uint64_t t0 = cacs__now_ns();
    struct io_uring_cqe *c;
    io_uring_wait_cqes(u, &c, 1, tsp, NULL);
    r->wait_ns = cacs__now_ns() - t0;
    r->waited = io_uring_cq_ready(u) ? WAIT_PLAIN : 0;
    if (!r->waited)
      r->busy = 0; // its timeout: idle
    return 0; // reaped by the next pass, once the worker is not idle
  }
  unsigned k = IO_URING_READ_ONCE(*u->sq.kflags);
  if (io_uring_sq_ready(u) ||
      (k & (IORING_SQ_TASKRUN | IORING_SQ_CQ_OVERFLOW)) ||
      atomic_load_explicit(&r->cancels, memory_order_relaxed))
    submit_locked(r, 1);
  else if (!io_uring_cq_ready(u))
    return 0;
  return reap(r);
}

void cacs__pool_ring_forget(cacs__pool_fd *h, int closing) {
  spin_lock(&h->ulock);
  if (closing < 0) {
    if (h->uclosing)
      --h->uclosing;
  } else {
    for (struct preq *q = h->ureqs; q; q = q->next) {
      if (atomic_load_explicit(&q->closed, memory_order_relaxed))
        continue;
      spin_lock(&q->ring->sublock); // see submit_locked
      atomic_store_explicit(&q->closed, CLOSED, memory_order_relaxed);
      atomic_store_explicit(&q->ring->cancels, 1, memory_order_release);
      spin_unlock(&q->ring->sublock);
      cacs__pool_ring_kick(q->ring);
    }
    h->uclosing = (unsigned char)(h->uclosing + closing);
  }
  spin_unlock(&h->ulock);
}

// --- the coroutine's side ---------------------------------------------------

// Submit a full queue (preq_start), from the worker's own stack.
static void submit_deep(void *ring) {
  submit_locked((struct cacs__pool_ring *)ring, 0);
}

// Queue `q`: `op` on `fd` (NULL: a poll for `mask`) on the calling
// worker's ring, with a linked timeout at `at_ns` (0: none). 0: queued,
// park; 1: a cacs_close is under way, yield and try again; -1: errno.
// Inlined into the waits for readiness (ring_req's `inline_start`), whose
// frame has room for it: a call's frame would lie below theirs, the
// deepest of the park budget's paths (cacs/detail/contract.h); out of
// line for the transfers (preq_start).
static inline __attribute__((always_inline)) int
preq_fill(struct preq *q, int fd, cacs__pool_fd *h, const struct io_op *op,
          int socket, unsigned mask, uint64_t at_ns, struct msghdr *m) {
  struct cacs__pool_ring *r = tls_ring;
  struct io_uring *u = &r->ring;
  unsigned need = at_ns ? 2 : 1;
  if (io_uring_sq_space_left(u) < need) {
    cacs__deep_call(submit_deep, r); // a full queue: the worker's stack
    if (io_uring_sq_space_left(u) < need) {
      cacs__set_errno(EBUSY);
      return -1;
    }
  }
  spin_lock(&h->ulock);
  if (h->uclosing) {
    spin_unlock(&h->ulock);
    return 1;
  }
  q->ring = r;
  q->task = cacs__pool_self();
  q->h = h;
  q->res = 0;
  q->fd = fd;
  q->cancel_sent = 0;
  q->in = op ? !op_dir(op) : (mask & POLLIN) != 0;
  atomic_store_explicit(&q->closed, 0, memory_order_relaxed);
  q->prev = NULL;
  q->next = (struct preq *)h->ureqs;
  if (q->next)
    q->next->prev = q;
  h->ureqs = q;
  spin_unlock(&h->ulock);
  // Room was made above (only this thread fills the queue), but liburing
  // may say NULL: then nothing is queued (a linked timeout's request
  // becomes a no-op) and the call fails with EBUSY, as for a full queue.
  struct io_uring_sqe *s = io_uring_get_sqe(u);
  struct io_uring_sqe *t = s && at_ns ? io_uring_get_sqe(u) : NULL;
  if (!s || (at_ns && !t)) {
    if (s) {
      io_uring_prep_nop(s);
      io_uring_sqe_set_data64(s, PR_IGNORE);
    }
    fd_unlink(h, q);
    cacs__set_errno(EBUSY);
    return -1;
  }
  if (op)
    cacs__uring_op_prep(s, fd, op, socket, m);
  else
    io_uring_prep_poll_add(s, fd, mask);
  io_uring_sqe_set_data(s, q);
  if (at_ns) {
    s->flags |= IOSQE_IO_LINK;
    q->at.tv_sec = (long long)(at_ns / 1000000000u);
    q->at.tv_nsec = (long long)(at_ns % 1000000000u);
    io_uring_prep_link_timeout(t, &q->at, IORING_TIMEOUT_ABS);
    io_uring_sqe_set_data64(t, (uint64_t)(uintptr_t)q | PR_LTIMEOUT);
  }
  q->cqes = at_ns ? 2 : 1;
  q->oprev = NULL;
  q->onext = r->reqs;
  if (q->onext)
    q->onext->oprev = q;
  r->reqs = q;
  ++r->inflight;
  return 0;
}

__attribute__((noinline)) CACS__IO_PN static int
preq_start(struct preq *q, int fd, cacs__pool_fd *h, const struct io_op *op,
           int socket, unsigned mask, uint64_t at_ns, struct msghdr *m) {
  return preq_fill(q, fd, h, op, socket, mask, at_ns, m);
}

// stale() for a timed-out request `arg`, from its coroutine: its fstat(2)
// and struct stat on the worker's own stack (cacs__deep_call), outside
// the waits' stack budget. The request carries the descriptor and its
// record in, the answer out (`res`, which the timeout left -ECANCELED), so
// that the wait's frame holds nothing more for the call, nor a helper's
// frame lies below it (32 bytes more, a pool coroutine's timed-out
// cacs_wait_fd on io_uring: 240 of its budget's 248 on x86-64).
static void stale_deep(void *arg) {
  struct preq *q = (struct preq *)arg;
  q->res = stale(q->fd, q->h);
}
// cacs__pool_io_stale from a coroutine: its wakes of the record's other
// waiters (a lock, a sleeping worker's futex) on the worker's own stack.
static void stale_forget_deep(void *h) {
  cacs__pool_io_stale((cacs__pool_fd *)h);
}

// A request and its wait until `at` (CLOCK_MONOTONIC ns, 0: none; its
// caller found it not passed yet): 0 (the result is q->res), EAGAIN (a
// close was under way: make the call again), or an errno value
// (ETIMEDOUT, ECANCELED, EBUSY). `inline_start` (a constant): preq_fill
// in this frame.
static inline __attribute__((always_inline)) int
ring_req(struct preq *q, int fd, cacs__pool_fd *h, const struct io_op *op,
         int socket, unsigned mask, uint64_t at, struct msghdr *m,
         int inline_start) {
  int s = inline_start ? preq_fill(q, fd, h, op, socket, mask, at, m)
                       : preq_start(q, fd, h, op, socket, mask, at, m);
  if (s < 0)
    return cacs__errno();
  if (s > 0) {
    // The closer does not park meanwhile. Inlined: a call's frame would
    // lie below this one (pool_park_inline.h).
    cacs__pool_yield_inline(cacs__pool_self());
    return EAGAIN;
  }
  // Only the completions wake it. The park inlined: its frames would stay
  // on the coroutine's stack while it waits (the waits' stack budget,
  // cacs/detail/contract.h; pool_park_inline.h).
  cacs__pool_park_inline(q->task, NULL, NULL, 0, 0);
  int closed = atomic_load_explicit(&q->closed, memory_order_relaxed);
  if (!closed && q->res == -ECANCELED && at) { // its linked timeout
    // Closed behind the pool's back? EBADF, as the epoll poller says.
    cacs__deep_call(stale_deep, q);
    if (!q->res)
      return ETIMEDOUT;
    closed = STALE;
  }
  if (closed == STALE)
    cacs__deep_call(stale_forget_deep, h);
  return closed == STALE ? EBADF : closed ? ECANCELED : 0;
}

static unsigned poll_mask(unsigned dirs) {
  return (dirs & 1 ? POLLIN | POLLPRI | POLLRDHUP : 0) |
         (dirs & 2 ? POLLOUT : 0);
}

// A wait for readiness: a poll request (cacs__pool_ring_wait and
// cacs__pool_ring_wait_fd, io_internal.h: one body in two conventions).
static inline __attribute__((always_inline)) int
ring_wait(int fd, cacs__pool_fd *h, unsigned dirs, uint64_t at_ns) {
  struct preq q;
  int e = ring_req(&q, fd, h, NULL, 0, poll_mask(dirs), at_ns, NULL, 1);
  if (e == EAGAIN)
    return 0; // retry the call
  if (e)
    return e;
  return q.res < 0 ? -q.res : 0;
}

CACS__IO_PN int cacs__pool_ring_wait(int fd, cacs__pool_fd *h, unsigned dirs,
                                     uint64_t at_ns) {
  return ring_wait(fd, h, dirs, at_ns);
}

CACS__IO_PN int cacs__pool_ring_wait_fd(int fd, cacs__pool_fd *h, unsigned dirs,
                                        uint64_t at_ns) {
  return cacs__result(ring_wait(fd, h, dirs, at_ns));
}

// The call tried as the epoll poller's calls are, while a cacs_close is
// under way (no request may be made then): its result, or -1 with *err
// set (EAGAIN: try again once the close is done).
__attribute__((noinline)) static ssize_t
try_closing(int fd, const struct io_op *op, int socket, int *err) {
  ssize_t n = op_try(fd, op, socket);
  *err = n < 0 ? errno : 0;
  return n;
}

// One request at a time, in one frame: the call's, or (`poll`) a wait
// for readiness after a file that would not wait said EAGAIN.
ssize_t cacs__pool_ring_io(int fd, cacs__pool_fd *h, uint64_t kind_flags,
                           void *buf, size_t n_, struct io_deadline *d) {
  const struct io_op o = {(enum io_kind)((kind_flags >> 32) & 0xff),
                          (int)kind_flags, buf, n_, NULL};
  const struct io_op *op = &o;
  int socket = (int)(kind_flags >> 63);
  struct preq q;
  struct msghdr m; // sendmsg's, until the kernel has taken the request
  int poll = 0;
  for (;;) {
    int64_t timeout = remaining_us(d);
    int e = timeout == 0 ? ETIMEDOUT
                         : ring_req(&q, fd, h, poll ? NULL : op, socket,
                                    poll ? poll_mask(1u << op_dir(op)) : 0,
                                    timeout < 0 ? 0 : d->at_ns, &m, 0);
    if (e == EAGAIN) {
      // A close was under way: try the call (EBADF once it is done), as
      // the epoll poller's calls do, until the close is done.
      ssize_t n = try_closing(fd, op, socket, &e);
      if (n >= 0)
        return n;
      if (e == EAGAIN || e == EWOULDBLOCK || e == EINTR)
        continue;
      cacs__set_errno(e);
      return -1;
    }
    if (!e && poll) {
      poll = 0;
      if (q.res >= 0)
        continue; // ready: the call again
      e = -q.res;
    } else if (!e && q.res >= 0) {
      cacs__uring_op_wrote(op, (size_t)q.res);
      return q.res;
    } else if (!e && q.res == -EAGAIN) {
      poll = 1;
      continue;
    } else if (!e && q.res != -EINTR) {
      e = -q.res;
    }
    if (e) {
      cacs__set_errno(e);
      return -1;
    }
  }
}

#endif // CACS_HAVE_LIBURING
