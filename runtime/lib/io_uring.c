//===- lib/io_uring.c - Descriptor I/O for coroutines on io_uring --------===//
//
// The io_uring engine of the I/O module (cacs/io.h, "Engines"): one ring
// per thread, plugged into the core scheduler as the epoll loop is
// (lib/sched.h: the service coroutine calls the poll hook once per round
// of the ready ring, and blocks in it when nothing else is ready).
//
// Design:
// - A call is a request on the ring, not a system call: cacs_read queues a
//   receive (read on other descriptors), cacs_write a send, ... and parks
//   the coroutine. The requests that the coroutines of one round of the
//   ready ring queue go to the kernel together in the next poll, which
//   also collects every completion there is (one io_uring_enter per round,
//   none when there is nothing to submit or reap) and wakes each request's
//   coroutine with the request's result. The kernel tries a request at
//   once on submission and otherwise waits for the descriptor itself, so
//   a request never meets EAGAIN (one that does, from a file that refuses
//   to wait, waits for readiness with a poll request and is queued again).
// - A request (struct ur_req) lives in the waiting coroutine's frame and is
//   linked into its descriptor's list of requests in flight until its
//   completion arrives. The kernel writes into the call's buffer until
//   then, so the coroutine waits for the completion whatever happens: at
//   its timeout or a cacs_wake it cancels the request and waits on; a
//   request that completed all the same keeps its result (the bytes it
//   moved are not lost). cacs_close and cacs_io_forget cancel every
//   request of the descriptor and make them fail with ECANCELED.
// - A coroutine on a shared stack (cacs/stack.h) has its frames copied out
//   while it waits, buffers included: the kernel must not write them then.
//   Its calls try the system call and, on EAGAIN, wait for readiness with
//   a poll request in the heap, as the epoll loop does. The same poll
//   request serves cacs_wait_fd and cacs_connect.
// - A busy thread's blocking waits gather completions (ur_wait_batch): up
//   to 20 us for every request in flight, so that a peer's burst of small
//   messages is received at once and not one message per wake-up.
// - A zero timeout never waits: the call is the non-blocking system call.
// - Inside a sync block (cacs/syncblock.h) no request is made: the call
//   tries the system call and blocks in poll(2) on EAGAIN (io_wait.c).
// - The ring runs its completions only in this thread's io_uring_enter
//   (IORING_SETUP_DEFER_TASKRUN, Linux 6.1; a plain ring before that), so
//   the kernel never interrupts the thread to post them.
//
// The engine is chosen per thread at the thread's first call: io_uring
// unless CACS_IO_ENGINE=epoll or cacs_io_set_engine asked for epoll, and
// epoll whenever no ring can be made (a kernel before 5.11, io_uring
// disabled by sysctl kernel.io_uring_disabled or a seccomp filter, the
// locked-memory limit of a kernel before 5.12, the library built without
// liburing). io_uring is the default since the whole test suite passed on
// it with both LLVM builds (`lit --param cacs_io_all_engines=1`); it
// makes one system call per round of the ready coroutines where the epoll
// loop makes one per call that would block. The pool (cacs/pool.h) keeps
// its epoll poller unless io_uring is asked for (io_pool_uring.c).
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "io_uring.h"
#include "cacs/io.h"
#include "cacs/syncblock.h"
#include "io_op.h"
#include "sched.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

CACS_TLS int cacs__io_engine;

// What cacs_io_set_engine asked for, for every thread that starts after.
static int io_engine_asked = CACS_IO_ENGINE_AUTO;

int cacs_io_set_engine(int engine) {
  if (engine < CACS_IO_ENGINE_AUTO || engine > CACS_IO_ENGINE_URING) {
    errno = EINVAL;
    return -1;
  }
  return __atomic_exchange_n(&io_engine_asked, engine, __ATOMIC_RELAXED);
}

// A pool coroutine's engine is its worker's (io_pool_uring.c).
int cacs_io_engine(void) {
  if (cacs__io_pool_caller())
    return cacs__pool_ring_on() ? CACS_IO_ENGINE_URING : CACS_IO_ENGINE_EPOLL;
  return cacs__io_engine;
}

// The engine asked for: the call's, else CACS_IO_ENGINE from the
// environment ("epoll" or "uring"), else AUTO.
int cacs__io_engine_wanted(void) {
  int e = __atomic_load_n(&io_engine_asked, __ATOMIC_RELAXED);
  if (e != CACS_IO_ENGINE_AUTO)
    return e;
  const char *s = getenv("CACS_IO_ENGINE");
  if (s && strcmp(s, "epoll") == 0)
    return CACS_IO_ENGINE_EPOLL;
  if (s && strcmp(s, "uring") == 0)
    return CACS_IO_ENGINE_URING;
  return CACS_IO_ENGINE_AUTO;
}

#ifndef CACS_HAVE_LIBURING

// Built without liburing: every thread runs the epoll loop.
int cacs__io_engine_pick(void) {
  return cacs__io_engine = CACS_IO_ENGINE_EPOLL;
}

