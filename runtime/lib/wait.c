//===- lib/wait.c - Parking, timers and the service coroutine -------------===//
//
// A parked coroutine is off the ready ring; cacs_wake puts it back. Timers
// are a binary min-heap of parked coroutines keyed on their deadline. While
// a timer is armed or a coroutine waits in the I/O module, a service
// coroutine is on the ring: once per round it expires timers and polls the
// I/O module without blocking, and when it is the only ready coroutine it
// blocks (in the I/O module's poll, or in clock_nanosleep) until the next
// deadline. cacs_yield's fast path never looks at any of this.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "core.h"
#include "deadline_heap.h"
#include "errors.h"

#include <errno.h>
#include <time.h>

// Default-convention entries under the public names (CACS__DEFAULT_ENTRY in
// sched.h; spelled out for the one without a result).
void(cacs_park)(void) { cacs__park_pn(); }
CACS__DEFAULT_ENTRY(int, park_timeout, cacs__park_timeout_pn, (int64_t t), (t))
CACS__DEFAULT_ENTRY(int, sleep, cacs__sleep_pn, (int64_t t), (t))

// The timer heap (deadline_heap.h): timers_push, timers_remove, ...
CACS__DEADLINE_HEAP(timers, cacs_coro, uint32_t) // < 2^32 entries: core.h

static void timers_grow(void *grown) {
  *(int *)grown = timers_reserve(&S.timers, &S.timers_cap, S.ntimers);
  if (*(int *)grown > 0)
    cacs__sched_free_at_exit();
}

static int timer_arm(cacs_coro *c, uint64_t deadline) {
  int grown = 0;
  // realloc and pthread's keys, on the system stack (core.h).
  if (__builtin_expect(S.ntimers >= S.timers_cap, 0))
    cacs__deep_call(timers_grow, &grown);
  if (grown < 0)
    return -1;
  c->deadline = deadline;
  timers_push(S.timers, &S.ntimers, c);
  return 0;
}

static void timer_disarm(cacs_coro *c) {
  timers_remove(S.timers, &S.ntimers, c);
}

static int service_needed(void) {
  return S.ntimers != 0 || S.io_waiters != 0 || S.remote_waiters != 0;
}

static void service_main(void *arg);

static void service_create(void *unused) {
  (void)unused;
  static const cacs_coro_attr attr = {0, 0, 0, "cacs-service"};
  S.service = cacs__coro_new(service_main, NULL, &attr);
  if (S.service) {
    S.service->state = CORO_PARKED;
    cacs__sched_free_at_exit();
  }
}

// Put the service coroutine on the ring (creating it the first time, on
// the system stack: core.h).
int cacs__service_ensure(void) {
  if (!S.service) {
    cacs__deep_call(service_create, NULL);
    if (!S.service)
      return -1;
  }
  if (S.service->state == CORO_PARKED)
    cacs_wake(S.service);
  return 0;
}

static void expire_timers(uint64_t now) {
  while (S.ntimers != 0 && S.timers[0]->deadline <= now) {
    cacs_coro *c = S.timers[0];
    timer_disarm(c);
    c->wake_result = ETIMEDOUT;
    cacs_wake(c);
  }
}

// Microseconds until the earliest deadline, rounded up; -1: no timer.
static int64_t next_timeout_us(uint64_t now) {
  if (S.ntimers == 0)
    return -1;
  return cacs__us_until(S.timers[0]->deadline, now);
}

static void service_main(void *arg) {
  (void)arg;
  cacs_coro *self = S.service;
  for (;;) {
    uint64_t now = cacs__now_ns();
    expire_timers(now);
    cacs__inbox_drain();
    int alone = self->next == self;
    if (S.poll_hook && S.io_waiters != 0) {
      int64_t t = alone ? next_timeout_us(now) : 0;
      // A hook blind to the wake-up eventfd must come back to drain.
      if (S.remote_waiters != 0 && !S.hook_has_wake_fd && (t < 0 || t > 1000))
        t = 1000;
      S.poll_hook(t);
    } else if (alone && S.remote_waiters != 0) {
      cacs__inbox_sleep(now);
      continue;
    } else if (alone && S.ntimers != 0) {
      struct timespec ts = {(time_t)(S.timers[0]->deadline / 1000000000u),
                            (long)(S.timers[0]->deadline % 1000000000u)};
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
             EINTR) {
      }
      continue;
    }
    if (!service_needed()) {
      cacs_park(); // nothing to serve: off the ring until cacs__service_ensure
      continue;
    }
    if (self->next != self)
      cacs_yield();
  }
}

