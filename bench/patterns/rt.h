//===- bench/patterns/rt.h - One yield, four runtimes -----------*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The pattern benchmarks (patterns.h) are written once against this header
// and built once per runtime (-DRT_CACS, -DRT_ASM, -DRT_BOOST, -DRT_FIBER).
// Every runtime schedules the same way: a ring of the main context and the
// spawned tasks in creation order, rt_yield() passes control to the next
// member, so a pattern runs the same sequence of switches on each.
//
// rt_yield() is what a user of the runtime writes at a yield point, and it
// stays at that point in the binary (no shared helper that would put every
// yield at one address):
//   RT_CACS   cacs_yield(): a call of libcacs's preserve_none entry
//   RT_ASM    cacs_switch() of cacs/switch.h inlined at the site: the switch
//             with no scheduler and no call (the floor)
//   RT_BOOST  Boost.Context's jump_fcontext, called at the site
//   RT_FIBER  boost::this_fiber::yield() through rt_fiber_yield() (C++, in
//             rt_fiber.cpp: the one call added to Boost.Fiber's own path)
// rt_spawn() and rt_wait_all() are cold and live in rt_<runtime>.c.
//
//===----------------------------------------------------------------------===//

#ifndef BENCH_PATTERNS_RT_H
#define BENCH_PATTERNS_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Every runtime gets stacks of this size (10,000 of them in ring10000).
#define RT_STACK_SIZE (16 * 1024)

typedef void (*rt_fn)(void *arg);
/// Start fn(arg) as the last member of the ring; it first runs when the
/// caller yields or waits. Aborts on failure.
void rt_spawn(rt_fn fn, void *arg);
/// Leave the ring until every spawned task has returned.
void rt_wait_all(void);
/// The variant name in the RESULT line.
extern const char rt_name[];

// The scheduler-less runtimes' task (rt_ring.h keeps the ring): its saved
// context, ring links, entry and stack; rt_cur is the running one.
#define RT_TASK(context_type)                                                  \
  typedef struct rt_task {                                                     \
    context_type ctx;                                                          \
    struct rt_task *next, *prev;                                               \
    rt_fn fn;                                                                  \
    void *arg;                                                                 \
    void *stack;                                                               \
  } rt_task;                                                                   \
  extern rt_task *rt_cur

#if defined(RT_CACS)
#include "cacs/coro.h"
#define rt_yield() cacs_yield()

#elif defined(RT_ASM)
#include "cacs/switch.h"
RT_TASK(cacs_context);
static inline __attribute__((always_inline)) void rt_yield(void) {
  rt_task *from = rt_cur, *to = from->next;
  rt_cur = to;
  cacs_switch(&from->ctx, &to->ctx, 0);
}

#elif defined(RT_BOOST)
// Boost.Context's fcontext API has C linkage (libboost_context).
typedef void *rt_fcontext;
typedef struct {
  rt_fcontext fctx;
  void *data;
} rt_transfer;
rt_transfer jump_fcontext(rt_fcontext const to, void *vp);
rt_fcontext make_fcontext(void *sp, size_t size, void (*fn)(rt_transfer));
RT_TASK(rt_fcontext);
static inline __attribute__((always_inline)) void rt_yield(void) {
  rt_task *from = rt_cur, *to = from->next;
  if (to == from)
    return;
  rt_cur = to;
  // The switched-out side's context arrives with the transfer: store it
  // into the task that jumped here (its rt_task is the data).
  rt_transfer t = jump_fcontext(to->ctx, from);
  ((rt_task *)t.data)->ctx = t.fctx;
}

#elif defined(RT_FIBER)
void rt_fiber_yield(void);
#define rt_yield() rt_fiber_yield()

#else
#error "define one of RT_CACS, RT_ASM, RT_BOOST, RT_FIBER"
#endif

#ifdef __cplusplus
} // extern "C"
#endif

#endif // BENCH_PATTERNS_RT_H
