//===- cacs/coro.h - Symmetric coroutines -----------------------*- C -*-===//
//
// Stackful symmetric coroutines with a per-thread round-robin scheduler.
//
// Thread model: every thread has its own scheduler (thread-local), created
// lazily; the thread's original stack is its "main" coroutine. A coroutine
// belongs to the thread that created it and never migrates; create, yield,
// join and exit are only called from that thread. Any number of threads can
// run schedulers at the same time; nothing is shared between them.
//
// Scheduling: the ready ring is main -> c1 -> c2 -> ... -> main in creation
// order; cacs_yield() switches to the next ring member. A coroutine that
// waits (cacs_park, cacs_sleep, cacs_join, the I/O module and cacs/sync.h)
// leaves the ring until it is woken, and then rejoins it just before the
// coroutine that woke it. cacs_join() waits until the target has finished,
// then frees it. Every coroutine must be joined exactly once (from any
// coroutine of its thread, including main), or detached (cacs_detach).
//
// Errors (runtime/README.md, "Errors"): a call that fails returns -1 (NULL
// for a pointer) and sets errno, as the C library does. Misuse that would
// be undefined behaviour to even detect by reading the object (a coroutine
// handle already freed, or another thread's) aborts with a message naming
// the misuse instead.
//
// C++: exceptions may be thrown and caught inside a coroutine. An exception
// escaping the entry function reaches the start trampoline, whose unwind
// info ends the stack, so the C++ runtime calls std::terminate ("terminate
// called after throwing an instance of ..."). Use cacs::spawn from
// <cacs/coro.hpp> for a message naming the coroutine.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_CORO_H
#define CACS_CORO_H

#include "cacs/detail/bind.h"
#include "cacs/detail/contract.h"
#include "cacs/stack.h"
#include "cacs/switch.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cacs_coro cacs_coro;
typedef void (*cacs_entry_fn)(void *arg);

enum cacs_coro_flags {
  /// Give this coroutine its own MXCSR + x87 control word (FPCR on AArch64),
  /// saved when it switches out and loaded when it switches in. Default:
  /// shared by all coroutines of the thread, like any other thread state.
  CACS_CORO_SAVE_FPENV = 1u << 0,
};

typedef struct cacs_coro_attr {
  size_t stack_size;    ///< 0: CACS_STACK_DEFAULT_SIZE
  unsigned stack_flags; ///< cacs_stack_flags
  unsigned flags;       ///< cacs_coro_flags
  const char *name;     ///< NULL: "coro#<id>"; reported on stack overflow
} cacs_coro_attr;

/// Create a coroutine running entry(arg) on a fresh stack of `stack_size`
/// bytes (0: default) and append it to the calling thread's ready ring. It
/// first runs when the creator yields or joins. Thread: the coroutine
/// belongs to the calling thread.
///
/// When its stack is allocated: at creation if the thread's stack cache
/// holds a warm stack of that size (no system call); otherwise, for a
/// default private stack, when it first runs (docs/runtime.md, "Stacks"):
/// until then it holds a 176-byte control block, and a coroutine that
/// finishes gives its stack back at once, so many created at once and run
/// one after the other reuse one stack. Such a first run that cannot get a
/// stack does not run `entry`: the coroutine finishes at once and
/// cacs_join fails with ENOMEM (a detached one aborts with a message).
/// Stacks taken at creation whatever the cache holds: CACS_STACK_EAGER
/// (its failure is then this call's), shared, exact and NOPOOL stacks,
/// CACS_CORO_SAVE_FPENV, guarded stacks where the kernel lacks guard
/// regions (cacs_stack_guard_kind: their budget of mappings ends here), and
/// every coroutine while a tool is on (ASan, TSan, SafeStack, shadow call
/// stack, split stacks).
/// \return the coroutine, or NULL with errno set:
///   - ENOMEM: no memory for the stack or the tools' stacks (one taken at
///     creation) or the control block, or a `stack_size` no mapping can
///     hold (such as (size_t)-1);
///   - errors of mmap(2) and mprotect(2) for the stack.
cacs_coro *cacs_create(cacs_entry_fn entry, void *arg, size_t stack_size);
/// cacs_create with attributes (`attr` NULL: the defaults). Same errors.
cacs_coro *cacs_create_ex(cacs_entry_fn entry, void *arg,
                          const cacs_coro_attr *attr);

/// Whether a coroutine of `entry` created with the default attributes runs
/// on an exact stack: one of the size the link proved `entry` needs
/// (-fcacs-stack-bounds) plus the 32 bytes libcacs starts it from, with no
/// guard page, from a slab (docs/runtime.md, "Exact stacks"). Such a
/// coroutine gets it whatever `stack_size` says, unless created with
/// CACS_STACK_NOBOUND, CACS_STACK_SHARED or CACS_STACK_NOPOOL. Thread: the
/// answer is the calling thread's (a thread without an alternate signal
/// stack runs none).
/// \return 1, with that stack's usable bytes in `*bytes` if `bytes` is not
///   NULL; 0 when it gets a guarded stack (no bound proven, the program
///   uses none, or a tool runs: ASan, TSan, SafeStack, shadow call stack,
///   split stacks, Valgrind).
int cacs_stack_exact(cacs_entry_fn entry, size_t *bytes);

