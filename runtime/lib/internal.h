//===- lib/internal.h - libcacs private declarations ------------*- C -*-===//

#ifndef CACS_LIB_INTERNAL_H
#define CACS_LIB_INTERNAL_H

#include "cacs/stack.h"
#include "cacs/switch.h" // CACS_PRESERVE_NONE (CACS__IO_PN)

#include <pthread.h>
#include <signal.h>

// initial-exec: one %fs/tpidr_el0-relative access, valid in executables and
// in shared objects loaded at startup (libcacs is a static library).
#define CACS_TLS __thread __attribute__((tls_model("initial-exec")))
// The scheduler state read by cacs_yield: local-exec (the offset is a
// link-time constant: one instruction on x86-64), because libcacs is a static
// library linked into executables. -DCACS_TLS_INITIAL_EXEC (for the C and
// assembly sources alike) allows linking it into a shared object.
#ifdef CACS_TLS_INITIAL_EXEC
#define CACS_TLS_LE CACS_TLS
#else
#define CACS_TLS_LE __thread __attribute__((tls_model("local-exec")))
#endif

// For what the library's files share and nothing else may call: hidden
// in a shared object that links libcacs in, cacs__-prefixed because a
// static library's hidden symbols still meet the program's at link time.
#define CACS_HIDDEN __attribute__((visibility("hidden")))

// A call in tail position that must stay a jump (a call of a function of
// the caller's own prototype), so that the caller's frame is off the stack
// while the callee runs: a rare path left to an out-of-line function
// (pool/pool_sync.c's), or a call that starts over elsewhere (io_uring.c's
// cacs__uring_io, whose frame would lie below the epoll loop's wait). The
// compilers that build libcacs with exact stacks (stack_exact.h) have it.
#if defined(__has_attribute)
#if __has_attribute(musttail)
#define CACS_MUSTTAIL __attribute__((musttail))
#endif
#endif
#ifndef CACS_MUSTTAIL
#define CACS_MUSTTAIL
#endif

/// The SIGSEGV handler that names overflowing coroutines (stack_overflow.c).
void cacs__segv_handler(int sig, siginfo_t *si, void *uc);
/// The stack of the pool coroutine running on the calling thread, NULL if
/// none (pool_worker.c). The SIGSEGV handler asks it for a fault outside the
/// thread's own registry: a pool coroutine's stack is registered on the
/// worker that allocated it, and runs on any worker. Async-signal-safe.
/// Weak: a program without the pool links none of pool_worker.c.
CACS_HIDDEN const struct cacs_stack *cacs__pool_fault_stack(void)
    __attribute__((weak));
/// The worker loop's saved stack pointer while a pool coroutine runs on
/// the calling thread, NULL otherwise (pool_worker.c, for sysstack.c). Weak.
CACS_HIDDEN void *cacs__pool_system_sp(void) __attribute__((weak));
/// Where a fresh context starts (trampoline_<arch>.S): called through the
/// first switch into it, with {fn, arg} at the stack pointer.
CACS_HIDDEN void cacs__trampoline(void);
/// Where a fresh coroutine on an exact stack starts (trampoline_<arch>.S).
CACS_HIDDEN void cacs__bounded_start(void);
/// Where a fresh pool coroutine on an exact stack starts (the same).
CACS_HIDDEN void cacs__pool_bounded_start(void);
/// fn(arg), on the thread's system stack where it can be found
/// (sysstack.c): libcacs's rare, deep calls inside a wait (a coroutine's
/// creation, a heap's growth, a module's setup, a fatal error's message),
/// which the waits' stack budget (cacs/detail/contract.h) leaves out, so
/// that an exact stack has no room to make for them. fn must not switch.
CACS_HIDDEN void cacs__deep_call(void (*fn)(void *), void *arg);
/// Write `msg` (a string literal, newline included) to stderr and abort.
__attribute__((noreturn, cold)) void cacs__fatal(const char *msg);
/// The same with a printf format (fatal.c): one line, newline included.
__attribute__((noreturn, cold, format(printf, 1, 2))) CACS_HIDDEN void
cacs__fatalf(const char *fmt, ...);
/// pthread_key_create, or abort naming `what` the key is for. Keys are made
/// once per process inside pthread_once, where no caller can be told; only
/// a program that has used up PTHREAD_KEYS_MAX runs out of them.
CACS_HIDDEN void cacs__key_create(pthread_key_t *key, void (*dtor)(void *),
                                  const char *what);