// Unreachable: no thread runs this engine.
ssize_t cacs__uring_io(int fd, const struct io_op *op, struct io_deadline *d) {
  (void)fd, (void)op, (void)d;
  errno = ENOSYS;
  return -1;
}
CACS__IO_PN int cacs__uring_wait(int fd, unsigned dirs, struct io_deadline *d) {
  (void)fd, (void)dirs, (void)d;
  return ENOSYS;
}
CACS__IO_PN int cacs__uring_wait_fd(int fd, unsigned dirs, int64_t timeout_us) {
  (void)fd, (void)dirs, (void)timeout_us;
  errno = ENOSYS;
  return -1;
}
int cacs__uring_accept(int lfd, struct sockaddr *addr, socklen_t *addrlen,
                       int64_t timeout_us) {
  (void)lfd, (void)addr, (void)addrlen, (void)timeout_us;
  errno = ENOSYS;
  return -1;
}
int cacs__uring_connect(int fd, const struct sockaddr *addr,
                        socklen_t addrlen, int64_t timeout_us) {
  (void)fd, (void)addr, (void)addrlen, (void)timeout_us;
  errno = ENOSYS;
  return -1;
}
void cacs__uring_forget(int fd) { (void)fd; }

#else // CACS_HAVE_LIBURING

#include <fcntl.h>
#include <liburing.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sys/stat.h>

#include "valgrind_requests.h"

// A request in flight: a call's, or a wait for readiness.
struct ur_req {
  struct ur_req *next, *prev; // in its descriptor's list (prev NULL: first)
  cacs_coro *co;
  int fd;
  int res;                // the completion's result, once `done`
  unsigned char done;     // completed: off the list, `res` valid
  unsigned char closed;   // cacs_close or cacs_io_forget: ECANCELED
  unsigned char canceled; // a cancellation is on its way
  unsigned char in;       // a receive (or a wait to read): ur_poll's busy
};

struct ur_fd {
  struct ur_req *reqs;  // in flight
  unsigned char known;  // O_NONBLOCK set, `socket` valid
  unsigned char socket; // send with MSG_NOSIGNAL
};

typedef struct ur_loop {
  int ready;   // the ring exists
  int wake_fd; // the core's wake-up eventfd the ring watches, or -1
  struct io_uring ring;
  struct ur_fd *fds; // by descriptor number, grown on demand
  size_t nfds;
  unsigned inflight; // requests whose completion is not reaped yet
  unsigned reaped_in; // completions of receives ur_reap counted
  // Batching (ur_wait_batch): the kernel has a minimum wait
  // (IORING_FEAT_MIN_TIMEOUT); the last blocking wait found the thread
  // busy (ur_poll).
  unsigned char min_wait;
  unsigned char busy;
  unsigned batch_us;      // CACS_IO_BATCH_US, else UR_BATCH_US; 0: never
  unsigned char reg_ring; // io_uring_register_ring_fd took the ring
  // The watch of wake_fd could not be queued (a full queue the kernel
  // would not take): ur_poll tries again, and sleeps at most
  // UR_RETRY_US at a time meanwhile (a wake from another thread
  // would not end the wait).
  unsigned char unwatched;
} ur_loop;

static CACS_TLS ur_loop U;

// Completions that are not a request's: cancellations (whose outcome the
// canceled request's own completion tells), the watch of the core's
// wake-up eventfd, liburing's own timeouts.
enum { UD_IGNORE = 0, UD_WAKE = 1 };
// Submission and completion queue sizes: a full submission queue is
// submitted at once; completions beyond the queue wait in the kernel
// (IORING_FEAT_NODROP) until the next poll.
enum { UR_SQ = 256, UR_CQ = 4096 };
// How soon a wake-up watch or a cancel that could not be queued is tried
// again.
enum { UR_RETRY_US = 1000 };
// The longest transfer one request asks for (read(2)'s own cap).
#define UR_MAX_LEN 0x7ffff000u
// How long a busy thread's blocking wait lets completions gather
// (ur_wait_batch; CACS_IO_BATCH_US from the environment, up to UR_BATCH_MAX,
// 0: never), and the blocking wait, in microseconds, shorter than which the
// thread counts as busy (ur_poll).
enum { UR_BATCH_US = 20, UR_BATCH_MAX = 1000, UR_BUSY_US = 5 };
// The kernel's minimum wait (Linux 6.12): liburing 2.3 knows neither the
// feature bit nor the field (io_uring_getevents_arg's `pad` then).
#ifndef IORING_FEAT_MIN_TIMEOUT
#define IORING_FEAT_MIN_TIMEOUT (1U << 15)
#endif

// --- records ---------------------------------------------------------------

// Whether `fd` is one of the ring's own descriptors (the ring, the core's
// wake-up eventfd it watches), never a caller's. The thread's first call
// makes them before it looks at its descriptor, and they take the lowest
// free numbers: the number of a descriptor another thread closed as the
// call began may be one of them by then. A request on it would read the
// ring or the eventfd (EINVAL, or the wake-ups' count) as the caller's
// descriptor; to the caller it is a closed one: EBADF.
static int ur_owns(int fd) {
  return U.ready && (fd == U.ring.ring_fd || fd == U.wake_fd);
}

