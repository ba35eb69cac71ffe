//===- cacs/detail/bind.h - Calls bound to preserve_none entries -*- C -*-===//
//
// Internal: included by cacs/coro.h only; do not include it directly (its
// contents are not API and may change between releases).
//
// The machinery that sends a call of a switching or waiting call of the
// runtime (cacs_yield, cacs_join, cacs_read, cacs_mutex_lock, ...) to the
// entry that suits the calling compiler and flags. The public headers
// declare the calls; each includes its own list of bindings
// (detail/coro_bind.h, detail/io_bind.h, detail/sync_bind.h) after its
// declarations, built from the macros below.
//
// Only calls bind to a preserve_none entry. Each name is declared with the
// default convention, so its address (`cacs_sleep`, `&cacs_sleep`, a
// cast, `__typeof__(cacs_read) *`, a C++ std::function or template
// argument) is the default-convention symbol under every compiler: a
// plain function pointer may call it, and gcc and clang units agree on its
// type. Where the compiler and the flags allow, a function-like macro of
// the same name sends a call `cacs_sleep(t)` to a preserve_none
// declaration of its own, cacs__call_<name> (CACS__PN_DECL), whose asm
// label (CACS__PN_ENTRY) is the entry cacs__<name>_pn, or
// cacs__<name>_pn_bp, which saves rbx/x19. `(cacs_sleep)(t)` or
// `#undef cacs_sleep` calls the default-convention symbol (correct, not
// as cheap). The macros take the arguments as `...`, so a template
// argument list with commas passes through. A C++ member or namespace
// function named like one of these calls is renamed by the macro where it
// is declared and called: name it otherwise. The switch out of every entry
// is cacs_yield's. CACS__PN_BIND says whether cacs_yield and cacs_park
// bind; calls with arguments say it with CACS__PN_ARGS_BIND: on AArch64
// stock clang's FastISel (-O0, optnone) passes preserve_none arguments in
// the wrong registers, so there they bind to a preserve_none entry only
// under cacs, whose safety pass shields such calls.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DETAIL_BIND_H
#define CACS_DETAIL_BIND_H

#include "cacs/detail/contract.h"
#include "cacs/switch.h" // CACS_PRESERVE_NONE

#if defined(__SANITIZE_ADDRESS__)
#define CACS__ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CACS__ASAN 1
#endif
#endif
#if CACS_HAS_PRESERVE_NONE &&                                                  \
    !(defined(CACS_YIELD_FULL_SAVE) && CACS_YIELD_FULL_SAVE)