// Whether libcacs itself is built with AddressSanitizer (its own
// preserve_none entries then switch through the _bp entry, core.h).
#if defined(__SANITIZE_ADDRESS__)
#define CACS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CACS_ASAN 1
#endif
#endif
#ifndef CACS_ASAN
#define CACS_ASAN 0
#endif

/// CACS__IO_PN: a call between an entry and the park that takes arguments
/// is preserve_none (cacs/switch.h), as the entries are, so that it
/// pushes none of the six callee-saved registers (x86-64; ten and eight
/// FP ones on AArch64) below a parked coroutine's wait, which the stack
/// budgets count (cacs/detail/contract.h): cacs_wait_fd's in a pool
/// coroutine, 344 -> 296 bytes on x86-64 (test/pool/pool-stack-budget.c);
/// the thread's cacs__io_fd_wait and its io_uring wait, the pool's request
/// start on its worker's ring (io_pool_uring.c's preq_start) too, and the
/// pool's waits for cacs_wait_fd (cacs__pool_io_wait_fd,
/// cacs__pool_ring_wait_fd), and a pool coroutine's transfers
/// (cacs__io_do_pool, cacs__io_connect_pool) and their waits
/// (cacs__pool_io_wait, cacs__pool_ring_wait: AArch64's pool accept 640
/// -> 528 bytes; test/runtime/io-pool-pn.test checks that every unit
/// agrees on their convention): a function that default-convention callers
/// call too (the transfers') gets a variant for them instead, one body in
/// two conventions, since such a caller saves every callee-saved register
/// around a preserve_none call (AArch64's pool read: +160 bytes). Not
/// on AArch64 without optimization, where stock clang's FastISel passes
/// preserve_none arguments in the wrong registers (cacs/detail/bind.h);
/// nor under AddressSanitizer, whose frames then need a realigned stack
/// and a base pointer the convention does not keep ("Stack realignment
/// in presence of dynamic allocas is not supported with this calling
/// convention", a backend fatal error: test/runtime/park-io-registers.c
/// builds the runtime with ASan), and exact stacks are off under it.
#if (defined(__aarch64__) && !defined(__OPTIMIZE__)) || CACS_ASAN
#define CACS__IO_PN
#else
#define CACS__IO_PN CACS_PRESERVE_NONE
#endif

// --- AddressSanitizer fibers -------------------------------------------------
// ASan tracks one stack per thread; every switch to another stack must be
// announced (start) and confirmed (finish), or ASan reports false stack
// overflows, loses fake frames, or aborts ("starting fiber switch while in
// fiber switch") when one side of a switch announces and the other does
// not. Whether the program uses ASan is a link-time fact (its runtime is
// linked in), not a property of libcacs's own build: the annotations go
// through weak references, so the installed libcacs, built without ASan,
// serves ASan programs (their generator switches, inline in their code,
// annotate; libcacs's side of each switch must then annotate too).
// Declared as in <sanitizer/common_interface_defs.h>.
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom,
                                    size_t size) __attribute__((weak));
void __sanitizer_finish_switch_fiber(void *fake_stack_save,
                                     const void **bottom_old, size_t *size_old)
    __attribute__((weak));

/// Whether the program runs under ASan.
static inline int cacs__asan_on(void) {
  return __sanitizer_start_switch_fiber != 0;
}

// --- SafeStack (-fsanitize=safe-stack) ---------------------------------------
// SafeStack moves address-taken locals to a per-thread "unsafe stack" used
// as a LIFO, through the thread-local __safestack_unsafe_stack_ptr of its
// runtime. Coroutines and generators would interleave their frames there,
// so each one gets an unsafe stack of its own, and the pointer is switched
// with the stack pointer. Whether the program uses SafeStack is a link-time
// fact (its runtime is linked in), not a property of libcacs's own build:
// libcacs built without SafeStack serves SafeStack programs, and units built
// with and without it may mix.

/// The calling thread's unsafe stack pointer, or NULL when the program does
/// not use SafeStack.
void **cacs__unsafe_sp_slot(void);

// --- AArch64 shadow call stack (cacs/stack.h) --------------------------------
// Nonzero once a unit built with -fsanitize=shadow-call-stack has called
// cacs__scs_register. libcacs itself must then never touch x18: its AArch64
// build uses -ffixed-x18 and defines CACS_FIXED_X18; a build without them
// aborts at the registration rather than corrupt the shadow stacks.
extern int cacs__scs_on;

