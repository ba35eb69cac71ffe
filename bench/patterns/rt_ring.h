//===- bench/patterns/rt_ring.h - The ring of rt_asm.c, rt_boost.c -*- C -*-=//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// The scheduler-less runtimes keep the ring themselves: rt_main is the main
// context, spawned tasks are linked in before it (creation order), a task
// that returns unlinks itself (rt_finish), and rt_wait_all() unlinks main
// until the last task hands control back. Included by rt_asm.c and
// rt_boost.c after rt.h; cold code only.
//
//===----------------------------------------------------------------------===//

#ifndef BENCH_PATTERNS_RT_RING_H
#define BENCH_PATTERNS_RT_RING_H

#include <stdio.h>
#include <stdlib.h>

static rt_task rt_main = {.next = &rt_main, .prev = &rt_main};
rt_task *rt_cur = &rt_main;
static rt_task **all;
static size_t nall, cap;

/// A new task linked in last, with its stack; the caller prepares its
/// context.
static rt_task *rt_new_task(rt_fn fn, void *arg) {
  rt_task *t = calloc(1, sizeof *t);
  if (nall == cap) {
    cap = cap ? 2 * cap : 64;
    all = realloc(all, cap * sizeof *all);
  }
  if (!t || !all || !(t->stack = aligned_alloc(64, RT_STACK_SIZE))) {
    perror("rt_spawn");
    abort();
  }
  all[nall++] = t;
  t->fn = fn;
  t->arg = arg;
  t->prev = rt_main.prev;
  t->next = &rt_main;
  rt_main.prev->next = t;
  rt_main.prev = t;
  return t;
}

/// `t` returned: unlink it and say who runs next (main, once the ring is
/// empty).
static rt_task *rt_finish(rt_task *t) {
  rt_task *to = t->next;
  t->prev->next = t->next;
  t->next->prev = t->prev;
  if (to == t) {
    to = &rt_main;
    rt_main.next = rt_main.prev = &rt_main;
  }
  rt_cur = to;
  return to;
}

/// Unlink main; returns the task to switch to, or NULL if there is none.
static rt_task *rt_leave_main(void) {
  if (rt_main.next == &rt_main)
    return NULL;
  rt_task *to = rt_main.next;
  rt_main.prev->next = rt_main.next;
  rt_main.next->prev = rt_main.prev;
  rt_cur = to;
  return to;
}

static void rt_free_all(void) {
  for (size_t i = 0; i < nall; ++i) {
    free(all[i]->stack);
    free(all[i]);
  }
  nall = 0;
}

#endif // BENCH_PATTERNS_RT_RING_H
