//===- lib/io_epoll.c - The I/O engine: poll(2) and epoll ---------------===//
//
// One event loop per thread, plugged into the core scheduler through
// lib/sched.h: the service coroutine calls io_poll once per round of the
// ready ring, and blocks in it when nothing else is ready. The rest of the
// module reaches the loop through the engine's hooks (io_internal.h).
//
// Two ways to wait. A loop starts in poll mode: a poll(2) array holds the
// descriptors that have waiters, each for the directions waited on, and
// the core's wake-up eventfd; a wait adds its descriptor, readiness or the
// wait's end removes it (O(1): the last entry takes the free place). The
// kernel hooks a sleeping poll(2) into each socket's wait queue only for
// the duration of the call; an epoll registration stays hooked, and every
// arrival on the socket then calls into the epoll instance in the sender's
// context, which over loopback makes the peer slower (see cacs/io.h). When
// more than poll_max descriptors wait at once, the loop registers them all
// with epoll and stays in epoll mode.
//
// In epoll mode every descriptor is registered once, edge-triggered, for
// both directions (EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET), the first
// time a coroutine waits on it; no epoll_ctl per wait. Edge-triggered is
// correct because a coroutine waits only right after its system call
// returned EAGAIN: any readiness after that point produces a new edge (and
// one that came before the registration is reported by EPOLL_CTL_ADD
// itself). Events for a direction nobody waits on only update the record.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "errors.h"
#include "internal.h"
#include "io_internal.h"
#include "sched.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// epoll_wait's batch: the events one poll hands out.
enum { IO_EVENTS = 128 };
// Poll mode's most descriptors (the default of CACS_IO_POLL_MAX).
enum { IO_POLL_MAX = 1024 };

// --- poll mode's set ------------------------------------------------------

// Cross-thread wakes (cacs/sync.h): while this loop blocks, the core's
// wake-up eventfd must make it return. The core that has it defines these
// (lib/sched.h); weak, so that the module also links with a core without
// it, and then has nothing more to watch.
int cacs__poll_wake_fd(void) __attribute__((weak));
void cacs__poll_wake_fd_unwatched(void) __attribute__((weak));

// The wake-up eventfd could not be watched (no memory): the core must not
// count on this loop returning when it becomes readable.
static void wake_fd_unwatched(void) {
  if (cacs__poll_wake_fd_unwatched)
    cacs__poll_wake_fd_unwatched();
}

// epoll mode: watch the core's wake-up eventfd, level-triggered; the core
// resets it, and io_poll finds no waiter on it.
static void epoll_watch_wake_fd(int fd) {
  struct epoll_event ev = {EPOLLIN, {.fd = fd}};
  if (epoll_ctl(L.eng.epfd, EPOLL_CTL_ADD, fd, &ev) != 0)
    wake_fd_unwatched();
}

// Leave poll mode: register every descriptor of the poll set with epoll
// (EPOLL_CTL_ADD reports the readiness it finds as an edge, so no wake-up
// is lost) and wait with epoll from now on.
__attribute__((noinline, cold)) static void switch_to_epoll(void) {
  L.eng.use_epoll = 1;
  for (size_t i = 0; i < L.eng.npfds; i++) {
    int fd = L.eng.pfds[i].fd;
    if (fd == L.eng.wake_fd) {
      epoll_watch_wake_fd(fd);
      continue;
    }
    L.fds[fd].eng.pidx = 0;
    // Failed: the waiters' timeouts end them.
    cacs__io_register(fd, &L.fds[fd]);
  }
  free(L.eng.pfds);
  L.eng.pfds = NULL;
  L.eng.npfds = L.eng.cap_pfds = 0;
}

// Append `fd` to the poll set, which has room: its entry's 1 + index.
static inline unsigned pset_append(int fd, short events) {
  L.eng.pfds[L.eng.npfds] = (struct pollfd){fd, events, 0};
  return (unsigned)++L.eng.npfds;
}

// Append `fd` to the poll set, growing it; 1 + its index, or -1 with errno
// ENOMEM.
static int pset_add(int fd, short events) {
  if (L.eng.npfds == L.eng.cap_pfds) {
    size_t cap = L.eng.cap_pfds ? 2 * L.eng.cap_pfds : 64;
    struct pollfd *t = (struct pollfd *)realloc(L.eng.pfds, cap * sizeof *t);
    if (!t) {
      errno = ENOMEM;
      return -1;
    }
    L.eng.pfds = t;
    L.eng.cap_pfds = cap;
  }
  return (int)pset_append(fd, events);
}

// The directions `r` has waiters in, as poll(2) names them.
static short poll_events(const struct io_fd *r) {
  return (short)((r->waiters[DIR_IN] ? POLLIN | POLLPRI | POLLRDHUP : 0) |
                 (r->waiters[DIR_OUT] ? POLLOUT : 0));
}