// The record of `fd`, the table grown to hold it; NULL (errno EBADF or
// ENOMEM).
static struct ur_fd *ur_rec(int fd) {
  if (__builtin_expect((size_t)fd < U.nfds, 1))
    return &U.fds[fd];
  void *t = U.fds;
  if (fd_table_grow(&t, &U.nfds, sizeof *U.fds, fd) != 0)
    return NULL;
  U.fds = (struct ur_fd *)t;
  return &U.fds[fd];
}

// The record of `fd` after making it non-blocking (for the calls that try
// the system call: zero timeouts, shared stacks) and noting whether it is
// a socket, once per descriptor.
static struct ur_fd *ur_prepare(int fd) {
  if (__builtin_expect((size_t)fd < U.nfds && U.fds[fd].known, 1))
    return &U.fds[fd];
  struct ur_fd *r = ur_rec(fd);
  if (!r)
    return NULL;
  int socket = fd_first_sight(fd, ur_owns(fd));
  if (socket < 0)
    return NULL;
  r->socket = (unsigned char)socket;
  r->known = 1;
  return r;
}

static void req_unlink(struct ur_req *q) {
  if (q->prev)
    q->prev->next = q->next;
  else
    U.fds[q->fd].reqs = q->next;
  if (q->next)
    q->next->prev = q->prev;
}

// --- the ring --------------------------------------------------------------

// A free submission entry; a full queue goes to the kernel first. NULL
// (errno set) if the kernel takes none.
static struct io_uring_sqe *sqe_get(void) {
  struct io_uring_sqe *s;
  while (!(s = io_uring_get_sqe(&U.ring))) {
    int n = io_uring_submit(&U.ring);
    if (n <= 0) {
      errno = n < 0 ? -n : EBUSY;
      return NULL;
    }
  }
  return s;
}

// Cancel `q` (its completion reports how it ended).
static void req_cancel(struct ur_req *q) {
  if (q->canceled)
    return;
  struct io_uring_sqe *s = sqe_get();
  if (!s)
    return; // tried again by req_wait
  q->canceled = 1;
  io_uring_prep_cancel64(s, (uint64_t)(uintptr_t)q, 0);
  io_uring_sqe_set_data64(s, UD_IGNORE);
  s->flags |= IOSQE_CQE_SKIP_SUCCESS;
}

// Watch the core's wake-up eventfd (lib/sched.h): its readiness ends a
// blocking poll; the core resets it, the completions are ignored.
int cacs__poll_wake_fd(void) __attribute__((weak));

static void watch_wake_fd(void) {
  int fd = cacs__poll_wake_fd ? cacs__poll_wake_fd() : -1;
  U.wake_fd = fd;
  struct io_uring_sqe *s = fd >= 0 ? sqe_get() : NULL;
  U.unwatched = fd >= 0 && !s;
  if (!s)
    return;
  io_uring_prep_poll_multishot(s, fd, POLLIN);
  io_uring_sqe_set_data64(s, UD_WAKE);
}

static void ur_complete(struct io_uring_cqe *c) {
  uint64_t ud = c->user_data;
  if (ud == UD_WAKE) {
    if (!(c->flags & IORING_CQE_F_MORE))
      watch_wake_fd(); // the kernel ended the multishot poll: again
    return;
  }
  if (ud == UD_IGNORE || ud == LIBURING_UDATA_TIMEOUT)
    return;
  struct ur_req *q = (struct ur_req *)(uintptr_t)ud;
  --U.inflight;
  U.reaped_in += q->in;
  req_unlink(q);
  q->res = c->res;
  q->done = 1;
  cacs_wake(q->co);
}

// Wake the coroutine of every completion there is; how many there were.
static unsigned ur_reap(void) {
  struct io_uring_cqe *c;
  unsigned head, n = 0;
  io_uring_for_each_cqe(&U.ring, head, c) {
    ur_complete(c);
    ++n;
  }
  io_uring_cq_advance(&U.ring, n);
  return n;
}

// A blocking wait of a busy thread, `ts` its timeout (NULL: none): submit
// what the round queued and wait until every request in flight has
// completed, or U.batch_us have passed and one has (the kernel's minimum
// wait), or the timeout. Interrupt coalescing, as a network card does it:
// a peer that sends a burst of small messages (a streaming client) wakes
// a thread that waits for one completion at its first message, and the
// receive, which the kernel runs only then (IORING_SETUP_DEFER_TASKRUN),
// takes that message alone; the reply goes back as small as it came, and
// each message costs both sides system calls and a wake-up. Waiting for
// all requests in flight, a lone request (a single connection's
// ping-pong) is never held back; a request among idle ones is, by up to
// U.batch_us, while the thread counts as busy (ur_poll). -1 (errno) if
// the kernel refused.
static int ur_wait_batch(struct __kernel_timespec *ts) {
  struct io_uring_sq *sq = &U.ring.sq;
  // What io_uring_submit does before its io_uring_enter: publish the
  // queued entries (no SQPOLL: the kernel reads them in the call).
  unsigned tail = sq->sqe_tail;
  if (sq->sqe_head != tail) {
    sq->sqe_head = tail;
    io_uring_smp_store_release(sq->ktail, tail);
  }
  unsigned submit = tail - IO_URING_READ_ONCE(*sq->khead);
  int e = cacs__uring_wait_min(&U.ring, U.reg_ring, submit, U.inflight,
                               U.batch_us, ts);
  if (e == EINVAL)
    U.min_wait = 0; // refused after all: wait as before from now on
  if (e) {
    errno = e;
    return -1;
  }
  return 0;
}

