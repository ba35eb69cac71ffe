//===- bench/patterns/rt_asm.c - cacs_switch inlined: spawn, wait -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// The floor: rt_yield() (rt.h) inlines cacs_switch of cacs/switch.h at every
// yield point, with a ring and no scheduler.
//
//===----------------------------------------------------------------------===//

#include "rt.h"
#include "rt_ring.h"

const char rt_name[] = "inline-asm-switch";

static void entry(void *arg, uint64_t v) {
  (void)v;
  rt_task *t = arg;
  t->fn(t->arg);
  rt_task *to = rt_finish(t);
  cacs_switch(&t->ctx, &to->ctx, 0);
  abort();
}

void rt_spawn(rt_fn fn, void *arg) {
  rt_task *t = rt_new_task(fn, arg);
  cacs_context_init(&t->ctx, (char *)t->stack + RT_STACK_SIZE, entry, t);
}

void rt_wait_all(void) {
  rt_task *to = rt_leave_main();
  if (to)
    cacs_switch(&rt_main.ctx, &to->ctx, 0);
  rt_free_all();
}
