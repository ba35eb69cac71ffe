//===- lib/sched.h - The scheduler's hooks for the I/O module ---*- C -*-===//
//
// Private interface between the core scheduler (core.h, wait.c) and the
// optional I/O module (cacs_io). The core owns the ready ring, parking and
// timers; the module owns file-descriptor readiness. The core calls the
// module's poll hook from its service coroutine: once per round of the
// ready ring with timeout 0 while other coroutines are ready, and with the
// time to the next timer (or -1, forever) when nothing else is. The hook
// wakes (cacs_wake) every coroutine whose descriptor became ready.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_SCHED_H
#define CACS_LIB_SCHED_H

#include "cacs/coro.h"

#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

/// libcacs's own timed parks (sync.c's waits, the I/O engines') bind to
/// the preserve_none entry on AArch64 too, where cacs/coro.h leaves calls
/// with arguments on the default-convention symbol for stock clang (its
/// FastISel, at -O0, passes them in the wrong registers: detail/bind.h).
/// libcacs is built optimized; the default-convention symbol would save
/// the ten callee-saved registers and eight FP ones (160 bytes) below
/// every such park (the waits' stack budgets, cacs/detail/contract.h).
#if CACS__PN_BIND && !CACS__PN_ARGS_BIND && defined(__OPTIMIZE__)
CACS__PN_DECL CACS__PARK_BUDGET int cacs__lib_park_timeout(int64_t timeout_us)
    CACS__PN_ENTRY(park_timeout);
#define cacs_park_timeout(...) cacs__lib_park_timeout(__VA_ARGS__)
#endif

/// libcacs's own timed park on an absolute deadline (CLOCK_MONOTONIC, ns)
/// that its caller computed: the I/O engines' waits (io_internal.h's
/// io_park) and sync.c's. 0 if woken (cacs_wake, or the caller's
/// readiness), else ETIMEDOUT or ENOMEM (no timer). A preserve_none entry
/// with arguments: libcacs is always built optimized (detail/bind.h's
/// FastISel note).
CACS__PN_DECL int cacs__park_until(uint64_t deadline_ns)
    CACS__PN_ENTRY(park_until);

/// Define cacs_<name>, the default-convention symbol of a waiting call
/// whose preserve_none entry the C expression `entry` reaches (cacs/coro.h,
/// "Only calls bind"): for gcc callers, CACS_YIELD_FULL_SAVE=1, calls that
/// do not bind and every address of the name. Its call to the entry makes
/// the compiler save every callee-saved register that the entry may
/// clobber. The parentheses keep the header's macro from renaming it.
#define CACS__DEFAULT_ENTRY(ret, name, entry, params, args)                    \
  ret(cacs_##name) params { return entry args; }

/// CLOCK_MONOTONIC in nanoseconds: the clock of every deadline.
static inline uint64_t cacs__now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/// Microseconds from `now_ns` to `deadline_ns`, rounded up so that a wait
/// never ends before its deadline; 0 once the deadline has passed.
static inline int64_t cacs__us_until(uint64_t deadline_ns, uint64_t now_ns) {
  return deadline_ns <= now_ns ? 0
                               : (int64_t)((deadline_ns - now_ns + 999) / 1000);
}

/// The deadline `timeout_us` (>= 0) microseconds after `now_ns`. A timeout
/// beyond the clock's range (INT64_MAX: some 292,000 years) saturates
/// instead of wrapping around into the past, where it would expire at once.
static inline uint64_t cacs__deadline_ns(uint64_t now_ns, int64_t timeout_us) {
  uint64_t ns;
  if (__builtin_mul_overflow((uint64_t)timeout_us, (uint64_t)1000, &ns) ||
      __builtin_add_overflow(ns, now_ns, &ns))
    return UINT64_MAX;
  return ns;
}

/// cacs__now_ns for the waits (wait.c): the clock read on the thread's
/// own stack, so that its frames are not below a wait's (the waits' stack
/// budget, cacs/detail/contract.h).
uint64_t cacs__wait_now_ns(void);

/// The deadline `timeout_us` (>= 0) microseconds from now; out of line
/// (wait.c): the clock's result is not in the frames of the waits that
/// call it before they park, nor its read below them (cacs__wait_now_ns).
uint64_t cacs__deadline_in(int64_t timeout_us);

typedef void (*cacs__poll_fn)(int64_t timeout_us);

/// Install the calling thread's poll hook (NULL removes it).
void cacs__set_poll_hook(cacs__poll_fn fn);
/// Bracket a coroutine's wait on a descriptor: while any such wait is open
/// the service coroutine stays on the ring and calls the poll hook. Begin
/// returns -1 (errno ENOMEM) if the service coroutine cannot be created.
int cacs__io_wait_begin(void);
void cacs__io_wait_end(void);
/// The running coroutine (cacs_self), or NULL if it is on a shared stack
/// (cacs/stack.h): its frames are copied out while it waits, so a wait
/// record that others write then must not be one of its locals (sync.c,
/// io_wait.c keep theirs in the heap there). One call for both, on the waits'
/// path.
cacs_coro *cacs__self_unshared(void);

// --- Cross-thread wake-ups -------------------------------------------------
//
// A coroutine that another thread may wake brackets its wait with
// cacs__xwait_begin/end on a record it owns (on its stack). In between, any
// thread may cacs__xwake(record): the record is queued on the owner thread's
// inbox and the thread's wake-up eventfd is written; the owner's service
// coroutine (on the ring while any such wait is open) drains the inbox and
// cacs_wake()s each coroutine. The caller of cacs__xwake must know the
// record is still in its bracket (sync.c: both sides hold the object's
// lock). cacs__xwake on the owner's own thread is plain cacs_wake.
//
// Blocking: with no I/O wait open, the service coroutine blocks in ppoll on
// the eventfd (until the next timer). While an I/O wait is open it blocks in
// the poll hook instead, which should then also return when the eventfd
// becomes readable: the I/O module calls cacs__poll_wake_fd() once per
// thread (when it installs its hook) and adds the descriptor to its epoll
// set, EPOLLIN, level-triggered; it need not read it (the core resets it)
// and ignores its events. Until a thread's module has done so, the core
// caps the hook's timeout at 1 ms while a cross-thread wait is open, so
// those waits still end, up to 1 ms late.

typedef struct cacs__xwait {
  struct cacs__inbox *inbox; // the owner thread's
  int queued;
  // Last: sync.c's waiter records share them (its xwaiter).
  struct cacs__xwait *next, *prev; // in the owner's inbox, under its lock
  cacs_coro *coro;
} cacs__xwait;

/// 0, or ENOMEM / EMFILE (no service coroutine or no eventfd).
int cacs__xwait_begin(cacs__xwait *x);
void cacs__xwait_end(cacs__xwait *x);
void cacs__xwake(cacs__xwait *x);
/// For the I/O module: the calling thread's wake-up eventfd (created on
/// first use), which its poll hook watches from now on; -1 if it cannot be
/// created.
int cacs__poll_wake_fd(void);
/// For the I/O module: its hook could not watch the wake-up eventfd after
/// all (no memory for it in the poll set or the epoll set). The service
/// coroutine then comes back every millisecond while a cross-thread wait is
/// open, as for a hook that never had it (wait.c), instead of blocking in
/// the hook past the wake.
void cacs__poll_wake_fd_unwatched(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_LIB_SCHED_H