cacs_coro *cacs__self_unshared(void) {
  cacs_coro *self = current();
  return (self->stack.flags & CACS_STACK_SHARED) ? NULL : self;
}

void cacs__park_pn(void) {
  pool_refuse("cacs_park");
  cacs_coro *self = current();
  park_self(self);
}

void cacs_wake(cacs_coro *c) {
  if (!c || c->state != CORO_PARKED)
    return;
  if (c->timer_slot)
    timer_disarm(c);
  c->state = CORO_READY;
  // Just before the running coroutine: it runs after everything that is
  // ready now, so coroutines woken in a loop cannot starve the others.
  ring_insert_before(S.current, c);
}

// Park `self` until a cacs_wake or the deadline (CLOCK_MONOTONIC, ns): 0
// if woken, ETIMEDOUT, or ENOMEM if no timer could be armed. Inlined into
// the preserve_none entries only (see park_self).
static inline __attribute__((always_inline)) int park_until(cacs_coro *self,
                                                            uint64_t deadline) {
  if (timer_arm(self, deadline) != 0 || cacs__service_ensure() != 0) {
    if (self->timer_slot)
      timer_disarm(self);
    return ENOMEM;
  }
  self->wake_result = 0;
  park_self(self);
  return S.current->wake_result; // resumed: we are current again
}

// park_until `timeout_us` from now (< 0: no timer, 0: ETIMEDOUT at once).
static inline __attribute__((always_inline)) int
park_timeout(cacs_coro *self, int64_t timeout_us) {
  if (timeout_us < 0) {
    park_self(self);
    return 0;
  }
  if (timeout_us == 0)
    return ETIMEDOUT;
  return park_until(self, cacs__deadline_in(timeout_us));
}

// The clock's read for a wait, on the thread's own stack (cacs__deep_call,
// internal.h): below a wait's frame it would put clock_gettime's and the
// vDSO's frames (64 to 112 bytes on x86-64) into every timed wait's stack
// budget (cacs/detail/contract.h); off it, this frame and the move's 16
// bytes. A deep call per timed wait: a stack switch, no system call.
static void now_deep(void *ns) { *(uint64_t *)ns = cacs__now_ns(); }
__attribute__((noinline)) uint64_t cacs__wait_now_ns(void) {
  uint64_t ns;
  cacs__deep_call(now_deep, &ns);
  return ns;
}

__attribute__((noinline)) uint64_t cacs__deadline_in(int64_t timeout_us) {
  return cacs__deadline_ns(cacs__wait_now_ns(), timeout_us);
}

int cacs__park_timeout_pn(int64_t timeout_us) {
  pool_refuse("cacs_park_timeout (or a wait of cacs/sync.h)");
  cacs_coro *self = current();
  int r = park_timeout(self, timeout_us);
  if (__builtin_expect(r != 0, 0)) {
    return cacs__fail(r);
  }
  return 0;
}

// The I/O engines' and sync.c's timed parks (sched.h): their call read the
// clock for its deadline already, and reading it again here would also put
// the vDSO's frames (64 to 112 bytes on x86-64) below the park's deepest
// frame, into every wait's stack budget (cacs/detail/contract.h).
int cacs__park_until_pn(uint64_t deadline_ns) {
  pool_refuse("a wait of cacs/io.h or cacs/sync.h");
  return park_until(current(), deadline_ns);
}

int cacs__sleep_pn(int64_t usec) {
  pool_refuse("cacs_sleep");
  if (usec <= 0) {
    switch_pn();
    return 0;
  }
  int r = park_timeout(current(), usec);
  if (r == ETIMEDOUT)
    return 0;
  return cacs__fail(r == 0 ? EINTR : r);
}

void cacs__set_poll_hook(cacs__poll_fn fn) {
  (void)current();
  S.poll_hook = fn;
}

int cacs__io_wait_begin(void) {
  (void)current();
  // A pool worker never has a service coroutine: every wait that would
  // create one (cacs__service_ensure's callers) refuses it first. So the
  // refusal is tested only where there is none, which costs nothing on
  // this path: the test is the one cacs__service_ensure makes.
  if (__builtin_expect(!S.service, 0))
    pool_refuse("a wait of cacs/io.h");
  S.io_waiters++;
  if (cacs__service_ensure() != 0) {
    S.io_waiters--;
    return -1;
  }
  return 0;
}

void cacs__io_wait_end(void) { S.io_waiters--; }