// The poll set's growth, or the move to epoll mode once it would hold
// more than poll_max descriptors: realloc, or free and an epoll_ctl(2)
// per descriptor, on the thread's own stack (cacs__deep_call), which the
// waits' park budget (cacs/detail/contract.h) need not hold. `arg`: the
// descriptor (the pointer's value); the answer is in its record (watched
// or not: interest), errno set if not, so that the wait's frame holds no
// argument block for the call (224 bytes of cacs_wait_fd's budget of 248
// with one, x86-64).
static void interest_add_deep(void *arg) {
  int fd = (int)(intptr_t)arg;
  struct io_fd *r = &L.fds[fd];
  if (L.eng.npfds >= L.eng.poll_max) {
    switch_to_epoll();
    if (!r->eng.registered)
      cacs__io_register(fd, r);
    return;
  }
  int n = pset_add(fd, poll_events(r));
  if (n > 0)
    r->eng.pidx = (unsigned)n;
}

// Poll mode: make the poll set watch `fd` for the directions it has
// waiters in (and drop it when it has none); epoll mode watches every
// registered descriptor for both. 0, or -1 with errno. One body in two
// conventions: cacs__io_interest_pn for the waits (io_internal.h).
static inline __attribute__((always_inline)) int interest(int fd,
                                                          struct io_fd *r) {
  if (L.eng.use_epoll)
    return 0;
  short events = poll_events(r);
  if (r->eng.pidx) {
    size_t i = r->eng.pidx - 1;
    if (events) {
      L.eng.pfds[i].events = events;
      return 0;
    }
    // Remove: the last entry takes its place.
    r->eng.pidx = 0;
    struct pollfd last = L.eng.pfds[--L.eng.npfds];
    if (i != L.eng.npfds) {
      L.eng.pfds[i] = last;
      L.fds[last.fd].eng.pidx = (unsigned)i + 1;
    }
    return 0;
  }
  if (!events)
    return 0;
  if (L.eng.npfds >= L.eng.poll_max || L.eng.npfds == L.eng.cap_pfds) {
    cacs__deep_call(interest_add_deep, (void *)(intptr_t)fd);
    return r->eng.pidx || r->eng.registered ? 0 : -1;
  }
  r->eng.pidx = pset_append(fd, events);
  return 0;
}

int cacs__io_interest(int fd, struct io_fd *r) { return interest(fd, r); }

CACS__IO_PN int cacs__io_interest_pn(int fd, struct io_fd *r) {
  return interest(fd, r);
}

void cacs__io_unwatch(int fd, struct io_fd *r, int deregister) {
  cacs__io_interest(fd, r);
  if (deregister && r->eng.registered)
    epoll_ctl(L.eng.epfd, EPOLL_CTL_DEL, fd, NULL);
}

// --- the loop -------------------------------------------------------------

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
  if (!L.eng.use_epoll)
    return ppoll(L.eng.pfds, L.eng.npfds, timeout_us < 0 ? NULL : &ts, NULL);
  if (timeout_us > 0 && !L.eng.no_pwait2) {
    int n = epoll_pwait2(L.eng.epfd, ev, IO_EVENTS, &ts, NULL);
    if (n >= 0 || errno != ENOSYS)
      return n;
    L.eng.no_pwait2 = 1; // older kernels, qemu-user
  }
  // Milliseconds, rounded up so that a timer is never polled early; a
  // timer past INT_MAX ms (24.8 days) is polled early, and the core waits
  // again.
  int64_t ms = timeout_us < 0 ? -1 : (timeout_us + 999) / 1000;
  return epoll_wait(L.eng.epfd, ev, IO_EVENTS,
                    ms > INT_MAX ? INT_MAX : (int)ms);
}

static void io_poll(int64_t timeout_us) {
  struct epoll_event ev[IO_EVENTS];
  int n = 0;
  if (L.eng.epfd < 0 && cacs__io_loop_init() != 0) // a child after fork
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
  if (L.eng.use_epoll) {
    for (int i = 0; i < n; i++) {
      size_t fd = (size_t)ev[i].data.fd;
      if (fd < L.nfds)
        fd_ready(&L.fds[fd], ev[i].events);
    }
    return;
  }
  // From the end: an entry that leaves the set takes the last one's place,
  // which has been seen already. The wake-up eventfd is the core's.
  for (size_t i = L.eng.npfds; i-- > 0;) {
    struct pollfd p = L.eng.pfds[i];
    if (!p.revents || p.fd == L.eng.wake_fd)
      continue;
    struct io_fd *r = &L.fds[p.fd];
    // Closed behind the module's back, or by another thread as the call
    // began: each waiter fails with EBADF, as its retried call would, and
    // a cacs_wait_fd, which has no call to retry, does not report the
    // closed number ready (cacs/io.h: EBADF).
    if (p.revents & POLLNVAL) {
      wake_all(r, DIR_IN, EBADF);
      wake_all(r, DIR_OUT, EBADF);
    } else {
      fd_ready(r, p.revents);
    }
    cacs__io_interest(p.fd, r);
  }
}

