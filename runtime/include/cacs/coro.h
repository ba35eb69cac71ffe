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
// order; cacs_yield() switches to the next ring member. cacs_join() yields
// until the target has finished, then frees it. Every coroutine must be
// joined exactly once (from any coroutine of its thread, including main).
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
/// first runs when the creator yields or joins. Returns NULL on failure.
cacs_coro *cacs_create(cacs_entry_fn entry, void *arg, size_t stack_size);
cacs_coro *cacs_create_ex(cacs_entry_fn entry, void *arg,
                          const cacs_coro_attr *attr);

/// Switch to the next ready coroutine (returns at once if there is none).
/// preserve_none: callers spill only what they need; the switch at its end is
/// a tail switch (resumption lands directly in our caller).
/// Two entry points exist so that the calling convention always matches:
/// compilers with preserve_none call the preserve_none one (cacs__yield_pn),
/// others (gcc) the default-convention wrapper `cacs_yield`.
#if CACS_HAS_PRESERVE_NONE
CACS_PRESERVE_NONE void cacs_yield(void) __asm__("cacs__yield_pn");
#else
void cacs_yield(void);
#endif

/// Finish the calling coroutine (not main). Returning from entry is the same.
__attribute__((noreturn)) void cacs_exit(void);

/// Yield until `c` has finished, then free it. Returns 0, or -1 if `c` is
/// the caller or main.
int cacs_join(cacs_coro *c);

/// The running coroutine (the thread's main coroutine outside any other).
cacs_coro *cacs_self(void);
int cacs_is_main(const cacs_coro *c);
int cacs_done(const cacs_coro *c);
uint64_t cacs_id(const cacs_coro *c);
const char *cacs_name(const cacs_coro *c);
void cacs_set_name(cacs_coro *c, const char *name);
/// Number of coroutines alive on this thread, main excluded.
size_t cacs_count(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_CORO_H
