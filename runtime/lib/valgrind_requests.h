//===- lib/valgrind_requests.h - Valgrind's requests or no-ops -*- C -*-===//
//
// The client requests libcacs makes of Valgrind (stacks registered on a
// switch, bytes the kernel wrote through a ring marked defined, whether the
// process runs under it at all), from Valgrind's own headers where they are
// installed and as no-ops where they are not. One place, so that every file
// that asks whether Valgrind runs gets the same answer from the same
// header: cacs__on_valgrind(), below; no file asks RUNNING_ON_VALGRIND.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_VALGRIND_REQUESTS_H
#define CACS_LIB_VALGRIND_REQUESTS_H

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>) && __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>
#define CACS_HAVE_VALGRIND 1
#endif
#endif

#ifndef CACS_HAVE_VALGRIND
#define VALGRIND_STACK_REGISTER(lo, hi) ((void)(lo), (void)(hi), 0u)
#define VALGRIND_STACK_DEREGISTER(id) ((void)(id))
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_DISABLE_ERROR_REPORTING ((void)0)
#define VALGRIND_ENABLE_ERROR_REPORTING ((void)0)
#define RUNNING_ON_VALGRIND 0
#endif

// Whether the process runs under Valgrind, for every file of libcacs:
// RUNNING_ON_VALGRIND asked once (its client request costs instructions,
// and a 48-byte request block on the stack, at every ask) and kept in one
// byte, cacs__valgrind: 0 no, 1 yes, -1 not asked yet. A constructor asks
// (stack.c), so the hot paths find the answer there and the usual one, 0,
// costs one test of the byte; code that runs before the constructor
// (another constructor's) asks then, out of line (cold). A relaxed race
// between threads writes the same answer. Without Valgrind's headers, 0
// at compile time.
#ifdef CACS_HAVE_VALGRIND
extern signed char cacs__valgrind __attribute__((visibility("hidden")));
__attribute__((visibility("hidden"), cold)) int cacs__valgrind_ask(void);
/// Whether the process may run under Valgrind (yes, or not asked yet):
/// one test of the byte, for a hot path that leaves the asking, and what
/// Valgrind needs, to a call out of line.
static inline int cacs__maybe_valgrind(void) {
  return __atomic_load_n(&cacs__valgrind, __ATOMIC_RELAXED) != 0;
}
static inline int cacs__on_valgrind(void) {
  return __builtin_expect(cacs__maybe_valgrind(), 0) &&
         (cacs__valgrind > 0 || cacs__valgrind_ask());
}
#else
static inline int cacs__maybe_valgrind(void) { return 0; }
static inline int cacs__on_valgrind(void) { return 0; }
#endif

#endif // CACS_LIB_VALGRIND_REQUESTS_H