// --- ThreadSanitizer fibers --------------------------------------------------
// TSan keeps one call stack and one clock per thread; each coroutine and
// generator is a TSan fiber, and every switch tells it. Like SafeStack a
// link-time fact (weak references to the TSan runtime), so libcacs built
// without TSan serves TSan programs. Declared here as in
// <sanitizer/tsan_interface.h>.
void *__tsan_get_current_fiber(void) __attribute__((weak));
void *__tsan_create_fiber(unsigned flags) __attribute__((weak));
void __tsan_destroy_fiber(void *fiber) __attribute__((weak));
void __tsan_switch_to_fiber(void *fiber, unsigned flags) __attribute__((weak));
void __tsan_set_fiber_name(void *fiber, const char *name) __attribute__((weak));

/// Whether the program runs under TSan.
static inline int cacs__tsan_on(void) { return __tsan_switch_to_fiber != 0; }

// --- stack descriptors (stack_shared.c) --------------------------------------

/// Not a public flag: a coroutine's stack of its own whose owner was given
/// no name yet; cacs__stack_owner says NULL, as for a shared-stack one.
#define CACS__STACK_UNNAMED (1u << 30)
/// Not a public flag: an effect coroutine's stack (effect.c); given no
/// name, it is "effect#<id>" rather than "coro#<id>".
#define CACS__STACK_EFFECT (1u << 28)

/// The name set by cacs_stack_set_owner: "" if none; NULL for a
/// coroutine's descriptor given none (CACS_STACK_SHARED, or
/// CACS__STACK_UNNAMED): its owner makes "coro#<id>" up when asked
/// (coro_info.c), not at each creation.
const char *cacs__stack_owner(const cacs_stack *s);
/// The descriptor of the stack `s`'s owner runs on, with its `lo` and
/// `top`: `s` itself, or for a CACS_STACK_SHARED coroutine's descriptor
/// (which has none) its shared stack's.
const cacs_stack *cacs__stack_exec(const cacs_stack *s);
/// cacs_stack_alloc_at(size, hdr_size, desc_off, flags) when it takes a
/// stack from the thread's cache, with its pages, without a system call;
/// else NULL, with nothing done (stack.c).
CACS_HIDDEN void *cacs__stack_alloc_cached(size_t size, size_t hdr_size,
                                           size_t desc_off, unsigned flags);
/// A stack of cacs_stack_alloc_at(size, hdr_size, desc_off, flags) for a
/// descriptor `s` its owner keeps apart from it (a coroutine created
/// before it first runs, coro.c): fills in all of `s` but its flags, name
/// and id, and registers `s`; the stack's top block is left unused.
/// cacs_stack_free(s) gives it back. 0, or -1 with errno set.
CACS_HIDDEN int cacs__stack_bind(cacs_stack *s, size_t size, size_t hdr_size,
                                 size_t desc_off, unsigned flags);
/// cacs_stack_set_cache_limit's value: the most stacks of a size a
/// thread's cache learns to keep, and coroutines alive its live-handle
/// table keeps room for (stack.c; read relaxed).
extern CACS_HIDDEN size_t cacs__cache_limit;

// --- all of the above, for one owner of a stack (stack_tools.c) -------------

/// Fill `t` in for the owner of stack `s` of `size` usable bytes: an unsafe
/// stack as large (same name, id, flags), a shadow call stack (half as
/// large, growing up to a guard page), a TSan fiber named after the owner,
/// as the program needs. 0, or -1 with errno set and nothing allocated.
int cacs__tool_stacks_init(cacs__tool_stacks *t, size_t size,
                           const cacs_stack *s);
void cacs__tool_stacks_free(cacs__tool_stacks *t);

// --- -fsplit-stack (x86-64) --------------------------------------------------
// Split-stack prologues compare sp with a per-thread limit (%fs:0x70) and
// call __morestack, which chains new segments on per-thread lists, when
// it is passed. libgcc keeps that state, and saves and restores it for
// coroutine libraries through these; they are linked only into programs
// with split-stack code (weak references again).
enum { CACS_SPLIT_CTX_WORDS = 10 };
void __splitstack_getcontext(void *ctx[CACS_SPLIT_CTX_WORDS])
    __attribute__((weak));
void __splitstack_setcontext(void *ctx[CACS_SPLIT_CTX_WORDS])
    __attribute__((weak));
void __splitstack_releasecontext(void *ctx[CACS_SPLIT_CTX_WORDS])
    __attribute__((weak));

/// Whether the program has split-stack code.
static inline int cacs__split_on(void) { return __splitstack_setcontext != 0; }

/// The split-stack context of a fresh stack `s`: no segments yet, the
/// limit some way above its guard page.
void cacs__split_ctx_init(void *ctx[CACS_SPLIT_CTX_WORDS], const cacs_stack *s);

#endif // CACS_LIB_INTERNAL_H
