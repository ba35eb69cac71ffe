//===- cacs/sysstack.h - Calls on the thread's system stack -------*- C -*-===//
//
// A coroutine's stack is sized for the coroutine; some calls need more than
// it has, or an amount nobody knows: the C library (printf, qsort,
// getaddrinfo), a recursive parser, a library built without cacs. Such a
// call, if it cannot switch, may run on the thread's own stack, the one the
// thread had before it entered coroutines, at the cost of a few dozen
// instructions (docs/runtime.md, "Calls on the system stack"):
//
//   static void print_report(void *arg) { printf(...); qsort(...); }
//   CACS_ON_SYSTEM_STACK(print_report, &report);         // C and C++
//   int n = CACS_ON_SYSTEM_STACK(snprintf(buf, sizeof buf, "%d", x));
//                                    // C++, with cacs/sysstack.hpp
//
// The system stack is the thread's stack (pthread's, or the process's for
// the main thread) below the point where the thread left it: below the
// main context's saved stack pointer while a coroutine of the thread's
// scheduler runs, below the worker loop's in a pool coroutine. A call made
// while already on it (no coroutine running, or a nested call) is a plain
// call.
//
// The call must not switch: from its start to its end it is a sync block
// (cacs/syncblock.h), and a switch inside it (cacs_yield, a wait, a pool
// yield, a perform to a handler outside it) aborts with
//   cacs: cacs_pool_yield inside CACS_ON_SYSTEM_STACK(fn, &x) at f.c:12:
//   a call on the thread's system stack must not switch
// Coroutines it creates first run after it; pool spawns start after it.
//
// `fn` must not throw: the C++ form catches what its callable throws on
// the system stack and rethrows it after the switch back. Unwinders,
// debuggers and profilers walk from `fn` back into the coroutine's frames;
// thread-local storage and errno are the thread's, as in any call; a
// signal handler runs on the system stack if the signal arrives during the
// call. AddressSanitizer is told of the stack change.
//
// Where the system stack cannot be found the call aborts, naming it: a
// generator or effect coroutine resumed directly from the thread's stack
// (not from a coroutine), or a context of cacs/switch.h.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SYSSTACK_H
#define CACS_SYSSTACK_H

#include "cacs/detail/contract.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Run fn(arg) on the calling thread's system stack and return when it
/// returns. `what` names the call in the abort of a switch inside it and
/// in the abort when there is no system stack to find, or when a generator
/// or effect coroutine resumed inside such a call asks for it again (the
/// outer call's frames hold it). Its stack budget
/// (detail/contract.h) lets a coroutine entry that calls it have a stack
/// bound: fn, which runs on the thread's stack, is not in it.
CACS__STACK_BUDGET(CACS_CONTRACT_SYSTEM_STACK_BUDGET)
void cacs_on_system_stack(void (*fn)(void *), void *arg, const char *what);

/// Whether the caller runs on the thread's system stack (1) or a
/// coroutine's (0).
int cacs_on_system_stack_now(void);

#define CACS__SYS_STR2(x) #x
#define CACS__SYS_STR(x) CACS__SYS_STR2(x)
#define CACS__SYS_PICK(_1, _2, name, ...) name

/// CACS_ON_SYSTEM_STACK(fn, arg): fn(arg) on the system stack (C and C++).
/// CACS_ON_SYSTEM_STACK(call): a call expression, its value (C++ only,
/// with cacs/sysstack.hpp). Either names itself, as written, with its file
/// and line in the abort of a switch inside it.
#define CACS_ON_SYSTEM_STACK(...)                                              \
  CACS__SYS_PICK(__VA_ARGS__, CACS__SYS_FN, CACS__SYS_CALL, )                  \
  ("CACS_ON_SYSTEM_STACK(" #__VA_ARGS__ ") at " __FILE__                       \
   ":" CACS__SYS_STR(__LINE__),                                                \
   __VA_ARGS__)
#define CACS__SYS_FN(what, fn, arg) cacs_on_system_stack((fn), (arg), what)
#ifdef __cplusplus
#define CACS__SYS_CALL(what, call)                                             \
  ::cacs::on_system_stack([&]() -> decltype(auto) { return call; }, what)
#else
#define CACS__SYS_CALL(what, call)                                             \
  __extension__({                                                              \
    _Static_assert(0, "CACS_ON_SYSTEM_STACK(call) is C++ (cacs/sysstack.hpp)" \
                      "; in C, write CACS_ON_SYSTEM_STACK(fn, arg)");          \
    0;                                                                         \
  })
#endif

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_SYSSTACK_H
