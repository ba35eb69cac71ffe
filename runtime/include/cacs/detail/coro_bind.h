//===- cacs/detail/coro_bind.h - Bindings of cacs/coro.h's calls -*- C -*-===//
//
// Internal: included by cacs/coro.h only, after its declarations; do not
// include it directly (its contents are not API and may change between
// releases). The macros of detail/bind.h send calls of the switching and
// waiting calls of cacs/coro.h to their preserve_none entries.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DETAIL_CORO_BIND_H
#define CACS_DETAIL_CORO_BIND_H

#if CACS__PN_BIND
/// With -fpreserve-none-callee-saved=none (x86-64, LLVM 22; the front door
/// defines __CACS_PRESERVE_NONE_CALLEE_SAVED_NONE__), a call cacs_yield()
/// binds to an entry that does not save rbp either: such a call carries the
/// empty register mask, so the caller saves rbp itself where it needs it.
/// The annotation tells the cacs passes that the entry saves nothing
/// (nothrow: never an invoke).
#if !CACS_YIELD_SAVE_BP && defined(__x86_64__) &&                              \
    defined(__CACS_PRESERVE_NONE_CALLEE_SAVED_NONE__) && __clang_major__ >= 22
CACS_PRESERVE_NONE
__attribute__((nothrow, annotate(CACS_CONTRACT_SAVES_NOTHING_ANNOTATION)))
CACS__YIELD_BUDGET void
cacs__yield_none(void) __asm__(CACS_CONTRACT_ENTRY_PREFIX
                               "yield" CACS_CONTRACT_ENTRY_SUFFIX_NONE);
#define cacs_yield() cacs__yield_none()
#else
CACS__PN_DECL CACS__YIELD_BUDGET void cacs__call_yield(void)
    CACS__PN_ENTRY(yield);
#define cacs_yield() cacs__call_yield()
#endif
#endif

#if CACS__PN_ARGS_BIND
CACS__PN_DECL CACS__PARK_BUDGET int cacs__call_join(cacs_coro *c)
    CACS__PN_ENTRY(join);
#define cacs_join(...) cacs__call_join(__VA_ARGS__)
#endif

#if CACS__PN_BIND
CACS__PN_DECL CACS__PARK_BUDGET void cacs__call_park(void) CACS__PN_ENTRY(park);
#define cacs_park() cacs__call_park()
#endif

#if CACS__PN_ARGS_BIND
CACS__PN_DECL CACS__PARK_BUDGET int cacs__call_park_timeout(int64_t timeout_us)
    CACS__PN_ENTRY(park_timeout);
#define cacs_park_timeout(...) cacs__call_park_timeout(__VA_ARGS__)
#endif

#if CACS__PN_ARGS_BIND
CACS__PN_DECL CACS__PARK_BUDGET int cacs__call_sleep(int64_t usec)
    CACS__PN_ENTRY(sleep);
#define cacs_sleep(...) cacs__call_sleep(__VA_ARGS__)
#endif

#endif // CACS_DETAIL_CORO_BIND_H
