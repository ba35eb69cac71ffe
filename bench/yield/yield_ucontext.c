//===- bench/yield/yield_ucontext.c - yield() over glibc swapcontext -----===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Peer: the same ring as yield_boost.cpp and yield_libcacs.c (10
// participants, round-robin), switched by glibc's swapcontext, which saves
// every callee-saved register, the FP environment and the signal mask (one
// rt_sigprocmask system call per switch). Checksum: yields done.
//
//===----------------------------------------------------------------------===//

#include "bench.h"

#include <stdlib.h>
#include <ucontext.h>

#define NCO 10
#define STACK_SIZE (64 * 1024)

typedef struct co {
  ucontext_t ctx;
  struct co *next, *prev;
  int done;
} co;

static co cos[NCO], main_co;
static co *cur;
static uint64_t iters_per_co, yields_done;

static __attribute__((noinline)) void yield_next(void) {
  co *from = cur, *to = from->next;
  if (to == from)
    return;
  cur = to;
  swapcontext(&from->ctx, &to->ctx);
}

static __attribute__((noinline)) uint64_t yield_loop(uint64_t k) {
  uint64_t i = 0;
  for (; i < k; ++i)
    yield_next();
  return i;
}

static void body(void) {
  yields_done += yield_loop(iters_per_co);
  // Finished: leave the ring; the last one goes back to main.
  co *self = cur, *to = self->next;
  self->done = 1;
  if (to == self) {
    setcontext(&main_co.ctx);
  } else {
    self->prev->next = to;
    to->prev = self->prev;
    cur = to;
    setcontext(&to->ctx);
  }
  abort();
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 100000000);
  bench_run r = bench_begin("yield", "glibc-swapcontext", a.n);
  iters_per_co = a.n / NCO;
  uint64_t total = iters_per_co * NCO;
  char *stacks[NCO];
  for (int i = 0; i < NCO; ++i)
    stacks[i] = aligned_alloc(4096, STACK_SIZE);
  for (int rep = 0; rep < a.reps; ++rep) {
    yields_done = 0;
    for (int i = 0; i < NCO; ++i) {
      getcontext(&cos[i].ctx);
      cos[i].ctx.uc_stack.ss_sp = stacks[i];
      cos[i].ctx.uc_stack.ss_size = STACK_SIZE;
      cos[i].ctx.uc_link = NULL;
      makecontext(&cos[i].ctx, body, 0);
      cos[i].next = &cos[(i + 1) % NCO];
      cos[i].prev = &cos[(i + NCO - 1) % NCO];
      cos[i].done = 0;
    }
    uint64_t t0 = bench_cpu_ns();
    cur = &cos[0];
    swapcontext(&main_co.ctx, &cos[0].ctx);
    uint64_t t1 = bench_cpu_ns();
    bench_record(&r, t1 - t0, total, yields_done, total);
  }
  return bench_end(&r);
}
