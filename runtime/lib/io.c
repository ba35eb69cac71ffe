//===- lib/io.c - Descriptor I/O for coroutines: the event loop ----------===//
//
// One event loop per thread, plugged into the core scheduler through
// lib/sched.h: the service coroutine calls io_poll once per round of the
// ready ring, and blocks in it when nothing else is ready.
//
// Design:
// - Two ways to wait. A loop starts in poll mode: a poll(2) array holds the
//   descriptors that have waiters, each for the directions waited on, and
//   the core's wake-up eventfd; a wait adds its descriptor, readiness or
//   the wait's end removes it (O(1): the last entry takes the free place).
//   The kernel hooks a sleeping poll(2) into each socket's wait queue only
//   for the duration of the call; an epoll registration stays hooked, and
//   every arrival on the socket then calls into the epoll instance in the
//   sender's context, which over loopback makes the peer slower (see
//   cacs/io.h). When more than poll_max descriptors wait at once, the loop
//   registers them all with epoll and stays in epoll mode:
// - In epoll mode every descriptor is registered once, edge-triggered, for
//   both directions (EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET), the first time
//   a coroutine waits on it; no epoll_ctl per wait. Edge-triggered is correct
//   because a coroutine waits only right after its system call returned
//   EAGAIN: any readiness after that point produces a new edge (and one
//   that came before the registration is reported by EPOLL_CTL_ADD itself).
//   Events for a direction nobody waits on only update the record.
// - Readiness is cached per direction for TCP sockets, as Asio does: a
//   read (or write) that moved fewer bytes than asked found the socket
//   drained (full) at that moment, so the next call in that direction
//   waits for the next edge without trying first, which would only meet
//   EAGAIN (one system call saved per request on a ping-pong connection).
//   Any event for the direction clears the mark. Sound because TCP ends a
//   short read only on an empty queue, and every byte that arrives after
//   the read makes an edge (and poll(2) reports the level it leaves); the
//   states a read does not consume (end of file, an error, an urgent byte
//   that stops a read short) make their own event (EPOLLRDHUP,
//   EPOLLERR/HUP, EPOLLPRI; POLLRDHUP, ...), after which the descriptor is
//   always tried. Other descriptors (pipes, UNIX sockets, whose short
//   reads stop before passed descriptors) are always tried.
// - Per descriptor number a record (struct io_fd) holds the two lists of
//   waiters (readers, writers). A waiter is a node on the waiting
//   coroutine's stack; readiness wakes every node of the list (each retries
//   its call, and those that meet EAGAIN again wait for the next edge).
// - The records are a table indexed by descriptor number that grows on
//   demand; it may move while a coroutine is parked, so nodes never point
//   into it (the list head is found again by number).
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#define CACS__DEFINE_PN_ENTRIES 1 // the calls below are the entries (io.h)
#include "cacs/io.h"
#include "errors.h"
#include "internal.h"
#include "pool/pool_io.h"
#include "sched.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { DIR_IN = 0, DIR_OUT = 1 };
enum { WAIT_PENDING = -1 };

struct io_waiter {
  struct io_waiter *next, *prev; // prev == NULL: first of its list
  cacs_coro *co;
  int result; // WAIT_PENDING, then 0 (ready) or ECANCELED (closed)
};

struct io_fd {
  struct io_waiter *waiters[2]; // DIR_IN, DIR_OUT
  unsigned char known;          // O_NONBLOCK set, `socket` and `tcp` valid
  unsigned char socket;         // send with MSG_NOSIGNAL
  unsigned char registered;     // in the epoll set
  unsigned char tcp;            // a short transfer drains it (see above)
  unsigned char drained[2];     // not ready, and no event since: wait first
  unsigned pidx;                // poll mode: 1 + its index in L.pfds, or 0
};

typedef struct io_loop {
  int epfd; // -1 until the thread's first wait
  int no_pwait2;
  int64_t spin_us; // cacs_io_set_spin; -1: not set, the default applies
  struct io_fd *fds;
  size_t nfds;
  // Poll mode (see "Two ways to wait" above): the descriptors with waiters
  // and the core's wake-up eventfd, as poll(2) takes them.
  int use_epoll;   // every wait registers with epoll from now on
  int wake_fd;     // the core's wake-up eventfd, or -1
  size_t poll_max; // more descriptors than this: switch to epoll
  struct pollfd *pfds;
  size_t npfds, cap_pfds;
} io_loop;

