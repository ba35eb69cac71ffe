//===- bench/patterns/rt_cacs.c - libcacs: spawn and wait -------*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// libcacs's ready ring is already main -> c1 -> ... in creation order and
// cacs_yield() switches to the next member: only spawning and waiting are
// here (rt.h).
//
//===----------------------------------------------------------------------===//

#include "rt.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef RT_CACS_KEEP_RET
const char rt_name[] = "libcacs-ret"; // -fno-switch-returns
#elif defined(RT_CACS_SITE_JUMPS)
const char rt_name[] = "libcacs-site"; // -fswitch-site-jumps
#else
const char rt_name[] = "libcacs";
#endif

static cacs_coro **tasks;
static size_t ntasks, cap;

void rt_spawn(rt_fn fn, void *arg) {
  if (ntasks == cap) {
    cap = cap ? 2 * cap : 64;
    tasks = realloc(tasks, cap * sizeof *tasks);
  }
  cacs_coro *c = cacs_create(fn, arg, RT_STACK_SIZE);
  if (!tasks || !c) {
    perror("rt_spawn");
    abort();
  }
  tasks[ntasks++] = c;
}

void rt_wait_all(void) {
  for (size_t i = 0; i < ntasks; ++i)
    cacs_join(tasks[i]);
  ntasks = 0;
}