int cacs__uring_wait_min(struct io_uring *ring, int reg_ring, unsigned submit,
                         unsigned inflight, unsigned min_us,
                         struct __kernel_timespec *ts) {
  // Without a timeout the kernel would end the wait at the minimum, with
  // or without a completion: a day stands for none (the caller waits
  // again).
  struct __kernel_timespec day = {86400, 0};
  struct io_uring_getevents_arg a;
  memset(&a, 0, sizeof a);
  a.pad = min_us; // min_wait_usec
  a.ts = (uint64_t)(uintptr_t)(ts ? ts : &day);
  // No more than the ring's completion queue holds.
  unsigned cq = ring->cq.ring_entries;
  unsigned want = inflight > cq ? cq : inflight ? inflight : 1;
  unsigned flags = IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG;
  int fd = ring->ring_fd;
  if (reg_ring) {
    flags |= IORING_ENTER_REGISTERED_RING;
    fd = ring->enter_ring_fd;
  }
  int n =
      io_uring_enter2((unsigned)fd, submit, want, flags, (void *)&a, sizeof a);
  return n < 0 && n != -ETIME && n != -EINTR ? -n : 0;
}

unsigned cacs__uring_batch_us(void) {
  return (unsigned)cacs__io_env_number("CACS_IO_BATCH_US", UR_BATCH_MAX,
                                       UR_BATCH_US);
}

int cacs__uring_min_wait(const struct io_uring_params *p, unsigned min_us) {
  return (p->features & IORING_FEAT_MIN_TIMEOUT) && min_us;
}

// The poll hook: submit what the round queued, wait for a completion up to
// `timeout_us` (0: not at all; -1: forever), wake the coroutines of all
// completions.
static void ur_poll(int64_t timeout_us) {
  if (!U.ready)
    return; // a child after fork, until a call makes a ring (ring_ready)
  struct io_uring *r = &U.ring;
  if (timeout_us == 0 || io_uring_cq_ready(r)) {
    // Enter only with something to submit or completions to run.
    unsigned k = IO_URING_READ_ONCE(*r->sq.kflags);
    if (io_uring_sq_ready(r) ||
        (k & (IORING_SQ_TASKRUN | IORING_SQ_CQ_OVERFLOW)))
      io_uring_submit_and_get_events(r);
    ur_reap();
    return;
  }
  if (U.unwatched) {
    watch_wake_fd();
    if (U.unwatched && (timeout_us < 0 || timeout_us > UR_RETRY_US))
      timeout_us = UR_RETRY_US;
  }
  struct __kernel_timespec ts = {timeout_us / 1000000,
                                 timeout_us % 1000000 * 1000};
  struct __kernel_timespec *tsp = timeout_us < 0 ? NULL : &ts;
  // Busy: the last plain wait ended within UR_BUSY_US with a receive's
  // completion or reaped more than one receive's, or the last batched one
  // gathered more than one. Not for a
  // timer due sooner than the batch.
  if (U.busy && U.min_wait && (timeout_us < 0 || timeout_us > U.batch_us) &&
      ur_wait_batch(tsp) == 0) {
    U.busy = ur_reap() > 1;
    return;
  }
  uint64_t t0 = cacs__now_ns();
  struct io_uring_cqe *c;
  io_uring_submit_and_wait_timeout(r, &c, 1, tsp, NULL);
  uint64_t waited = cacs__now_ns() - t0;
  U.reaped_in = 0;
  ur_reap();
  U.busy = (unsigned char)cacs__uring_busy(U.reaped_in, waited);
}

// Bytes came quickly, or on more than one connection while the thread
// woke: either says peers are sending faster than it waits. The second
// does not depend on how fast this machine wakes a thread (a host whose
// wake-up takes longer than UR_BUSY_US never sees the first). A send
// that completed at once, as sends do, says nothing about the peers:
// counted, it made a thread serving one connection among idle ones hold
// its next receive back for them.
int cacs__uring_busy(unsigned reaped_in, uint64_t waited_ns) {
  return reaped_in > 1 ||
         (waited_ns < (uint64_t)UR_BUSY_US * 1000u && reaped_in != 0);
}

static pthread_key_t ring_key;
static pthread_once_t ring_key_once = PTHREAD_ONCE_INIT;

// At thread exit: close the ring, free the records.
static void ring_destroy(void *unused) {
  (void)unused;
  if (U.ready)
    io_uring_queue_exit(&U.ring);
  free(U.fds);
  memset(&U, 0, sizeof U);
}

// fork(): the child shares the parent's ring (its memory and its requests)
// and must not use it. The child lets go of it; its next call makes a new
// ring (or moves the thread to epoll: ring_ready), and each waiter of a
// request in flight (the parent's now) wakes as after an EAGAIN and queues
// its call again there.
static void ring_after_fork(void) {
  if (!U.ready)
    return;
  io_uring_queue_exit(&U.ring); // the child's mapping and descriptor only
  U.ready = 0;
  U.inflight = 0; // woken below
  for (size_t fd = 0; fd < U.nfds; fd++) {
    struct ur_req *q = U.fds[fd].reqs;
    U.fds[fd].reqs = NULL;
    for (; q; q = q->next) {
      q->res = -EAGAIN;
      q->done = 1;
      cacs_wake(q->co);
    }
  }
}

