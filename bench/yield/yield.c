//===- bench/yield/yield.c - Cost of one yield (Fig. 15) ------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// 10 coroutines yield to one another round-robin; each does n/10 yields.
// The same source is compiled once per step of the breakdown (BCO_MODE, with
// or without -fauto-preserve-none); at run time:
//   -v empty   the empty loop to subtract: the same loop, with the yield
//              replaced by an asm statement that clobbers every register the
//              compiler may use, as a preserve_none call would;
//   -v small   coroutine stacks of 4112 bytes, contiguous (default: 64 KiB
//              stacks from separate allocations, page aligned).
// Checksum: the number of yields executed (each body counts its own).
//
//===----------------------------------------------------------------------===//

#define BCO_DEFINE_ASM
#include "bcoro.h"
#include "bench.h"

#include <stdlib.h>

#ifndef BENCH_VARIANT
#define BENCH_VARIANT "unnamed"
#endif

#define NCO 10
#define BIG_STACK (64 * 1024)
#define SMALL_STACK 4112

static uint64_t iters_per_co;
static uint64_t yields_done;

// The loop of every coroutine. A separate (static, directly called) function
// so that -fauto-preserve-none has a caller of yield to convert.
static __attribute__((noinline)) uint64_t yield_loop(uint64_t k) {
  uint64_t i = 0;
  for (; i < k; ++i)
    bco_yield();
  return i;
}

static void body(void *arg) {
  (void)arg;
  yields_done += yield_loop(iters_per_co);
}

#define CLOBBER_ALL()                                                          \
  __asm__ volatile("" ::                                                       \
                       : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", \
                         "r10", "r11", "r12", "r13", "r14", "r15", "memory")

static __attribute__((noinline)) uint64_t empty_loop(uint64_t k) {
  uint64_t i = 0;
  for (; i < k; ++i)
    CLOBBER_ALL();
  return i;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 100000000);
  int empty = a.variant && !strcmp(a.variant, "empty");
  int small = a.variant && !strcmp(a.variant, "small");
  char name[128];
  snprintf(name, sizeof name, "%s%s", empty ? "empty-loop" : BENCH_VARIANT,
           small ? "+small-stack" : "");
  bench_run r = bench_begin("yield", name, a.n);
  iters_per_co = a.n / NCO;
  uint64_t total = iters_per_co * NCO;

  static bco cos[NCO];
  char *stacks[NCO];
  char *block = NULL;
  if (small) {
    block = (char *)aligned_alloc(64, (size_t)SMALL_STACK * NCO);
    for (int i = 0; i < NCO; ++i)
      stacks[i] = block + (size_t)i * SMALL_STACK;
  } else {
    for (int i = 0; i < NCO; ++i)
      stacks[i] = (char *)aligned_alloc(4096, BIG_STACK);
  }

  for (int rep = 0; rep < a.reps; ++rep) {
    uint64_t t0, t1, got;
    if (empty) {
      t0 = bench_now_ns();
      got = empty_loop(total);
      t1 = bench_now_ns();
    } else {
      yields_done = 0;
      for (int i = 0; i < NCO; ++i)
        bco_create(&cos[i], stacks[i], small ? SMALL_STACK : BIG_STACK, body,
                   NULL);
      t0 = bench_now_ns();
      bco_run();
      t1 = bench_now_ns();
      got = yields_done;
    }
    bench_record(&r, t1 - t0, total, got, total);
  }
  return bench_end(&r);
}