/// Switch to the next ready coroutine (returns at once if there is none).
/// preserve_none, written in assembly: it saves the stack pointer and the
/// frame pointer only; callers spill what they need (12 instructions on
/// x86-64, the jump into the resumed coroutine included).
///
/// It does not hand rbx/x19 back. A caller that keeps a base pointer there
/// across the call (realigned frame + dynamic alloca) is correct when built
/// by cacs (its preserve-none-safety pass routes such calls through a shield
/// that saves the register; the cacs front door defines __CACS__) or by
/// clang >= 22 on x86-64, which saves rbx around the call itself. Any other
/// preserve_none compiler (stock clang 19 on x86-64, stock clang on AArch64,
/// stock clang with only the pass plugin loaded) binds cacs_yield to an
/// entry that saves the register (4 instructions more), and so do
/// ASan-instrumented callers. CACS_YIELD_SAVE_BP=0 or 1 overrides the choice.
/// Compilers without preserve_none (gcc) bind to a default-convention entry.
/// CACS_YIELD_FULL_SAVE=1 binds any compiler to that entry, which saves
/// every callee-saved register on each switch (the classic full-save
/// switch; for comparisons such as bench/net's mocked clients).
///
/// The waiting calls below (cacs_park, cacs_park_timeout, cacs_sleep,
/// cacs_join) and those of cacs/io.h and cacs/sync.h (which has no _bp
/// entries: see CACS__WAIT_NO_BP_BIND) bind the same way, by the same macros.
///
/// Only calls bind to a preserve_none entry: the address of each of these
/// names (`cacs_sleep`, `&cacs_sleep`, a C++ template argument) is a
/// default-convention function under every compiler, and `(cacs_sleep)(t)`
/// calls it. A C++ member or namespace function named like one of these
/// calls is renamed by the binding macro: name it otherwise. How calls bind:
/// cacs/detail/bind.h.
__attribute__((nothrow)) void cacs_yield(void);

/// Finish the calling coroutine. Returning from entry is the same. Aborts
/// if called on the main coroutine.
__attribute__((noreturn)) void cacs_exit(void);

/// Wait until `c` has finished, then free it: `c` is invalid afterwards.
/// Thread: only from a coroutine (main included) of the thread that created
/// `c`. To join a coroutine from another thread, run it in the M:N pool
/// (cacs/pool.h) and join it with cacs_pool_join.
/// \return 0, or -1 with errno set:
///   - EDEADLK: `c` is the calling coroutine;
///   - EINVAL: `c` is NULL, the thread's main coroutine, detached, or
///     another coroutine is joining it;
///   - ENOMEM: `c` never ran: no stack could be allocated for it at its
///     first run (cacs_create); it is freed all the same.
/// Aborts with a message naming the misuse if `c` is not a live coroutine
/// of this thread: joined already, detached and finished, or created by
/// another thread. (A handle freed and then reused by a new coroutine of
/// the same thread at the same address cannot be told apart: it joins
/// the new one.)
int cacs_join(cacs_coro *c);

/// Let `c` (the caller included) free itself when it finishes, instead of
/// being joined: a server's per-connection coroutines. Its stack is freed
/// soon after it finishes (when another coroutine is created or parks).
/// Thread: as cacs_join.
/// \return 0, or -1 with errno set:
///   - EINVAL: `c` is NULL, the thread's main coroutine, detached already,
///     or another coroutine is joining it.
/// Aborts naming the misuse if `c` is not a live coroutine of this thread
/// (as cacs_join). Once detached, `c` may be passed to cacs_join (which
/// fails with EINVAL) only until it finishes.
int cacs_detach(cacs_coro *c);

/// The running coroutine (the thread's main coroutine outside any other).
/// Never fails.
cacs_coro *cacs_self(void);
/// Whether `c` is its thread's main coroutine. Never fails.
int cacs_is_main(const cacs_coro *c);
/// Whether `c` has finished (and waits for cacs_join). `c` must be live.
int cacs_done(const cacs_coro *c);
/// The coroutine's id: 0 for main, increasing in creation order per
/// thread. `c` must be live.
uint64_t cacs_id(const cacs_coro *c);
/// The coroutine's name ("coro#<id>" unless set). `c` must be live.
const char *cacs_name(const cacs_coro *c);
/// Rename `c` (truncated to 39 characters): shown on stack overflow and
/// in ThreadSanitizer reports. `c` must be live.
void cacs_set_name(cacs_coro *c, const char *name);
/// Number of coroutines alive on this thread, main excluded. Never fails.
size_t cacs_count(void);

// --- Waiting ------------------------------------------------------------
//
// Timeouts are relative, in microseconds of CLOCK_MONOTONIC; a negative
// timeout (CACS_FOREVER) waits forever, 0 does not wait. While a timer is
// armed or a coroutine waits for I/O, a service coroutine named
// "cacs-service" joins the ready ring: it expires timers and polls for I/O
// once per round, and sleeps in the kernel when nothing else is ready. A
// thread whose coroutines all wait with nothing that could wake one (no
// timer, no I/O wait) aborts with "cacs: deadlock: ...".

#define CACS_FOREVER ((int64_t)-1)

/// Leave the ready ring until cacs_wake(self). Never fails; aborts with
/// "cacs: deadlock: ..." if nothing could wake the thread's coroutines.
__attribute__((nothrow)) void cacs_park(void);
/// Leave the ready ring until cacs_wake(self) or the timeout.
/// \return 0 if woken, or -1 with errno set:
///   - ETIMEDOUT: the timeout passed first (at once for 0);
///   - ENOMEM: the timer could not be armed.
int cacs_park_timeout(int64_t timeout_us);
/// Make a parked coroutine ready again; it runs after every coroutine ready
/// now. No effect on a coroutine that is ready, running or finished.
/// Only from a coroutine of the thread that owns `c`.
void cacs_wake(cacs_coro *c);
/// Sleep for `usec` microseconds (<= 0: yield once).
/// \return 0 once the time has passed, or -1 with errno set:
///   - EINTR: cacs_wake ended the sleep early;
///   - ENOMEM: the timer could not be armed.
int cacs_sleep(int64_t usec);

#include "cacs/detail/coro_bind.h"

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_CORO_H
