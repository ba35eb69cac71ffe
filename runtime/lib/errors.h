//===- lib/errors.h - Setting and reading errno ----------------*- C -*-===//
//
// The runtime's error convention (runtime/README.md, "Errors"): a call that
// fails returns -1 (or NULL) with errno set. These set it in one way
// everywhere; the files that may run in a pool coroutine (pool/, io.c,
// io_pool.c) must also read it only through cacs__errno.
//
// Why out of line: a pool coroutine may resume on another thread after any
// wait or yield (docs/tls-migration.md), and errno must then be that
// thread's. glibc declares __errno_location `const`, so inside one function
// the optimizer may compute &errno once and reuse it across a switch; and
// libcacs is built by stock clang, without -fcoroutine-migration. A call to
// a function that is never inlined computes &errno afresh, on the thread
// that makes the call. Each file that includes this has its own copy (one
// definition here); never read errno directly, or keep its address, in
// code a pool coroutine runs.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_ERRORS_H
#define CACS_LIB_ERRORS_H

#include <errno.h>

/// errno = e on the calling thread.
static inline __attribute__((noinline)) void cacs__set_errno(int e) {
  errno = e;
}

/// The calling thread's errno.
static inline __attribute__((noinline)) int cacs__errno(void) {
  return errno;
}

/// A failure: errno = e, and -1 to return.
static inline int cacs__fail(int e) {
  cacs__set_errno(e);
  return -1;
}

/// A call's result for a wait's 0 or errno value: 0, or cacs__fail(e).
static inline int cacs__result(int e) { return e ? cacs__fail(e) : 0; }

#endif // CACS_LIB_ERRORS_H
