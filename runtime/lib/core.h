//===- lib/core.h - The core scheduler's private state ------------*- C -*-===//
//
// What the files of the core scheduler share (sched.c, coro.c, join.c,
// wait.c, inbox.c, coro_info.c): a coroutine's control block, the
// per-thread scheduler state, the ready ring and the preserve_none entries
// of the waiting calls. Private to libcacs; the I/O module reaches the core
// through sched.h only.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_CORE_H
#define CACS_LIB_CORE_H

#include "cacs/coro.h"
#include "coro_layout.h"
#include "internal.h"
#include "sched.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define SLOW_SYNC CACS_SCHED_SLOW_SYNC

enum coro_state {
  CORO_READY,  // on the ready ring (the running coroutine included)
  CORO_PARKED, // off the ring until cacs_wake or its timer
  CORO_DONE,   // finished, off the ring, waiting for cacs_join
};

// What only the tools (tools_always()) and CACS_CORO_SAVE_FPENV need of a
// coroutine: kept beside the control block, only when one of them is in
// use (coro.c: cold_needed), so that the control block of millions of idle
// coroutines stays small and a creation zeroes no block nothing reads. Read
// it through cold(c), never when it may be absent (main always has one).
struct cacs__coro_cold {
  uint32_t fpenv[2];   // private MXCSR+x87 CW / FPCR (CACS_CORO_SAVE_FPENV)
  void *asan_fake;     // ASan fake-stack handle while switched out
  const void *asan_lo; // ASan view of this coroutine's stack
  size_t asan_size;
  cacs__tool_stacks tools; // SafeStack, shadow call stack, TSan (not main's)
  void *unsafe_sp;         // SafeStack: its unsafe stack pointer while out
  void *scs_sp;            // shadow call stack: its x18 while switched out
  void *tsan_fiber;        // ThreadSanitizer: its fiber (main's included)
  // ThreadSanitizer: the fiber to go back to, the one that was running when
  // it switched out: a generator's, if it waits inside the generator's body.
  void *tsan_resume;
  // -fsplit-stack: libgcc's per-thread split-stack state while switched out.
  void *split_ctx[CACS_SPLIT_CTX_WORDS];
};

struct cacs_coro {
  void *sp;               // saved stack pointer while switched out (layout:
  cacs_coro *next, *prev; // coro_layout.h); ready ring, parked/done unlinked
  cacs_entry_fn entry;
  void *arg;
  unsigned char flags; // cacs_coro_flags (coro.h: the one there fits)
  unsigned char state : 2; // enum coro_state
  // Freed when it finishes, without a join (cacs_detach).
  unsigned char detached : 1;
  // Its side block follows it (c + 1): cold(c). A flag, not a pointer, to
  // keep the block of millions of shared-stack coroutines small.
  unsigned char has_cold : 1;
  // Created before its stack (coro.c, "Stacks bound at the first run"):
  // the block is coro_blocks.c's, and `stack` describes a stack only once the
  // coroutine has first run (stack.map set) and until it finishes.
  unsigned char lazy : 1;
  // Its stack could not be had at its first run: it finished without
  // running, and cacs_join fails with ENOMEM.
  unsigned char launch_failed : 1;
  unsigned char wake_result; // what cacs_park_timeout returns: 0 or ETIMEDOUT
  // 1 + index in the timer heap; 0: no timer armed. 32 bits: the heap
  // holds at most one entry per coroutine, and 2^32 control blocks do not
  // fit in any address space this runs in.
  uint32_t timer_slot;
  uint64_t deadline;   // CLOCK_MONOTONIC ns, while timer_slot != 0
  cacs_coro *joiner;   // parked in cacs_join, woken by cacs_exit
  // Last: a shared-stack coroutine's descriptor is the short one (stack.h),
  // and its block ends with it (CORO_SHARED_SIZE) unless it has a side
  // block. On a private stack this block lives at the top of that stack,
  // unless it is `lazy` (coro_blocks.c).
  cacs_stack stack;
};

/// The size of a shared-stack coroutine's control block without a side
/// block: the descriptor stops at its name (stack.h), 120 bytes, which
/// malloc serves from a 128-byte chunk.
#define CORO_SHARED_SIZE                                                     \
  (offsetof(cacs_coro, stack) + CACS_STACK_SHARED_DESC_SIZE)

/// The side block of `c`: present for every coroutine while a tool is on
/// (tools_always()), and for one with CACS_CORO_SAVE_FPENV; right after
/// the control block (coro.c; main's: sched.main_cold, which follows
/// sched.main, sched.c asserts).
static inline struct cacs__coro_cold *cold(const cacs_coro *c) {
  return c->has_cold ? (struct cacs__coro_cold *)(c + 1) : NULL;
}