#define IO_LOOP_INIT                                                           \
  { .epfd = -1, .spin_us = -1, .wake_fd = -1 }
static CACS_TLS io_loop L = IO_LOOP_INIT;

// epoll_wait's batch: the events one poll hands out.
enum { IO_EVENTS = 128 };
// Poll mode's most descriptors (the default of CACS_IO_POLL_MAX).
enum { IO_POLL_MAX = 1024 };

// --- records ------------------------------------------------------------

// Grow the table to hold `fd`; NULL with errno EBADF or ENOMEM.
__attribute__((noinline, cold)) static struct io_fd *fd_rec_grow(int fd) {
  if (fd < 0) {
    errno = EBADF;
    return NULL;
  }
  size_t n = L.nfds ? L.nfds : 64;
  while (n <= (size_t)fd)
    n *= 2;
  struct io_fd *t = (struct io_fd *)realloc(L.fds, n * sizeof *t);
  if (!t) {
    errno = ENOMEM;
    return NULL;
  }
  memset(t + L.nfds, 0, (n - L.nfds) * sizeof *t);
  L.fds = t;
  L.nfds = n;
  return &L.fds[fd];
}

// The record of `fd`; NULL with errno EBADF or ENOMEM.
static inline struct io_fd *fd_rec(int fd) {
  if (__builtin_expect((size_t)fd < L.nfds, 1))
    return &L.fds[fd];
  return fd_rec_grow(fd);
}

// First sight of a descriptor: make it non-blocking, note if it is a socket.
__attribute__((noinline, cold)) static struct io_fd *fd_setup(int fd) {
  struct io_fd *r = fd_rec(fd);
  if (!r)
    return NULL;
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || (!(fl & O_NONBLOCK) && fcntl(fd, F_SETFL, fl | O_NONBLOCK)))
    return NULL;
  struct stat st;
  r->socket = fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode);
  int proto = 0;
  socklen_t len = sizeof proto;
  r->tcp = r->socket &&
           getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) == 0 &&
           proto == IPPROTO_TCP;
  r->known = 1;
  return r;
}

// The record of `fd` after making it non-blocking (once per descriptor).
static inline struct io_fd *fd_prepare(int fd) {
  if (__builtin_expect((size_t)fd < L.nfds && L.fds[fd].known, 1))
    return &L.fds[fd];
  return fd_setup(fd);
}

