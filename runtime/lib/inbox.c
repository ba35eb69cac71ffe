//===- lib/inbox.c - Cross-thread wake-ups --------------------------------===//
//
// Another thread wakes a coroutine of this one by posting a record to this
// thread's inbox and writing its eventfd (sched.h describes the protocol);
// the service coroutine (wait.c) drains the inbox and wakes the coroutines.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "core.h"
#include "waitq.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

static int inbox_setup(void) {
  struct cacs__inbox *in = &S.inbox;
  if (in->ready)
    return 0;
  in->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (in->efd < 0)
    return errno;
  pthread_mutex_init(&in->lock, NULL);
  cacs__sched_free_at_exit();
  in->ready = 1;
  return 0;
}

// fork(): the child (where only the forking thread lives on) must not share
// the parent's eventfd: a post in either process would wake both, and the
// one with nothing to drain would spin on the readable descriptor. The
// child gets its own (posts already queued stay queued) and a fresh lock
// (another thread may have held it at the fork); its I/O module, which
// makes a new epoll set in the child, asks for the descriptor again.
void cacs__inbox_after_fork(void) {
  struct cacs__inbox *in = &S.inbox;
  if (!in->ready)
    return;
  close(in->efd);
  pthread_mutex_init(&in->lock, NULL);
  S.hook_has_wake_fd = 0;
  in->signalled = 0;
  in->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (in->efd < 0) {
    static const char msg[] =
        "cacs: fork: no eventfd for the child's cross-thread wake-ups\n";
    ssize_t r = write(2, msg, sizeof msg - 1);
    (void)r;
    abort();
  }
  if (in->head) { // posted before the fork, not drained yet
    uint64_t one = 1;
    ssize_t r = write(in->efd, &one, sizeof one);
    (void)r;
    in->signalled = 1;
  }
}

int cacs__poll_wake_fd(void) {
  (void)current();
  if (inbox_setup() != 0)
    return -1;
  S.hook_has_wake_fd = 1;
  return S.inbox.efd;
}

void cacs__poll_wake_fd_unwatched(void) { S.hook_has_wake_fd = 0; }

static void inbox_unlink(struct cacs__inbox *in, cacs__xwait *x) {
  CACS__WAITQ_REMOVE(in, x);
  x->queued = 0;
}

// Wake every coroutine posted to this thread. The eventfd is written and
// reset under the lock, so it is readable exactly while `signalled` is set:
// a write landing after the drain that consumed its post would leave it
// readable with nothing to drain, and every later poll would return at once.
void cacs__inbox_drain(void) {
  struct cacs__inbox *in = &S.inbox;
  if (!in->ready || !__atomic_load_n(&in->pending, __ATOMIC_ACQUIRE))
    return;
  pthread_mutex_lock(&in->lock);
  __atomic_store_n(&in->pending, 0, __ATOMIC_RELAXED);
  if (in->signalled) {
    uint64_t v;
    ssize_t r = read(in->efd, &v, sizeof v);
    (void)r;
    in->signalled = 0;
  }
  cacs__xwait *x;
  while ((x = in->head)) {
    inbox_unlink(in, x);
    cacs_wake(x->coro);
  }
  pthread_mutex_unlock(&in->lock);
}

// Nothing else is ready: block until another thread posts or the next
// timer is due.
void cacs__inbox_sleep(uint64_t now) {
  struct pollfd p = {S.inbox.efd, POLLIN, 0};
  struct timespec ts, *tp = NULL;
  if (S.ntimers != 0) {
    uint64_t d = S.timers[0]->deadline, left = d > now ? d - now : 0;
    ts.tv_sec = (time_t)(left / 1000000000u);
    ts.tv_nsec = (long)(left % 1000000000u);
    tp = &ts;
  }
  ppoll(&p, 1, tp, NULL); // EINTR: the caller's loop looks again
}

int cacs__xwait_begin(cacs__xwait *x) {
  pool_refuse("a wait of cacs/sync.h");
  cacs_coro *self = current();
  int e = inbox_setup();
  if (e)
    return e;
  x->next = x->prev = NULL;
  x->coro = self;
  x->inbox = &S.inbox;
  x->queued = 0;
  S.remote_waiters++;
  if (cacs__service_ensure() != 0) {
    S.remote_waiters--;
    return ENOMEM;
  }
  return 0;
}

void cacs__xwait_end(cacs__xwait *x) {
  S.remote_waiters--;
  // A post of `x` happened before our caller saw it served (sched.h), so
  // `queued` is stable here; the drain runs on this thread.
  if (x->queued) {
    pthread_mutex_lock(&S.inbox.lock);
    inbox_unlink(&S.inbox, x);
    pthread_mutex_unlock(&S.inbox.lock);
  }
}

void cacs__xwake(cacs__xwait *x) {
  struct cacs__inbox *in = x->inbox;
  if (in == &S.inbox) {
    cacs_wake(x->coro);
    return;
  }
  pthread_mutex_lock(&in->lock);
  if (!x->queued) {
    x->queued = 1;
    CACS__WAITQ_PUSH(in, x);
  }
  __atomic_store_n(&in->pending, 1, __ATOMIC_RELEASE);
  if (!in->signalled) { // one write per batch
    uint64_t one = 1;
    ssize_t r = write(in->efd, &one, sizeof one);
    (void)r;
    in->signalled = 1;
  }
  pthread_mutex_unlock(&in->lock);
}