static void ring_key_init(void) {
  cacs__key_create(&ring_key, ring_destroy,
                   "the io_uring engine's thread exit");
  if (pthread_atfork(NULL, NULL, ring_after_fork) != 0)
    cacs__fatalf("cacs: pthread_atfork: out of memory\n");
}

// Whether the kernel serves every request the engines make (this one's
// and the pool's, io_pool_uring.c) on `ring`.
int cacs__uring_serves(struct io_uring *ring) {
  struct io_uring_probe *p = io_uring_get_probe_ring(ring);
  if (!p)
    return 0;
  static const int ops[] = {
      IORING_OP_READ,         IORING_OP_WRITE,        IORING_OP_READV,
      IORING_OP_WRITEV,       IORING_OP_RECV,         IORING_OP_SEND,
      IORING_OP_SENDMSG,      IORING_OP_ACCEPT,       IORING_OP_POLL_ADD,
      IORING_OP_ASYNC_CANCEL, IORING_OP_LINK_TIMEOUT, IORING_OP_NOP};
  int ok = 1;
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    ok &= io_uring_opcode_supported(p, ops[i]) != 0;
  io_uring_free_probe(p);
  return ok;
}

// Make the thread's ring; 0, or -1 (errno) when io_uring cannot serve.
static int ring_init(void) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER |
            IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
  p.cq_entries = UR_CQ;
  int e = io_uring_queue_init_params(UR_SQ, &U.ring, &p);
  if (e == -EINVAL) { // before Linux 6.1
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_CQSIZE;
    p.cq_entries = UR_CQ;
    e = io_uring_queue_init_params(UR_SQ, &U.ring, &p);
  }
  if (e < 0) { // ENOSYS, EPERM (sysctl, seccomp), ENOMEM, ...
    errno = -e;
    return -1;
  }
  // Single-call timed waits (5.11), requests that wait for their
  // descriptor themselves (5.7), no lost completions (5.5).
  unsigned need =
      IORING_FEAT_EXT_ARG | IORING_FEAT_FAST_POLL | IORING_FEAT_NODROP;
  if ((p.features & need) != need || !cacs__uring_serves(&U.ring)) {
    io_uring_queue_exit(&U.ring);
    errno = ENOSYS;
    return -1;
  }
  // Fewer look-ups per enter, if it can.
  U.reg_ring = io_uring_register_ring_fd(&U.ring) == 1;
  U.batch_us = cacs__uring_batch_us();
  U.min_wait = (unsigned char)cacs__uring_min_wait(&p, U.batch_us);
  pthread_once(&ring_key_once, ring_key_init);
  pthread_setspecific(ring_key, &U);
  U.wake_fd = -1; // until watch_wake_fd
  U.ready = 1;
  cacs__set_poll_hook(ur_poll);
  watch_wake_fd();
  return 0;
}

// ring_init on the thread's own stack (cacs__deep_call, internal.h): the
// ring's setup (liburing, the probe, pthread's once and keys, the inbox's
// eventfd) runs inside a thread's first wait, once, and the waits' stack
// budgets (cacs/detail/contract.h), which exact stacks are sized by, need
// not hold it. `arg`: its result. Out of line: the address of its result
// would keep the calls after ring_ready's in its callers from being tail
// calls (cacs__uring_wait_fd's of the epoll loop's wait).
static void ring_init_deep(void *arg) { *(int *)arg = ring_init(); }
__attribute__((noinline, cold)) static int ring_init_off_stack(void) {
  int r = -1;
  cacs__deep_call(ring_init_deep, &r);
  return r;
}

// The pick, at a thread's first wait, on the thread's own stack
// (cacs__deep_call): getenv, and the ring's setup.
static void engine_pick_deep(void *unused) {
  (void)unused;
  int e = cacs__io_engine_wanted();
  // Under Valgrind the default is epoll: its Linux port holds its lock
  // while a thread waits in io_uring_enter, so no other thread runs (one
  // that would wake this one included: liburing's issue 657). Asked for
  // by name, io_uring is still used (a program of one thread is fine).
  if (e == CACS_IO_ENGINE_AUTO && cacs__on_valgrind())
    e = CACS_IO_ENGINE_EPOLL;
  cacs__io_engine = e != CACS_IO_ENGINE_EPOLL && ring_init() == 0
                        ? CACS_IO_ENGINE_URING
                        : CACS_IO_ENGINE_EPOLL;
}

int cacs__io_engine_pick(void) {
  if (!cacs__io_engine)
    cacs__deep_call(engine_pick_deep, NULL);
  return cacs__io_engine;
}

