//===- lib/sched.h - The scheduler's hooks for the I/O module ---*- C -*-===//
//
// Private interface between the core scheduler (coro.c) and the optional
// I/O module (cacs_io). The core owns the ready ring, parking and timers;
// the module owns file-descriptor readiness. The core calls the module's
// poll hook from its service coroutine: once per round of the ready ring
// with timeout 0 while other coroutines are ready, and with the time to the
// next timer (or -1, forever) when nothing else is. The hook wakes
// (cacs_wake) every coroutine whose descriptor became ready.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_SCHED_H
#define CACS_LIB_SCHED_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*cacs__poll_fn)(int64_t timeout_us);

/// Install the calling thread's poll hook (NULL removes it).
void cacs__set_poll_hook(cacs__poll_fn fn);
/// Bracket a coroutine's wait on a descriptor: while any such wait is open
/// the service coroutine stays on the ring and calls the poll hook. Begin
/// returns -1 (errno ENOMEM) if the service coroutine cannot be created.
int cacs__io_wait_begin(void);
void cacs__io_wait_end(void);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_LIB_SCHED_H