// Cross-thread wake-ups posted to a thread (sched.h). Other threads touch
// only this; `lock` guards the list and `signalled`.
struct cacs__inbox {
  pthread_mutex_t lock;
  cacs__xwait *head, *tail;
  int efd;       // eventfd (nonblocking), valid once `ready`
  int ready;     // lock and efd set up (by the owner thread)
  int signalled; // efd written since the last drain
  int pending;   // atomic hint: the list may be non-empty
};

typedef struct sched {
  cacs_coro *current;     // &cacs__idle until the scheduler is set up
  // Nonzero: every yield through its slow branch. Bit 0: cacs__yield_slow
  // (FP env, ASan, ...); SLOW_SYNC: a sync block is open (syncblock.c).
  unsigned char slow;
  // Set with `slow` while shared-stack coroutines exist and no tool needs
  // the C slow switch on the outgoing stack (core.h: switch_mode_update):
  // the assembly suspends the outgoing coroutine as the fast path does and
  // runs cacs__yield_offstack on the switcher stack, so that nothing of
  // the switch itself lands in a shared-stack coroutine's saved copy.
  unsigned char offstack;
  unsigned fpenv_users;   // coroutines with CACS_CORO_SAVE_FPENV alive
  void *switcher_top;     // top of the switcher stack, while `offstack`
  // A pool worker (cacs/pool.h): its loop's context, where a pool coroutine
  // on an exact stack ends (trampoline_<arch>.S, cacs__pool_bounded_start).
  struct cacs_context *pool_home;
  cacs_coro *switch_from; // for ASan: who switched to the running coroutine
  void **unsafe_sp_slot;  // SafeStack: the thread's unsafe stack pointer
  uint64_t next_id;
  size_t count;
  size_t shared_users; // coroutines on shared stacks (they need S.slow)
  uint32_t shared_fpenv[2];
  cacs_coro main;
  struct cacs__coro_cold main_cold; // main's side block, always: cold()
  // Waiting (see "Waiting" below).
  cacs_coro *service; // expires timers, polls I/O; NULL until needed
  cacs_coro **timers; // min-heap on deadline
  size_t ntimers, timers_cap;
  size_t io_waiters;       // coroutines blocked in the I/O module
  cacs__poll_fn poll_hook; // the I/O module's event loop, if linked in
  cacs_coro *zombies;      // detached and finished, stacks not yet freed
  size_t remote_waiters;   // coroutines another thread may wake
  int hook_has_wake_fd;    // the poll hook watches inbox.efd
  struct cacs__inbox inbox;
  // The coroutines this thread created that cacs_join or cacs_detach may
  // still be given: an open-addressing hash set (coro.c), so that a handle
  // already freed, or another thread's, is told apart without reading it.
  cacs_coro **live;
  size_t live_cap, live_n;
  // Precomputed from the above and below (coro.c, live_limits), so that an
  // add and a removal test one word each: the count at which an add first
  // grows the table (three quarters full), the count after an add above
  // which it has more to note (live_noted), and the count after a removal
  // at which the table halves (SIZE_MAX: never at this size).
  size_t live_grow_at, live_note_at, live_shrink_at;
  // What the table learned (coro.c, live_epoch_end): the capacity it keeps
  // through a drain, the largest it halved from since the last epoch
  // without growth, the most handles in this epoch and its creates to go.
  size_t live_keep, live_shrunk, live_peak, live_epoch_left;
  unsigned char live_grew;
  // A worker thread of a pool (cacs/pool.h): the waits below refuse the
  // pool coroutines that run on it (pool_refuse).
  unsigned char in_pool;
  // Stacks bound at the first run (coro.c): the launch pad the coroutines
  // that never ran resume on, its image, and the finished coroutine whose
  // stack goes back to the cache once the thread is off it.
  cacs_stack *pad;
  void **pad_image;
  cacs_coro *done_bound;
} sched;

// The running thread's scheduler (sched.c). Hidden, not static: yield_<arch>.S
// reads it (local-exec TLS, see there).
extern CACS_HIDDEN CACS_TLS_LE sched cacs__sched;
#define S cacs__sched

// Read by cacs_yield before the thread has a scheduler: its ring holds only
// itself, so yield returns at once without a separate NULL check. Never
// written (sched.c).
extern CACS_HIDDEN cacs_coro cacs__idle;

// Whether every switch must take cacs__yield_slow whatever the coroutines'
// flags: the ASan and TSan annotations, the SafeStack pointer, x18 for the
// shadow call stack and the split-stack state are switched there, and
// shared stacks copied (shared_stack.h).
static inline unsigned char tools_always(void) {
  return cacs__asan_on() || S.unsafe_sp_slot != NULL || cacs__scs_on ||
         cacs__tsan_on() || cacs__split_on();
}
static inline unsigned char slow_always(void) {
  return tools_always() || S.shared_users != 0;
}