// A child after fork has no ring (ring_after_fork) until a call needs one.
// If none can be made there (io_uring refused to the child: a seccomp
// filter, the locked-memory limit, no memory), the thread moves to the
// epoll loop for good: the calls in progress finish on it, and io.c sends
// the next ones to it, as to a thread that started on epoll. A transfer
// and cacs_wait_fd start over there from io.c's frames, not below this
// engine's (io_uring.h's CACS__URING_MOVED); a connect in progress and a
// call that may not wait (or a shared stack's) wait below theirs
// (poll_wait): within the transfers' stack budget, as
// test/runtime/stack-budget-uring-fallback.c checks. 0: the ring is ready;
// -1: the thread runs the epoll loop now.
static int ring_ready(void) {
  if (__builtin_expect(U.ready, 1))
    return 0;
  if (cacs__io_engine == CACS_IO_ENGINE_EPOLL)
    return -1; // moved already: the hook may be the epoll loop's now
  if (ring_init_off_stack() == 0)
    return 0;
  cacs__io_engine = CACS_IO_ENGINE_EPOLL;
  cacs__set_poll_hook(NULL); // the epoll loop installs its own
  return -1;
}

// --- waiting for a request --------------------------------------------------

// Start request `q` of the running coroutine `self` for `fd` on the ready
// ring: the entry to fill (then its user data is set to `q`), or NULL
// (errno) with nothing started. Inlined into the wait for readiness
// (poll_wait, preserve_none): as a call of the default convention it
// pushed six callee-saved registers, and a thread's first wait makes its
// deep calls below it (the table's growth, the service coroutine's
// creation: 288 bytes of the park budget, cacs/detail/contract.h); out of
// line for the transfers (req_start).
static inline __attribute__((always_inline)) struct io_uring_sqe *
req_fill(struct ur_req *q, int fd, cacs_coro *self) {
  struct ur_fd *r = ur_rec(fd);
  if (!r || cacs__io_wait_begin() != 0)
    return NULL;
  struct io_uring_sqe *s = sqe_get();
  if (!s) {
    cacs__io_wait_end();
    return NULL;
  }
  q->co = self;
  q->fd = fd;
  q->done = q->closed = q->canceled = 0;
  q->in = 0;
  ++U.inflight;
  q->prev = NULL;
  q->next = r->reqs;
  if (q->next)
    q->next->prev = q;
  r->reqs = q;
  return s;
}

__attribute__((noinline)) static struct io_uring_sqe *
req_start(struct ur_req *q, int fd, cacs_coro *self) {
  return req_fill(q, fd, self);
}

// Park until `q` completes. At the deadline `d` (remaining_us(d) was > 0
// or -1 before req_start) or a cacs_wake the request
// is canceled and the wait goes on until its completion: the kernel may use
// the call's memory until then. 0 (the result is q->res) or an errno value:
// ECANCELED (closed), ETIMEDOUT, EINTR (a cacs_wake; the request was
// canceled before it completed), ENOMEM (no timer).
static inline __attribute__((always_inline)) int
req_wait(struct ur_req *q, const struct io_deadline *d) {
  // On the call's deadline (io_park), as the epoll engine's: the time
  // req_start spent sending a full queue to the kernel (the first attempt
  // of every request in it, maybe a preemption) is part of the timeout,
  // not added to it.
  int why = io_park(d);
  if (!why && !q->done)
    why = EINTR;
  // A cancel the queue had no room for (a full queue the kernel would not
  // take) is tried again every UR_RETRY_US: the request may never end by
  // itself (a read of a quiet pipe).
  while (!q->done) {
    req_cancel(q);
    if (q->canceled)
      cacs_park();
    else
      cacs_park_timeout(UR_RETRY_US);
  }
  cacs__io_wait_end();
  if (q->closed)
    return ECANCELED;
  return why && q->res == -ECANCELED ? why : 0;
}

// Wait for `fd` to be ready in `dirs` (bit 0 in, bit 1 out) with a poll
// request, in the heap for a coroutine on a shared stack (`self` NULL).
// 0 (ready: try the call) or an errno value.
// Inlined into both callers (cacs_wait_fd's keeps the deadline in its
// frame, and a call would add this frame's saves below it: the park
// budget).
static inline __attribute__((always_inline)) int
poll_wait(int fd, unsigned dirs, struct io_deadline *d, cacs_coro *self) {
  // Inside a sync block no request may park: cacs__io_fd_wait blocks.
  // Without a ring (ring_ready): the epoll loop's wait.
  if (cacs_sync_depth() != 0 || ring_ready() != 0)
    return cacs__io_fd_wait(fd, dirs, d);
  if (ur_owns(fd)) // cacs_wait_fd: the ring may be this call's (ur_owns)
    return EBADF;
  if (remaining_us(d) == 0)
    return ETIMEDOUT;
  struct ur_req local, *q = &local;
  if (!self) {
    q = (struct ur_req *)malloc(sizeof *q);
    if (!q)
      return ENOMEM;
    self = cacs_self();
  }
  int e = errno;
  struct io_uring_sqe *s = req_fill(q, fd, self);
  if (s) {
    q->in = dirs & 1;
    io_uring_prep_poll_add(
        s, fd,
        (dirs & 1 ? POLLIN | POLLPRI | POLLRDHUP : 0) | (dirs & 2 ? POLLOUT : 0));
    io_uring_sqe_set_data(s, q);
    e = req_wait(q, d);
    // A poll's own error (EBADF, ...); EAGAIN: retry (after fork).
    if (!e && q->res < 0 && q->res != -EAGAIN)
      e = -q->res;
  } else {
    e = errno;
  }
  if (q != &local)
    free(q);
  return e;
}

