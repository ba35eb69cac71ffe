//===- lib/pool/pool_spin.h - The pool's spin lock ----------------*- C -*-===//
//
// A test-and-test-and-set spin lock (the CES paper's final design, 5.1):
// what guards a synchronization object (pool_sync.c) and a descriptor's
// waiters (pool_io.c). Held for a few instructions, or by a parking waiter
// until its worker has switched it out (cacs__pool_park's `after` hook).
// Private to libcacs; needs nothing else of it (the lock tests build
// pool_sync.c alone).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_POOL_SPIN_H
#define CACS_LIB_POOL_SPIN_H

#include "pool_tsan.h"

#include <sched.h>
#include <stdint.h>

static inline void cpu_relax(void) {
#if defined(__x86_64__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield" ::: "memory");
#endif
}

// Every edge a user program needs between two calls on one object (unlock
// to lock, post to wait, send to receive, done to wait, signal to wake)
// passes through the object's spin lock, or through a park and its wake
// (pool.c), so the spin lock's acquire and release are what TSan is told
// when libcacs is built without it (pool_tsan.h); a program built with
// TSan then sees its data, protected by these objects, as ordered
// (test/pool/sync-tsan-edges.c).
// Pauses a locker spins for a held lock between two sched_yield calls. A
// holder keeps it for a few instructions, or a parking waiter until its
// worker has switched it out: held this long, its holder is not running,
// preempted, maybe for this very thread when two workers share a CPU (a
// loaded machine puts them there), and spinning on only takes the CPU it
// waits for, until the kernel's time slice ends. The rwlock took its
// spin lock at every rdlock and rdunlock (before its state word), so a
// preemption often landed inside it: in a default pool of 2 workers at 10 M pairs/s, 0-3 spins
// of 100,000 pauses (milliseconds each) per run of 320,000 pairs (issue
// 37). 1-12 us on x86 (a pause takes 10-140 cycles, by model).
#define SPIN_YIELD_PAUSES 256u

static inline void spin_lock(uint32_t *s) {
  while (__atomic_exchange_n(s, 1, __ATOMIC_ACQUIRE))
    for (unsigned n = 1; __atomic_load_n(s, __ATOMIC_RELAXED); ++n) {
      if (n % SPIN_YIELD_PAUSES)
        cpu_relax();
      else
        sched_yield();
    }
  ptsan_acquire(s);
}

static inline void spin_unlock(uint32_t *s) {
  ptsan_release(s);
  __atomic_store_n(s, 0, __ATOMIC_RELEASE);
}

#endif // CACS_LIB_POOL_SPIN_H
