//===- lib/valgrind_requests.h - Valgrind's requests or no-ops -*- C -*-===//
//
// The client requests libcacs makes of Valgrind (stacks registered on a
// switch, bytes the kernel wrote through a ring marked defined, whether the
// process runs under it at all), from Valgrind's own headers where they are
// installed and as no-ops where they are not. One place, so that every file
// that asks RUNNING_ON_VALGRIND gets the same answer from the same header.
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

#endif // CACS_LIB_VALGRIND_REQUESTS_H