CACS__IO_PN int cacs__uring_wait(int fd, unsigned dirs, struct io_deadline *d) {
  return poll_wait(fd, dirs, d, cacs__self_unshared());
}

CACS__IO_PN int cacs__uring_wait_fd(int fd, unsigned dirs, int64_t timeout_us) {
  // The ring gone (a fork) and none to be had: the epoll loop's wait, a
  // tail call, so that this frame (poll_wait's request) is not below it
  // (io_uring.h's CACS__URING_MOVED).
  if (__builtin_expect(ring_ready() != 0, 0))
    return cacs__io_wait_fd_thread(fd, dirs, timeout_us);
  struct io_deadline d = {timeout_us, 0};
  int e = poll_wait(fd, dirs, &d, cacs__self_unshared());
  if (!e)
    return 0;
  errno = e;
  return -1;
}

// --- the calls ---------------------------------------------------------------

// Fill `s` with the request of `op` on `fd`; `m` holds sendmsg's header.
void cacs__uring_op_prep(struct io_uring_sqe *s, int fd, const struct io_op *op,
                         int socket, struct msghdr *m) {
  unsigned n = op->n > UR_MAX_LEN ? UR_MAX_LEN : (unsigned)op->n;
  // MSG_DONTWAIT does not stop the wait (cacs/io.h): the request waits.
  int flags = op->flags & ~MSG_DONTWAIT;
  switch (op->kind) {
  case OP_READ:
    if (socket)
      io_uring_prep_recv(s, fd, op->buf, n, 0);
    else
      io_uring_prep_read(s, fd, op->buf, n, (uint64_t)-1);
    return;
  case OP_WRITE:
    if (socket)
      io_uring_prep_send(s, fd, op->buf, n, MSG_NOSIGNAL);
    else
      io_uring_prep_write(s, fd, op->buf, n, (uint64_t)-1);
    return;
  case OP_READV:
    io_uring_prep_readv(s, fd, (const struct iovec *)op->buf, (unsigned)op->n,
                        (uint64_t)-1);
    return;
  case OP_WRITEV:
    if (socket) {
      memset(m, 0, sizeof *m);
      m->msg_iov = (struct iovec *)op->buf;
      m->msg_iovlen = op->n;
      io_uring_prep_sendmsg(s, fd, m, MSG_NOSIGNAL);
    } else {
      io_uring_prep_writev(s, fd, (const struct iovec *)op->buf,
                           (unsigned)op->n, (uint64_t)-1);
    }
    return;
  case OP_RECV:
    io_uring_prep_recv(s, fd, op->buf, n, flags);
    return;
  case OP_SEND:
    io_uring_prep_send(s, fd, op->buf, n, flags | MSG_NOSIGNAL);
    return;
  case OP_ACCEPT:
    io_uring_prep_accept(s, fd, (struct sockaddr *)op->buf, op->addrlen,
                         SOCK_NONBLOCK | SOCK_CLOEXEC);
    return;
  }
  io_uring_prep_nop(s);
}

// The call `op` completed with `n` (>= 0) bytes: what the kernel wrote.
// memcheck does not see the kernel write a buffer through the ring, so the
// bytes a completed call brought are marked defined for it.
void cacs__uring_op_wrote(const struct io_op *op, size_t n) {
  if (op->kind == OP_READ || op->kind == OP_RECV) {
    VALGRIND_MAKE_MEM_DEFINED(op->buf, n);
  } else if (op->kind == OP_READV) {
    const struct iovec *v = (const struct iovec *)op->buf;
    for (size_t i = 0; i < op->n && n; i++) {
      size_t k = v[i].iov_len < n ? v[i].iov_len : n;
      VALGRIND_MAKE_MEM_DEFINED(v[i].iov_base, k);
      n -= k;
    }
  } else if (op->kind == OP_ACCEPT && op->addrlen) {
    // The address is truncated to the buffer, whose size is gone: at most
    // a sockaddr_storage.
    VALGRIND_MAKE_MEM_DEFINED(op->addrlen, sizeof *op->addrlen);
    if (op->buf && *op->addrlen <= sizeof(struct sockaddr_storage))
      VALGRIND_MAKE_MEM_DEFINED(op->buf, *op->addrlen);
  }
}

// The call as the epoll loop makes it: try, wait for readiness on EAGAIN.
// For zero timeouts (no wait: ETIMEDOUT), shared stacks and sync blocks.
// Out of line: inlined into cacs__uring_io, its request (poll_wait's)
// made that frame, which is below every call's wait on the ring, 16
// bytes larger.
__attribute__((noinline)) static ssize_t
io_try_wait(int fd, const struct io_op *op, int socket, struct io_deadline *d) {
  for (;;) {
    ssize_t n = op_try(fd, op, socket);
    if (n >= 0)
      return n;
    if (errno == EINTR)
      continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK)
      return -1;
    int e = poll_wait(fd, 1u << op_dir(op), d, NULL);
    if (e) {
      errno = e;
      return -1;
    }
  }
}

