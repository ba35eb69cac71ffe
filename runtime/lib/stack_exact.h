//===- lib/stack_exact.h - Exact stacks: the bounds and the slabs -*- C -*-===//
//
// A coroutine whose entry has a stack bound proven at the link
// (-fcacs-stack-bounds) runs on a stack of exactly that size, with no guard
// page (docs/runtime.md, "Exact stacks"). stack_bounds.c reads the
// program's table of bounds and decides once whether libcacs uses it;
// stack_exact.c hands out the stacks, and the thread's exit stack such a
// coroutine finishes on. coro.c and the pool's workers (pool_worker.c,
// pool_stack.c) are their users, cacs__exact_bytes the rule of who gets
// one; stack.c frees them through cacs_stack_free.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_STACK_EXACT_H
#define CACS_LIB_STACK_EXACT_H

#include "cacs/stack.h"
#include "internal.h"

#include <stddef.h>
#include <stdint.h>

/// Whether this libcacs is compiled the way its stack budgets
/// (cacs/detail/contract.h) are measured: a bound counts a budget as all
/// that a switching call of libcacs uses on an exact stack, which has no
/// guard, so a libcacs whose frames are larger (another compiler, no
/// optimisation, a stack protector's canaries, a sanitizer's checks)
/// would overflow into a neighbour in silence. The budget tests
/// (test/runtime/stack-budget.c, test/pool/*-stack-budget*.c) measure
/// libcacs as runtime/CMakeLists.txt builds it: the stock clang 19 or 22,
/// -O2 (last on its command line, so a build type's -O cannot change it),
/// no stack protector, no sanitizer. Not cacs's front door (__CACS__),
/// whose passes change libcacs's frames: cacs_wait_fd's deepest path
/// 176 -> 232 bytes on x86-64 (budget 216), 208 -> 368 on AArch64 (288).
/// Built otherwise, libcacs gives no exact stack: every coroutine keeps a
/// guarded one (coro.c's exact_rule). What no macro tells (-O1 or -O3 by
/// hand, -fno-omit-frame-pointer, UBSan before clang 20) is
/// docs/hazards.md's to state.
#define CACS__STACK_BUDGETS_MEASURED 0
#if defined(__clang__) && defined(__has_feature)
#if (__clang_major__ == 19 || __clang_major__ == 22) && !defined(__CACS__) &&  \
    defined(__OPTIMIZE__) && !defined(__OPTIMIZE_SIZE__) &&                    \
    !defined(__NO_INLINE__) && !defined(__SSP__) &&                            \
    !defined(__SSP_STRONG__) && !defined(__SSP_ALL__) &&                       \
    !__has_feature(address_sanitizer) &&                                       \
    !__has_feature(hwaddress_sanitizer) && !__has_feature(thread_sanitizer) && \
    !__has_feature(memory_sanitizer) && !__has_feature(dataflow_sanitizer) &&  \
    !__has_feature(safe_stack)
#undef CACS__STACK_BUDGETS_MEASURED
#define CACS__STACK_BUDGETS_MEASURED 1
#endif
#endif

/// Not a public flag: a stack of stack_exact.c (freed there).
#define CACS__STACK_EXACT (1u << 29)

/// Whether libcacs gives `entry` an exact stack: 1 with its proven bound in
/// *bytes (the entry's own need, from its first instruction down); 0 when
/// it has none, or the process uses none (stack_bounds.c says when).
CACS_HIDDEN int cacs__stack_bound(const void *entry, uint64_t *bytes);
/// Set once the process is known to use no bounds (no table, or none
/// used): cacs__stack_bound would answer 0 for every entry. Read before
/// the call at every creation, which it then saves (issue 38).
extern CACS_HIDDEN int cacs__stack_bounds_none;

/// The bytes of the exact stack a coroutine of `entry` created with
/// `stack_flags` gets (its bound and libcacs's start frame), or 0: a guarded
/// one (coro.c: the one rule, for coroutines and pool coroutines). The
/// caller also checks that the thread can end such a coroutine.
CACS_HIDDEN size_t cacs__exact_bytes(void (*entry)(void *),
                                     unsigned stack_flags);

/// The bytes of an exact stack's short descriptor: the cacs_stack up to its
/// name, which a block may end with (cacs__exact_alloc).
#define CACS__EXACT_SHORT_DESC_SIZE offsetof(cacs_stack, owner)

/// A stack of `stack_bytes` usable bytes (a multiple of 8) with a control
/// block of `hdr_size` bytes right above it, the cacs_stack at `desc_off`
/// of the block (as cacs_stack_alloc_at); NULL with errno set. No guard,
/// no random start: `top` is the block's address. A block that ends before
/// the descriptor's name (`desc_off` + CACS__EXACT_SHORT_DESC_SIZE bytes at
/// least: the pool's, which never names its stacks) gets the short
/// descriptor: CACS__STACK_UNNAMED, and never given to
/// cacs_stack_set_owner.
CACS_HIDDEN void *cacs__exact_alloc(size_t stack_bytes, size_t hdr_size,
                                    size_t desc_off);
/// cacs_stack_free of a CACS__STACK_EXACT stack.
CACS_HIDDEN void cacs__exact_free(cacs_stack *s);
/// The top (16-byte aligned) of the calling thread's exit stack, where a
/// coroutine on an exact stack runs cacs_exit (made on first use), or NULL
/// when the thread cannot run exact stacks: no exit stack, or no alternate
/// signal stack for the handlers (the signal policy, stack_bounds.c).
CACS_HIDDEN void *cacs__exact_thread_ready(void);
/// At thread exit (stack.c): the exit stack, and the slabs of exact stacks
/// that hold none in use.
CACS_HIDDEN void cacs__exact_thread_exit(void);

#endif // CACS_LIB_STACK_EXACT_H
