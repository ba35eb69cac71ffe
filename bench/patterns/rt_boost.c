//===- bench/patterns/rt_boost.c - Boost jump_fcontext: spawn, wait -*- C -*-=//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// Boost.Context's fcontext layer (the switch Boost.Coroutine2 and
// Boost.Fiber are built on), used the way its documentation shows: every
// jump passes the jumping task, whose context the resumed side stores.
//
//===----------------------------------------------------------------------===//

#include "rt.h"
#include "rt_ring.h"

const char rt_name[] = "boost-fcontext";

static void entry(rt_transfer tr) {
  ((rt_task *)tr.data)->ctx = tr.fctx;
  rt_task *t = rt_cur;
  t->fn(t->arg);
  rt_task *to = rt_finish(t);
  tr = jump_fcontext(to->ctx, t);
  abort();
}

void rt_spawn(rt_fn fn, void *arg) {
  rt_task *t = rt_new_task(fn, arg);
  t->ctx = make_fcontext((char *)t->stack + RT_STACK_SIZE, RT_STACK_SIZE,
                         entry);
}

void rt_wait_all(void) {
  rt_task *to = rt_leave_main();
  if (to) {
    rt_transfer tr = jump_fcontext(to->ctx, &rt_main);
    ((rt_task *)tr.data)->ctx = tr.fctx;
  }
  rt_free_all();
}