ssize_t cacs__uring_io(int fd, const struct io_op *op, struct io_deadline *d) {
  struct ur_fd *r = ur_prepare(fd);
  if (!r)
    return -1;
  int socket = r->socket;
  cacs_coro *self = cacs__self_unshared();
  // Inside a sync block: the call and a blocking wait (poll_wait).
  if (d->timeout_us == 0 || !self || cacs_sync_depth() != 0)
    return io_try_wait(fd, op, socket, d);
  for (;;) {
    if (ring_ready() != 0) {
      // The thread moved to the epoll loop: the call starts over there
      // (io_uring.h's CACS__URING_MOVED), this frame off the stack.
      if (op->kind == OP_ACCEPT)
        return CACS__URING_MOVED;
      CACS_MUSTTAIL return cacs__io_do_moved(fd, op, d);
    }
    if (remaining_us(d) == 0) {
      errno = ETIMEDOUT;
      return -1;
    }
    struct ur_req q;
    struct msghdr m;
    struct io_uring_sqe *s = req_start(&q, fd, self);
    if (!s)
      return -1;
    q.in = !op_dir(op);
    cacs__uring_op_prep(s, fd, op, socket, &m);
    io_uring_sqe_set_data(s, &q);
    int e = req_wait(&q, d);
    if (!e && q.res >= 0) {
      cacs__uring_op_wrote(op, (size_t)q.res);
      return q.res;
    }
    if (!e && q.res == -EAGAIN && !U.ready)
      continue; // a fork took the ring (ring_after_fork): another, or epoll
    if (!e && q.res == -EAGAIN) // a file that would not wait: readiness
      e = poll_wait(fd, 1u << op_dir(op), d, self);
    else if (!e && q.res != -EINTR)
      e = -q.res;
    if (e) {
      errno = e;
      return -1;
    }
  }
}

int cacs__uring_accept(int lfd, struct sockaddr *addr, socklen_t *addrlen,
                       int64_t timeout_us) {
  struct io_deadline d = {timeout_us, 0};
  struct io_op op = {OP_ACCEPT, 0, addr, 0, addrlen};
  // Connections come in bursts: take what is queued at once, and ask the
  // ring only when there is none (one round per connection otherwise).
  int c;
  if (!ur_prepare(lfd))
    return -1;
  while ((c = (int)op_try(lfd, &op, 1)) < 0 && errno == EINTR) {
  }
  if (c < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    c = (int)cacs__uring_io(lfd, &op, &d);
  if (c < 0)
    return c; // -1, or CACS__URING_MOVED
  // A new descriptor: whatever the number meant before is stale.
  cacs__uring_forget(c);
  struct ur_fd *r = ur_rec(c);
  if (!r) {
    close(c);
    return -1;
  }
  r->known = 1; // accept made it non-blocking
  r->socket = 1;
  return c;
}

// The ring's wait of a connecting socket (io_connect_thread).
static inline __attribute__((always_inline)) int
connect_wait(int fd, struct io_deadline *d) {
  return poll_wait(fd, 2u, d, cacs__self_unshared());
}

int cacs__uring_connect(int fd, const struct sockaddr *addr,
                        socklen_t addrlen, int64_t timeout_us) {
  if (!ur_prepare(fd))
    return -1;
  return io_connect_thread(fd, addr, addrlen, timeout_us, connect_wait);
}

// Turn the entry of `q` into a no-op if the kernel has not taken it yet:
// the request never starts, never names its descriptor, and completes in
// the next poll. 1 if so; 0 if the kernel has the request.
static int req_unqueue(struct ur_req *q) {
  return cacs__uring_unqueue(&U.ring, (uint64_t)(uintptr_t)q);
}

int cacs__uring_unqueue(struct io_uring *ring, uint64_t user_data) {
  struct io_uring_sq *sq = &ring->sq;
  // The entries from the kernel's head to ours are not submitted (it reads
  // them only in this thread's io_uring_enter: no SQPOLL), in ring order.
  for (unsigned i = IO_URING_READ_ONCE(*sq->khead); i != sq->sqe_tail; i++) {
    struct io_uring_sqe *s = &sq->sqes[i & sq->ring_mask];
    if (s->user_data == user_data) {
      io_uring_prep_nop(s);
      io_uring_sqe_set_data64(s, user_data);
      return 1;
    }
  }
  return 0;
}

// Nothing is submitted here: a submission would start every request the
// round queued, and one of them (a read queued before a fork, whose
// process then closes the descriptor) could take bytes that are not its
// own (test/runtime/io-fork.c). A request not submitted yet becomes a
// no-op: it never runs, and close(2) may reuse the number at once. One
// the kernel has is canceled in the next poll, which submits before it
// runs the completions' work (IORING_SETUP_DEFER_TASKRUN): bytes that
// came meanwhile stay in the descriptor.
void cacs__uring_forget(int fd) {
  if ((size_t)fd >= U.nfds)
    return;
  struct ur_fd *r = &U.fds[fd];
  for (struct ur_req *q = r->reqs; q; q = q->next) {
    q->closed = 1;
    if (req_unqueue(q))
      continue;
    req_cancel(q);
    // No room for the cancel (a full queue the kernel would not take):
    // woken, the waiter tries again every UR_RETRY_US (req_wait), not
    // only at its own timeout (a read of a quiet pipe may have none).
    if (!q->canceled)
      cacs_wake(q->co);
  }
  r->known = 0;
}

#endif // CACS_HAVE_LIBURING