/// Set S.slow and S.offstack from what the thread has now (coroutines on
/// shared stacks or with a private FP environment, the tools linked in).
static inline void switch_mode_update(void) {
  S.slow = (unsigned char)((slow_always() || S.fpenv_users != 0) |
                           (S.slow & SLOW_SYNC));
  S.offstack = S.shared_users != 0 && !tools_always();
}

/// Shared stacks (shared_stack.h): suspend `from` (NULL: it is finishing,
/// do not return) and resume `to` through the switcher stack, which copies
/// what must be copied.
CACS_HIDDEN void cacs__shared_enter(cacs_coro *from, cacs_coro *to);

/// Set up the calling thread's scheduler (its main coroutine).
CACS_HIDDEN void cacs__sched_init(void);
/// Learn the calling thread's stack bounds, once (sysstack.c); called on
/// that stack, where the scheduler is set up.
CACS_HIDDEN void cacs__sysstack_learn(void);

static inline cacs_coro *current(void) {
  if (__builtin_expect(S.current == &cacs__idle, 0))
    cacs__sched_init();
  return S.current;
}

static inline void ring_unlink(cacs_coro *c) {
  c->prev->next = c->next;
  c->next->prev = c->prev;
  c->next = c->prev = c;
}

static inline void ring_insert_before(cacs_coro *at, cacs_coro *c) {
  c->next = at;
  c->prev = at->prev;
  at->prev->next = c;
  at->prev = c;
}

/// Abort: `call`, a wait of the single-thread scheduler, was called on a
/// pool worker, i.e. from a pool coroutine (sched.c).
__attribute__((noreturn, cold)) CACS_HIDDEN void
cacs__pool_misuse(const char *call);
/// The waits that would block a pool worker, or need its own coroutines,
/// call this first: one test of a thread-local byte, off the yield path.
static inline void pool_refuse(const char *call) {
  if (__builtin_expect(S.in_pool, 0))
    cacs__pool_misuse(call);
}

/// Abort: every coroutine of the thread waits and nothing can wake one.
__attribute__((noreturn, cold)) CACS_HIDDEN void
cacs__deadlock(const cacs_coro *self);

/// A coroutine ready to start, on no ring yet (coro.c); NULL on failure.
CACS_HIDDEN cacs_coro *cacs__coro_new(cacs_entry_fn entry, void *arg,
                                      const cacs_coro_attr *attr);
/// Free a finished coroutine's stack and what is bound to it (coro.c).
CACS_HIDDEN void cacs__coro_free(cacs_coro *c);
/// The finished coroutine `c` leaves its stack to be given back (coro.c):
/// the thread is still on it, so it goes at the next first run or free.
CACS_HIDDEN void cacs__coro_exit_stack(cacs_coro *c);
/// The launch pad's stack goes at thread exit (coro.c).
CACS_HIDDEN void cacs__coro_pad_free(void);
/// The control block of a coroutine created before its stack
/// (coro_blocks.c): sizeof(cacs_coro) bytes, or NULL with errno ENOMEM;
/// its free; the thread's spare chunk of them at its exit.
CACS_HIDDEN void *cacs__block_alloc(void);
CACS_HIDDEN void cacs__block_free(void *p);
CACS_HIDDEN void cacs__block_thread_exit(void);
/// An epoch of the thread's creates is over (coro.c, live_epoch_end): the
/// spare chunks of blocks that stayed spare all through it go back.
CACS_HIDDEN void cacs__block_epoch_end(void);
/// A fresh mapping of `bytes` aligned to `align` (a power of two, at
/// least a page), in transparent huge pages if `huge`, else never (best
/// effort) (coro_blocks.c); NULL if there is none.
CACS_HIDDEN void *cacs__map_aligned(size_t bytes, size_t align, int huge);
/// The descriptor of the stack `c` runs on (coro.c), for tests: its kind,
/// size and guard.
CACS_HIDDEN const cacs_stack *cacs__coro_stack(const cacs_coro *c);
/// Free the stacks of detached coroutines that have finished (coro.c).
CACS_HIDDEN void cacs__reap_zombies(void);
/// The set of joinable handles (coro.c): whether `c` is one of this
/// thread's coroutines not yet freed; take it out (it is being freed, or
/// was detached and has finished).
CACS_HIDDEN int cacs__live_has(const cacs_coro *c);
CACS_HIDDEN void cacs__live_remove(const cacs_coro *c);
/// After live_remove_at emptied slot `i`: the entries after it that
/// belong before it move back, and the table halves if it is due (coro.c).
CACS_HIDDEN void cacs__live_removed(size_t i);

