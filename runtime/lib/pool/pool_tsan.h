//===- lib/pool/pool_tsan.h - Happens-before edges for TSan -------*- C -*-===//
//
// ThreadSanitizer's view of the pool and its synchronization objects when
// libcacs is built without TSan and linked into a program built with it.
// Private to libcacs; needs nothing else of it (the lock tests build
// pool_sync.c alone).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_POOL_TSAN_H
#define CACS_LIB_POOL_TSAN_H

/// ThreadSanitizer: the happens-before edges of the pool's hand-offs
/// between workers (a park's token to its waker, a wake or yield to the
/// resumed coroutine, through the deques and votes) and of the
/// synchronization objects' spin locks (pool_sync.c), which TSan does not
/// see when libcacs is built without it. Built with TSan, libcacs leaves
/// them to its atomics, which TSan then checks: a relaxed store where a
/// release is needed is reported as a race (test/pool/pool-tsan-order.c).
#if defined(__SANITIZE_THREAD__)
#define CACS_POOL_TSAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define CACS_POOL_TSAN_BUILD 1
#endif
#endif
#ifndef CACS_POOL_TSAN_BUILD
#define CACS_POOL_TSAN_BUILD 0
#endif
void __tsan_acquire(void *addr) __attribute__((weak));
void __tsan_release(void *addr) __attribute__((weak));
// Absent TSan, a load and a branch not taken: no call.
static inline int ptsan_linked(void) {
  return !CACS_POOL_TSAN_BUILD && __builtin_expect(__tsan_release != 0, 0);
}
static inline void ptsan_release(void *a) {
  if (!CACS_POOL_TSAN_BUILD && __builtin_expect(__tsan_release != 0, 0))
    __tsan_release(a);
}
static inline void ptsan_acquire(void *a) {
  if (!CACS_POOL_TSAN_BUILD && __builtin_expect(__tsan_acquire != 0, 0))
    __tsan_acquire(a);
}

#endif // CACS_LIB_POOL_TSAN_H