#if !defined(CACS_YIELD_SAVE_BP) && defined(CACS__ASAN)
#define CACS_YIELD_SAVE_BP 1
#endif
#if !defined(CACS_YIELD_SAVE_BP)
#if defined(__CACS__) || (defined(__x86_64__) && __clang_major__ >= 22)
#define CACS_YIELD_SAVE_BP 0
#else
#define CACS_YIELD_SAVE_BP 1
#endif
#endif
// nothrow: a switch never throws, and in C++ a call inside a destructor's
// scope must stay a call: LLVM 22 saves rbx around a preserve_none call but
// stops with a fatal error at such an invoke from a base-pointer frame.
#define CACS__PN_DECL CACS_PRESERVE_NONE __attribute__((nothrow))
#if CACS_YIELD_SAVE_BP
#define CACS__PN_ENTRY(name)                                                   \
  __asm__(CACS_CONTRACT_ENTRY_PREFIX #name CACS_CONTRACT_ENTRY_SUFFIX_BP)
#else
#define CACS__PN_ENTRY(name)                                                   \
  __asm__(CACS_CONTRACT_ENTRY_PREFIX #name CACS_CONTRACT_ENTRY_SUFFIX)
#endif
#define CACS__PN_BIND 1
#if defined(__aarch64__) && !defined(__CACS__)
#define CACS__PN_ARGS_BIND 0
#else
#define CACS__PN_ARGS_BIND 1
#endif
#else
#define CACS__PN_BIND 0
#define CACS__PN_ARGS_BIND 0
#endif

// On the declaration of an entry that a sync block allows (detail/contract.h,
// CACS_CONTRACT_SYNC_BLOCK_ALLOWS_ANNOTATION): the I/O waits, which block
// the thread inside a block, and the effect resume, a nested coroutine that
// comes back. libcacs's run-time checks let exactly these through; the
// compile-time check reads the mark.
#if defined(__has_attribute)
#if __has_attribute(annotate)
#define CACS__SYNC_BLOCK_ALLOWS                                                \
  __attribute__((annotate(CACS_CONTRACT_SYNC_BLOCK_ALLOWS_ANNOTATION)))
#endif
#endif
#ifndef CACS__SYNC_BLOCK_ALLOWS
#define CACS__SYNC_BLOCK_ALLOWS
#endif

// On the declaration of every entry that can switch (detail/contract.h,
// CACS_CONTRACT_STACK_BUDGET_ANNOTATION): the stack it uses, so that the
// stack bound of a coroutine entry that calls it exists. cacs_yield's is
// the smaller: it runs no C code on the fast path.
#define CACS__YIELD_BUDGET CACS__STACK_BUDGET(CACS_CONTRACT_YIELD_STACK_BUDGET)
#define CACS__WAIT_BUDGET CACS__STACK_BUDGET(CACS_CONTRACT_WAIT_STACK_BUDGET)
// The waits that park and move no data (detail/contract.h): the smaller.
#define CACS__PARK_BUDGET CACS__STACK_BUDGET(CACS_CONTRACT_PARK_STACK_BUDGET)
// cacs_wait_fd's (detail/contract.h): smaller still where it is measured.
#define CACS__WAIT_FD_BUDGET                                                   \
  CACS__STACK_BUDGET(CACS_CONTRACT_WAIT_FD_STACK_BUDGET)

// libcacs's own definitions of preserve_none entries (lib/*.c). Under ASan,
// stock clang 19 stops with a backend fatal error at an x86-64
// preserve_none function whose frame ASan realigns and gives a dynamic
// alloca (its use-after-return fallback); cacs splits such functions, with
// other compilers they go uninstrumented.
#if defined(CACS__ASAN) && defined(__x86_64__) && __clang_major__ < 22 &&      \
    !defined(__CACS__)
#define CACS__PN_DEF                                                           \
  CACS_PRESERVE_NONE __attribute__((nothrow, no_sanitize("address")))
#else
#define CACS__PN_DEF CACS_PRESERVE_NONE __attribute__((nothrow))
#endif

// The waiting calls of cacs/io.h and cacs/sync.h bind as the ones below
// that take arguments; the library source that defines them (lib/io.c,
// lib/sync.c) defines CACS__DEFINE_PN_ENTRIES and so gets their plain
// preserve_none entries: there the macro turns the definition of
// cacs_read(...) into that of the entry cacs__call_read, labelled
// cacs__read_pn.
#ifdef CACS__DEFINE_PN_ENTRIES
#define CACS__WAIT_BIND 1
#define CACS__WAIT_DECL CACS__PN_DEF
#define CACS__WAIT_ENTRY(name)                                                 \
  __asm__(CACS_CONTRACT_ENTRY_PREFIX #name CACS_CONTRACT_ENTRY_SUFFIX)
#else
#define CACS__WAIT_BIND CACS__PN_ARGS_BIND
#define CACS__WAIT_DECL CACS__PN_DECL
#define CACS__WAIT_ENTRY(name) CACS__PN_ENTRY(name)
#endif
// cacs/sync.h's waits have no _bp entries (they would have to be in every
// object that defines or lists sync.c): where the others bind to one, calls
// of them stay calls of the default-convention symbols.
#if !defined(CACS__DEFINE_PN_ENTRIES) && defined(CACS_YIELD_SAVE_BP) &&        \
    CACS_YIELD_SAVE_BP
#define CACS__WAIT_NO_BP_BIND 0
#else
#define CACS__WAIT_NO_BP_BIND CACS__WAIT_BIND
#endif

#endif // CACS_DETAIL_BIND_H