static pthread_key_t loop_key;
static pthread_once_t loop_key_once = PTHREAD_ONCE_INIT;

// At thread exit: close the epoll instance and free the records.
static void loop_destroy(void *unused) {
  (void)unused;
  if (L.eng.epfd >= 0)
    close(L.eng.epfd);
  free(L.fds);
  free(L.eng.pfds);
  L = (io_loop)IO_LOOP_INIT;
}

// fork(): the child would share the parent's epoll instance, and either
// process could consume the other's edges. In the child (only the forking
// thread lives on) the inherited instance is dropped; the next wait or poll
// makes a new one and registers again the descriptors that have waiters.
static void loop_after_fork(void) {
  if (L.eng.epfd < 0)
    return;
  close(L.eng.epfd);
  L.eng.epfd = -1;
  for (size_t fd = 0; fd < L.nfds; fd++)
    L.fds[fd].eng.registered = 0;
}

static void loop_key_init(void) {
  cacs__key_create(&loop_key, loop_destroy, "the I/O loop's thread exit");
  if (pthread_atfork(NULL, NULL, loop_after_fork) != 0)
    cacs__fatalf("cacs: pthread_atfork: out of memory\n");
}

void cacs__io_loop_free_at_exit(void) {
  pthread_once(&loop_key_once, loop_key_init);
  pthread_setspecific(loop_key, &L);
}

void cacs__io_register_deep(void *fd) {
  cacs__io_register((int)(intptr_t)fd, &L.fds[(intptr_t)fd]);
}

int cacs__io_register(int fd, struct io_fd *r) {
  struct epoll_event ev = {EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLPRI | EPOLLET,
                           {.fd = fd}};
  if (epoll_ctl(L.eng.epfd, EPOLL_CTL_ADD, fd, &ev) != 0 && errno != EEXIST)
    return -1; // EPERM: a file epoll cannot wait for
  r->eng.registered = 1;
  return 0;
}

long long cacs__io_env_number(const char *name, long long max,
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
  return cacs__io_env_number("CACS_IO_SPIN_US", 1000000,
                             CACS_IO_SPIN_DEFAULT_US);
}

int64_t cacs_io_set_spin(int64_t usec) {
  int64_t old = L.spin_us < 0 ? default_spin_us() : L.spin_us;
  L.spin_us = usec < 0 ? default_spin_us() : usec > 1000000 ? 1000000 : usec;
  return old;
}

// The most descriptors poll mode watches: CACS_IO_POLL_MAX from the
// environment (0: always epoll), else IO_POLL_MAX.
static size_t poll_max(void) {
  return (size_t)cacs__io_env_number("CACS_IO_POLL_MAX", LLONG_MAX,
                                     IO_POLL_MAX);
}

int cacs__io_loop_init(void) {
  int epfd = epoll_create1(EPOLL_CLOEXEC);
  if (epfd < 0)
    return -1;
  if (L.spin_us < 0)
    L.spin_us = default_spin_us();
  if (!L.eng.poll_max) {
    L.eng.poll_max = poll_max();
    L.eng.use_epoll = L.eng.poll_max == 0;
  }
  cacs__io_loop_free_at_exit();
  L.eng.epfd = epfd;
  cacs__set_poll_hook(io_poll);
  int wake_fd = cacs__poll_wake_fd ? cacs__poll_wake_fd() : -1;
  L.eng.own_wake_fd = wake_fd;
  if (L.eng.use_epoll) {
    if (wake_fd >= 0)
      epoll_watch_wake_fd(wake_fd);
    for (size_t fd = 0; fd < L.nfds; fd++) { // after fork: the waiters
      struct io_fd *r = &L.fds[fd];
      if (r->waiters[DIR_IN] || r->waiters[DIR_OUT])
        cacs__io_register((int)fd, r);
    }
  } else if (wake_fd >= 0) {
    // First in the set, where no removal moves it (after fork, in place).
    if (L.eng.wake_fd >= 0 && L.eng.npfds && L.eng.pfds[0].fd == L.eng.wake_fd)
      L.eng.pfds[0].fd = wake_fd;
    else if (pset_add(wake_fd, POLLIN) < 0) {
      wake_fd = -1;
      wake_fd_unwatched();
    }
  }
  L.eng.wake_fd = wake_fd;
  return 0;
}
