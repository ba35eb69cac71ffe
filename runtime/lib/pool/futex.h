//===- lib/pool/futex.h - Futex waits on absolute deadlines ------*- C -*-===//
//
// The pool's workers (pool_worker.c) and plain threads waiting in its sync objects
// (pool_sync.c) sleep in the kernel on a 32-bit word, until a deadline on
// the clock of every libcacs deadline (CLOCK_MONOTONIC ns, sched.h).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_POOL_FUTEX_H
#define CACS_LIB_POOL_FUTEX_H

#include <linux/futex.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/// Sleep while *addr == val, until woken or `deadline` (0: none), by a
/// wake whose bits meet `bits` (cacs__futex_wake's meet them all).
/// FUTEX_WAIT_BITSET takes the deadline as an absolute CLOCK_MONOTONIC time.
/// \return 0, or -1 with errno set (ETIMEDOUT, EAGAIN: *addr != val, EINTR).
static inline long cacs__futex_wait_bits(uint32_t *addr, uint32_t val,
                                         uint64_t deadline, uint32_t bits) {
  struct timespec ts, *tp = NULL;
  if (deadline) {
    ts.tv_sec = (time_t)(deadline / 1000000000u);
    ts.tv_nsec = (long)(deadline % 1000000000u);
    tp = &ts;
  }
  return syscall(SYS_futex, addr, FUTEX_WAIT_BITSET_PRIVATE, val, tp, NULL,
                 bits);
}

/// cacs__futex_wait_bits for any wake.
static inline long cacs__futex_wait(uint32_t *addr, uint32_t val,
                                    uint64_t deadline) {
  return cacs__futex_wait_bits(addr, val, deadline, FUTEX_BITSET_MATCH_ANY);
}

/// Wake up to `n` threads sleeping on `addr`.
/// \return the number woken (or -1 with errno set).
static inline long cacs__futex_wake(uint32_t *addr, int n) {
  return syscall(SYS_futex, addr, FUTEX_WAKE_PRIVATE, n, NULL, NULL, 0);
}

/// Wake up to `n` threads sleeping on `addr` whose bits meet `bits`.
static inline long cacs__futex_wake_bits(uint32_t *addr, int n, uint32_t bits) {
  return syscall(SYS_futex, addr, FUTEX_WAKE_BITSET_PRIVATE, n, NULL, NULL,
                 bits);
}

#endif // CACS_LIB_POOL_FUTEX_H