static void wake_all(struct io_fd *r, int dir, int result) {
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

// --- poll mode's set ------------------------------------------------------

static int fd_register(int fd, struct io_fd *r);

// epoll mode: watch the core's wake-up eventfd, level-triggered; the core
// resets it, and io_poll finds no waiter on it.
static void epoll_watch_wake_fd(int fd) {
  struct epoll_event ev = {EPOLLIN, {.fd = fd}};
  epoll_ctl(L.epfd, EPOLL_CTL_ADD, fd, &ev);
}

// Leave poll mode: register every descriptor of the poll set with epoll
// (EPOLL_CTL_ADD reports the readiness it finds as an edge, so no wake-up
// is lost) and wait with epoll from now on.
__attribute__((noinline, cold)) static void switch_to_epoll(void) {
  L.use_epoll = 1;
  for (size_t i = 0; i < L.npfds; i++) {
    int fd = L.pfds[i].fd;
    if (fd == L.wake_fd) {
      epoll_watch_wake_fd(fd);
      continue;
    }
    L.fds[fd].pidx = 0;
    fd_register(fd, &L.fds[fd]); // failed: the waiters' timeouts end them
  }
  free(L.pfds);
  L.pfds = NULL;
  L.npfds = L.cap_pfds = 0;
}

// Append `fd` to the poll set; 0, or -1 with errno ENOMEM.
static int pset_add(int fd, short events) {
  if (L.npfds == L.cap_pfds) {
    size_t cap = L.cap_pfds ? 2 * L.cap_pfds : 64;
    struct pollfd *t = (struct pollfd *)realloc(L.pfds, cap * sizeof *t);
    if (!t) {
      errno = ENOMEM;
      return -1;
    }
    L.pfds = t;
    L.cap_pfds = cap;
  }
  L.pfds[L.npfds] = (struct pollfd){fd, events, 0};
  return (int)++L.npfds;
}

// Poll mode: make the poll set watch `fd` for the directions it has
// waiters in (and drop it when it has none). 0, or -1 with errno.
static int pset_update(int fd, struct io_fd *r) {
  if (L.use_epoll)
    return 0;
  short events =
      (short)((r->waiters[DIR_IN] ? POLLIN | POLLPRI | POLLRDHUP : 0) |
              (r->waiters[DIR_OUT] ? POLLOUT : 0));
  if (r->pidx) {
    size_t i = r->pidx - 1;
    if (events) {
      L.pfds[i].events = events;
      return 0;
    }
    // Remove: the last entry takes its place.
    r->pidx = 0;
    struct pollfd last = L.pfds[--L.npfds];
    if (i != L.npfds) {
      L.pfds[i] = last;
      L.fds[last.fd].pidx = (unsigned)i + 1;
    }
    return 0;
  }
  if (!events)
    return 0;
  if (L.npfds >= L.poll_max) {
    switch_to_epoll();
    return r->registered ? 0 : fd_register(fd, r);
  }
  int n = pset_add(fd, events);
  if (n < 0)
    return -1;
  r->pidx = (unsigned)n;
  return 0;
}

static int pool_caller(void);
static int wait_fd_pool(int fd, uint32_t events, unsigned dirs,
                        int64_t timeout_us);

// The thread's own loop's record (the pools' records: cacs_io_forget,
// cacs_close).
static void fd_forget(int fd, int deregister) {
  if ((size_t)fd >= L.nfds) // a pool worker's own loop never has records
    return;
  struct io_fd *r = &L.fds[fd];
  wake_all(r, DIR_IN, ECANCELED);
  wake_all(r, DIR_OUT, ECANCELED);
  pset_update(fd, r);
  if (deregister && r->registered)
    epoll_ctl(L.epfd, EPOLL_CTL_DEL, fd, NULL);
  memset(r, 0, sizeof *r);
}

// --- the loop -------------------------------------------------------------

static int loop_init(void);

// Readiness `e` (epoll's bits; poll(2)'s have the same values) came for
// `r`: wake the waiters of each direction it concerns.
static void fd_ready(struct io_fd *r, uint32_t e) {
  if (e & (EPOLLRDHUP | EPOLLHUP | EPOLLERR | EPOLLPRI))
    r->tcp = 0; // a state a call does not consume: always try from now on
  // An urgent byte alone comes without EPOLLIN; recv(MSG_OOB) reads it.
  if (e & (EPOLLIN | EPOLLPRI | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
    r->drained[DIR_IN] = 0;
    wake_all(r, DIR_IN, 0);
  }
  if (e & (EPOLLOUT | EPOLLHUP | EPOLLERR)) {
    r->drained[DIR_OUT] = 0;
    wake_all(r, DIR_OUT, 0);
  }
}

// One epoll_wait or poll(2) of the loop's set for up to `timeout_us`
// (-1: forever; rounded up to milliseconds where the call takes those);
// the number of events, 0, or -1 (errno).
static int loop_wait(struct epoll_event *ev, int64_t timeout_us) {
  struct timespec ts = {(time_t)(timeout_us / 1000000),
                        (long)(timeout_us % 1000000) * 1000};
  if (!L.use_epoll)
    return ppoll(L.pfds, L.npfds, timeout_us < 0 ? NULL : &ts, NULL);
  if (timeout_us > 0 && !L.no_pwait2) {
    int n = epoll_pwait2(L.epfd, ev, IO_EVENTS, &ts, NULL);
    if (n >= 0 || errno != ENOSYS)
      return n;
    L.no_pwait2 = 1; // older kernels, qemu-user
  }
  // Milliseconds, rounded up so that a timer is never polled early; a
  // timer past INT_MAX ms (24.8 days) is polled early, and the core waits
  // again.
  int64_t ms = timeout_us < 0 ? -1 : (timeout_us + 999) / 1000;
  return epoll_wait(L.epfd, ev, IO_EVENTS, ms > INT_MAX ? INT_MAX : (int)ms);
}

static void io_poll(int64_t timeout_us) {
  struct epoll_event ev[IO_EVENTS];
  int n = 0;
  if (L.epfd < 0 && loop_init() != 0) // a child after fork
    return;
  // Spin before sleeping (see cacs_io_set_spin); never past the timeout.
  uint64_t spin_ns = (uint64_t)L.spin_us * 1000u;
  if (timeout_us >= 0 && (uint64_t)timeout_us * 1000u < spin_ns)
    spin_ns = (uint64_t)timeout_us * 1000u;
  if (spin_ns) {
    uint64_t end = cacs__now_ns() + spin_ns;
    while ((n = loop_wait(ev, 0)) == 0 && cacs__now_ns() < end) {
    }
    if (timeout_us > 0)
      timeout_us -= (int64_t)(spin_ns / 1000u); // spun that long already
    if (n == 0 && timeout_us != 0)
      n = loop_wait(ev, timeout_us);
  } else {
    n = loop_wait(ev, timeout_us);
  }
  if (n <= 0)
    return;
  if (L.use_epoll) {
    for (int i = 0; i < n; i++) {
      size_t fd = (size_t)ev[i].data.fd;
      if (fd < L.nfds)
        fd_ready(&L.fds[fd], ev[i].events);
    }
    return;
  }
  // From the end: an entry that leaves the set takes the last one's place,
  // which has been seen already. The wake-up eventfd is the core's.
  for (size_t i = L.npfds; i-- > 0;) {
    struct pollfd p = L.pfds[i];
    if (!p.revents || p.fd == L.wake_fd)
      continue;
    struct io_fd *r = &L.fds[p.fd];
    // Closed behind the module's back: the retried call reports EBADF.
    fd_ready(r, p.revents & POLLNVAL ? EPOLLIN | EPOLLOUT : p.revents);
    pset_update(p.fd, r);
  }
}

static pthread_key_t loop_key;
static pthread_once_t loop_key_once = PTHREAD_ONCE_INIT;

// At thread exit: close the epoll instance and free the records.
static void loop_destroy(void *unused) {
  (void)unused;
  if (L.epfd >= 0)
    close(L.epfd);
  free(L.fds);
  free(L.pfds);
  L = (io_loop)IO_LOOP_INIT;
}

// fork(): the child would share the parent's epoll instance, and either
// process could consume the other's edges. In the child (only the forking
// thread lives on) the inherited instance is dropped; the next wait or poll
// makes a new one and registers again the descriptors that have waiters.
static void loop_after_fork(void) {
  if (L.epfd < 0)
    return;
  close(L.epfd);
  L.epfd = -1;
  for (size_t fd = 0; fd < L.nfds; fd++)
    L.fds[fd].registered = 0;
}

static void loop_key_init(void) {
  if (pthread_key_create(&loop_key, loop_destroy) != 0 ||
      pthread_atfork(NULL, NULL, loop_after_fork) != 0)
    abort();
}

static int fd_register(int fd, struct io_fd *r) {
  struct epoll_event ev = {EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLPRI | EPOLLET,
                           {.fd = fd}};
  if (epoll_ctl(L.epfd, EPOLL_CTL_ADD, fd, &ev) != 0 && errno != EEXIST)
    return -1; // EPERM: a file epoll cannot wait for
  r->registered = 1;
  return 0;
}

// Cross-thread wakes (cacs/sync.h): while this loop blocks, the core's
// wake-up eventfd must make it return. The core that has it defines this
// (lib/sched.h); weak, so that the module also links with a core without
// it, and then has nothing more to watch.
int cacs__poll_wake_fd(void) __attribute__((weak));

// The number in the environment variable `name` if it is one from 0 to
// `max`, else `fallback`.
static long long env_number(const char *name, long long max,
                            long long fallback) {
  const char *e = getenv(name);
  if (e && *e) {
    char *end;
    long long v = strtoll(e, &end, 10);
    if (*end == '\0' && v >= 0 && v <= max)
      return v;
  }
  return fallback;
}

// The spin a thread's loop starts with: CACS_IO_SPIN_US from the
// environment (microseconds, up to a second), else CACS_IO_SPIN_DEFAULT_US.
static int64_t default_spin_us(void) {
  return env_number("CACS_IO_SPIN_US", 1000000, CACS_IO_SPIN_DEFAULT_US);
}

int64_t cacs_io_set_spin(int64_t usec) {
  int64_t old = L.spin_us < 0 ? default_spin_us() : L.spin_us;
  L.spin_us = usec < 0 ? default_spin_us() : usec > 1000000 ? 1000000 : usec;
  return old;
}

// The most descriptors poll mode watches: CACS_IO_POLL_MAX from the
// environment (0: always epoll), else IO_POLL_MAX.
static size_t poll_max(void) {
  return (size_t)env_number("CACS_IO_POLL_MAX", LLONG_MAX, IO_POLL_MAX);
}

static int loop_init(void) {
  int epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0)
    return -1;
  if (L.spin_us < 0)
    L.spin_us = default_spin_us();
  if (!L.poll_max) {
    L.poll_max = poll_max();
    L.use_epoll = L.poll_max == 0;
  }
  pthread_once(&loop_key_once, loop_key_init);
  pthread_setspecific(loop_key, &L);
  L.epfd = epfd;
  cacs__set_poll_hook(io_poll);
  int wake_fd = cacs__poll_wake_fd ? cacs__poll_wake_fd() : -1;
  if (L.use_epoll) {
    if (wake_fd >= 0)
      epoll_watch_wake_fd(wake_fd);
    for (size_t fd = 0; fd < L.nfds; fd++) { // after fork: the waiters
      struct io_fd *r = &L.fds[fd];
      if (r->waiters[DIR_IN] || r->waiters[DIR_OUT])
        fd_register((int)fd, r);
    }
  } else if (wake_fd >= 0) {
    // First in the set, where no removal moves it (after fork, in place).
    if (L.wake_fd >= 0 && L.npfds && L.pfds[0].fd == L.wake_fd)
      L.pfds[0].fd = wake_fd;
    else if (pset_add(wake_fd, POLLIN) < 0)
      wake_fd = -1;
  }
  L.wake_fd = wake_fd;
  return 0;
}

// --- waiting ------------------------------------------------------------

// A call's timeout: the deadline is fixed at its first wait, so that the
// timeout covers every retry of the call.
struct io_deadline {
  int64_t timeout_us;
  uint64_t at_ns; // 0: not started
};

// What to pass to cacs_park_timeout now; 0 once the deadline has passed.
static int64_t remaining_us(struct io_deadline *d) {
  if (d->timeout_us <= 0)
    return d->timeout_us;
  uint64_t now = cacs__now_ns();
  if (d->at_ns == 0) {
    d->at_ns = cacs__deadline_ns(now, d->timeout_us);
    return d->timeout_us;
  }
  return cacs__us_until(d->at_ns, now);
}

// Park `self` on the records `w` until `fd` is ready in one of the
// directions `dirs`, `timeout` passes (> 0 or -1), the descriptor is
// closed, or a cacs_wake. Inlined into fd_wait's two callers of it, so that
// the common one keeps `w` in its own frame.
static inline __attribute__((always_inline)) int
fd_park(int fd, unsigned dirs, struct io_fd *r, int64_t timeout,
        struct io_waiter *w, cacs_coro *self) {
  for (int dir = 0; dir < 2; dir++) {
    w[dir].co = self;
    w[dir].result = WAIT_PENDING;
    if (dirs & (1u << dir))
      waiter_link(fd, dir, &w[dir]);
  }
  int parked = errno = ENOMEM;
  if (pset_update(fd, r) == 0 && cacs__io_wait_begin() == 0) {
    parked = cacs_park_timeout(timeout) == 0 ? 0 : errno;
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
  pset_update(fd, &L.fds[fd]); // drop what the waiters left
  if (result >= 0)
    return result; // ready (even if the timer fired too), or closed
  return parked != 0 ? parked : EINTR; // timeout, no memory, or cacs_wake
}

// fd_park for a coroutine on a shared stack: the records go to the heap,
// since the loop writes them while its frames are copied out
// (cacs/stack.h).
static __attribute__((noinline, cold)) int
fd_park_heap(int fd, unsigned dirs, struct io_fd *r, int64_t timeout) {
  struct io_waiter *w = malloc(2 * sizeof *w);
  if (!w)
    return ENOMEM;
  int e = fd_park(fd, dirs, r, timeout, w, cacs_self());
  free(w);
  return e;
}

// Park until `fd` is ready in one of the directions `dirs` (bit DIR_IN,
// bit DIR_OUT), the deadline passes, the descriptor is closed, or a
// cacs_wake. Returns 0 (ready: retry the call) or an errno value. Called
// after a system call returned EAGAIN, so only edges to come matter.
static int fd_wait(int fd, unsigned dirs, struct io_deadline *d) {
  int64_t timeout = remaining_us(d);
  if (timeout == 0)
    return ETIMEDOUT;
  if (L.epfd < 0 && loop_init() != 0)
    return errno;
  struct io_fd *r = fd_rec(fd);
  if (!r)
    return errno;
  if (L.use_epoll && !r->registered && fd_register(fd, r) != 0)
    return errno;
  // One call finds the running coroutine and whether it is on a shared
  // stack (the echo server's request path counts it: bench/net).
  cacs_coro *self = cacs__self_unshared();
  if (__builtin_expect(!self, 0))
    return fd_park_heap(fd, dirs, r, timeout);
  struct io_waiter w[2];
  return fd_park(fd, dirs, r, timeout, w, self);
}

int cacs_wait_fd(int fd, uint32_t events, int64_t timeout_us) {
  unsigned dirs = (events & EPOLLIN ? 1u << DIR_IN : 0) |
                  (events & EPOLLOUT ? 1u << DIR_OUT : 0);
  if (!dirs) {
    errno = EINVAL;
    return -1;
  }
  if ((size_t)fd >= L.nfds && pool_caller())
    return wait_fd_pool(fd, events, dirs, timeout_us);
  // Level semantics: the edges already consumed do not come again.
  struct pollfd p = {fd,
                     (short)((events & EPOLLIN ? POLLIN : 0) |
                             (events & EPOLLOUT ? POLLOUT : 0)),
                     0};
  int n;
  while ((n = poll(&p, 1, 0)) < 0 && errno == EINTR) {
  }
  if (n < 0)
    return -1;
  if (n > 0) {
    if (p.revents & POLLNVAL) {
      errno = EBADF;
      return -1;
    }
    return 0;
  }
  struct io_deadline d = {timeout_us, 0};
  int e = fd_wait(fd, dirs, &d);
  if (e) {
    errno = e;
    return -1;
  }
  return 0;
}

// --- the calls ------------------------------------------------------------

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

// --- pool coroutines ---------------------------------------------------------
// In a pool coroutine (cacs/pool.h) the calls wait through the pool's
// poller (lib/pool/pool_io.c), not this thread's loop: a worker thread's
// loop never has a record, so a call reaches the pool's side from the cold
// path that a descriptor without a record takes, and the single-thread
// path pays nothing for it. The pool's functions are weak references: a
// program that uses this module without the pool links none of the pool.
// A pool coroutine may resume on another worker after a wait, whose errno
// is another address, so errno is read and set by out-of-line helpers
// after a wait (as in lib/pool/pool.c).

struct cacs__ptask *cacs__pool_self(void) __attribute__((weak));
#pragma weak cacs__pool_io_fd
#pragma weak cacs__pool_io_prepare
#pragma weak cacs__pool_io_wait
#pragma weak cacs__pool_io_forget
#pragma weak cacs__pool_io_forget_any
#pragma weak cacs__pool_io_close

// Whether the caller is a pool coroutine.
__attribute__((noinline, cold)) static int pool_caller(void) {
  return cacs__pool_self && cacs__pool_self();
}

// The pool's wait for `fd` in `dirs` after generation `gen` (pool_io.h),
// under the call's deadline: 0 (try again) or an errno value.
static int pool_fd_wait(cacs__pool_fd *r, unsigned dirs, uint64_t gen,
                        struct io_deadline *d) {
  int64_t timeout = remaining_us(d);
  if (timeout == 0)
    return ETIMEDOUT;
  return cacs__pool_io_wait(r, dirs, gen, timeout < 0 ? 0 : d->at_ns);
}

// cacs_wait_fd in a pool coroutine: the generation before the look.
__attribute__((noinline, cold)) static int
wait_fd_pool(int fd, uint32_t events, unsigned dirs, int64_t timeout_us) {
  cacs__pool_fd *r = cacs__pool_io_fd(fd);
  uint64_t gen = r ? cacs__pool_io_gen(r) : 0; // no record: poll says why
  struct pollfd p = {fd,
                     (short)((events & EPOLLIN ? POLLIN : 0) |
                             (events & EPOLLOUT ? POLLOUT : 0)),
                     0};
  int n;
  while ((n = poll(&p, 1, 0)) < 0 && cacs__errno() == EINTR) {
  }
  if (n < 0)
    return -1;
  if (n > 0) {
    if (p.revents & POLLNVAL) {
      cacs__set_errno(EBADF);
      return -1;
    }
    return 0;
  }
  if (!r)
    return -1;
  struct io_deadline d = {timeout_us, 0};
  int e = pool_fd_wait(r, dirs, gen, &d);
  if (e) {
    cacs__set_errno(e);
    return -1;
  }
  return 0;
}

// op_try in a pool coroutine, errno read on the thread that made the call.
__attribute__((noinline)) static ssize_t op_try_pool(int fd,
                                                     const struct io_op *op,
                                                     int socket, int *err) {
  ssize_t n = op_try(fd, op, socket);
  *err = n < 0 ? errno : 0;
  return n;
}

// io_do in a pool coroutine: the generation of the descriptor's events is
// read before each attempt, so that an event polled by any worker between
// the EAGAIN and the wait makes the wait return at once (pool_io.h).
// TCP sockets keep the readiness cache of the single-thread loop (see the
// top of this file), per generation: a short transfer marks the direction
// drained until the next event.
__attribute__((noinline, cold)) static ssize_t
io_do_pool(int fd, uint64_t kind_flags, void *buf, size_t n_,
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
  int dir = op->kind == OP_WRITE || op->kind == OP_WRITEV || op->kind == OP_SEND
                ? DIR_OUT
                : DIR_IN;
  int cache = (flags & 2) && op_short_drains(op);
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
    if ((err = pool_fd_wait(r, 1u << dir, gen, d))) {
      cacs__set_errno(err);
      return -1;
    }
  }
}

// Try the call, unless the direction is known drained and the call may
// wait (a zero timeout always tries); on EAGAIN wait for the direction it
// needs and try again.
static inline __attribute__((always_inline)) ssize_t
io_do(int fd, const struct io_op *op, struct io_deadline *d) {
  struct io_fd *r;
  if (__builtin_expect((size_t)fd < L.nfds && L.fds[fd].known, 1))
    r = &L.fds[fd];
  else if (pool_caller())
    return io_do_pool(fd, (uint64_t)op->kind << 32 | (uint32_t)op->flags,
                      op->buf, op->n, op->addrlen, d);
  else if (!(r = fd_setup(fd)))
    return -1;
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
    int e = fd_wait(fd, 1u << dir, d);
    if (e) {
      errno = e;
      return -1;
    }
  }
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

int cacs_accept(int lfd, struct sockaddr *addr, socklen_t *addrlen,
                int64_t timeout_us) {
  int c = (int)io_call(lfd, (struct io_op){OP_ACCEPT, 0, addr, 0, addrlen},
                       timeout_us);
  if (c < 0)
    return -1;
  if ((size_t)lfd >= L.nfds) { // a pool coroutine's (io_do_pool)
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

// After a wait for a connecting socket to be writable: 0 connected, -1 the
// connection failed (errno set), 1 not yet (a wakeup that came early).
// Out of line, so that a pool coroutine that resumed on another worker
// reads and sets its new thread's errno here.
__attribute__((noinline)) static int connect_finished(int fd) {
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

// cacs_connect in a pool coroutine (see io_do_pool).
__attribute__((noinline, cold)) static int
connect_pool(int fd, const struct sockaddr *addr, socklen_t addrlen,
             int64_t timeout_us) {
  cacs__pool_fd *r = cacs__pool_io_fd(fd);
  if (!r || cacs__pool_io_prepare(r) < 0)
    return -1;
  uint64_t gen = cacs__pool_io_gen(r);
  if (connect(fd, addr, addrlen) == 0)
    return 0;
  if (errno != EINPROGRESS && errno != EINTR)
    return -1;
  struct io_deadline d = {timeout_us, 0};
  for (;;) {
    int e = pool_fd_wait(r, 1u << DIR_OUT, gen, &d);
    if (e) {
      cacs__set_errno(e);
      return -1;
    }
    gen = cacs__pool_io_gen(r);
    int done = connect_finished(fd);
    if (done <= 0)
      return done;
  }
}

int cacs_connect(int fd, const struct sockaddr *addr, socklen_t addrlen,
                 int64_t timeout_us) {
  if (!((size_t)fd < L.nfds && L.fds[fd].known) && pool_caller())
    return connect_pool(fd, addr, addrlen, timeout_us);
  if (!fd_prepare(fd))
    return -1;
  if (connect(fd, addr, addrlen) == 0)
    return 0;
  if (errno != EINPROGRESS && errno != EINTR)
    return -1;
  struct io_deadline d = {timeout_us, 0};
  for (;;) {
    int e = fd_wait(fd, 1u << DIR_OUT, &d);
    if (e) {
      errno = e;
      return -1;
    }
    int done = connect_finished(fd);
    if (done <= 0)
      return done;
  }
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