/// The slot of `c` in the set of live handles, or the empty one its probe
/// ends at: linear probing on the pointer alone (the handle may be freed
/// memory). The table must exist (S.live_cap != 0). Inline: cacs_join
/// looks up and removes a handle at every coroutine's end.
static inline size_t live_hash(const cacs_coro *c, size_t mask) {
  return (size_t)(((uintptr_t)c >> 6) * 0x9E3779B97F4A7C15ull >> 20) & mask;
}
static inline size_t live_find(const cacs_coro *c) {
  size_t mask = S.live_cap - 1, i = live_hash(c, mask);
  while (S.live[i] && S.live[i] != c)
    i = (i + 1) & mask;
  return i;
}

/// Take the handle in slot `i` out of the set. The common case, a slot
/// with an empty one after it and no shrink due, is three tests and two
/// stores; the rest is cacs__live_removed's.
static inline void live_remove_at(size_t i) {
  S.live[i] = NULL;
  size_t n = --S.live_n;
  if (__builtin_expect(S.live[(i + 1) & (S.live_cap - 1)] != NULL ||
                           n == S.live_shrink_at,
                       0))
    cacs__live_removed(i);
}
/// Free the thread's table of live handles (thread exit).
CACS_HIDDEN void cacs__live_free(void);
/// Abort: `call` was given `c`, which is not a live coroutine of this
/// thread (sched.c).
__attribute__((noreturn, cold)) CACS_HIDDEN void
cacs__bad_handle(const char *call, const void *c);
/// Switch the FP environment from `from`'s to `to`'s (sched.c).
CACS_HIDDEN void cacs__fpenv_switch(cacs_coro *from, cacs_coro *to);
/// Free the thread's scheduler state when the thread exits (sched.c).
CACS_HIDDEN void cacs__sched_free_at_exit(void);
/// Put the service coroutine on the ring, creating it the first time
/// (wait.c); -1 if it cannot be created.
CACS_HIDDEN int cacs__service_ensure(void);
/// Cross-thread wake-ups (inbox.c): wake every coroutine posted to this
/// thread; block until a post or the next timer; fork's child handler.
CACS_HIDDEN void cacs__inbox_drain(void);
CACS_HIDDEN void cacs__inbox_sleep(uint64_t now);
CACS_HIDDEN void cacs__inbox_after_fork(void);

// In yield_<arch>.S: resume the coroutine whose saved sp this is.
__attribute__((noreturn)) void cacs__coro_resume(void *sp);
// In yield_<arch>.S: a fresh shared-stack coroutine's start (coro.c); calls
// the running coroutine's entry, then cacs_exit. Not called from C.
void cacs__shared_start(void);

#if !CACS_HAS_PRESERVE_NONE
#error "libcacs must be built by a compiler with preserve_none (clang >= 19)"
#endif
// The preserve_none entries (coro.h binds calls of the public names to them,
// or to their _bp variants in yield_<arch>.S, which save rbx/x19 around
// them). cacs__yield_pn is assembly; the waiting ones are in wait.c and
// join.c.
CACS_PRESERVE_NONE void cacs__yield_pn(void);
CACS__PN_DEF void cacs__park_pn(void);
CACS__PN_DEF int cacs__park_timeout_pn(int64_t timeout_us);
CACS__PN_DEF int cacs__sleep_pn(int64_t usec);
// io_internal.h's cacs__park_until (it binds to this entry or its _bp).
CACS__PN_DEF int cacs__park_until_pn(uint64_t deadline_ns);
CACS__PN_DEF int cacs__join_pn(cacs_coro *c);
// The switch the waiting entries make. Under ASan, which may realign their
// frames and keep a base pointer in rbx/x19 across it (coro.h takes the
// same view of ASan-instrumented callers), the entry that saves it.
#if CACS_ASAN
CACS_PRESERVE_NONE void cacs__yield_pn_bp(void);
#define switch_pn cacs__yield_pn_bp
#else
#define switch_pn cacs__yield_pn
#endif

// Leave the ready ring and switch to the coroutine that followed `self` on
// it; returns once cacs_wake has put `self` back and it is resumed. The
// switch is cacs_yield's (switch_pn, cacs__yield_pn: preserve_none, it saves
// the frame pointer only, or takes cacs__yield_slow); it goes to
// current->next: unlinking leaves self->next pointing there (cacs_wake sets
// it again).
// Inlined into the preserve_none entries only, which save nothing for
// their callers: only what they keep across the switch is spilled.
static inline __attribute__((always_inline)) void park_self(cacs_coro *self) {
  if (S.zombies)
    cacs__reap_zombies();
  cacs_coro *to = self->next;
  if (to == self)
    cacs__deadlock(self);
  to->prev = self->prev;
  self->prev->next = to;
  self->state = CORO_PARKED;
  switch_pn();
}

#endif // CACS_LIB_CORE_H
