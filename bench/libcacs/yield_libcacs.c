//===- bench/libcacs/yield_libcacs.c - yield() of libcacs
//------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The runtime's own cacs_yield() (coro.h): 10 participants yield to one
// another round-robin: 9 cacs_create()d coroutines plus main itself, so the
// ring holds exactly 10. Checksum: yields done. At run time:
//   -v small   4112-byte stacks;
//   -v empty   the empty loop to subtract: the same loop, with the yield
//              replaced by an asm statement that clobbers every register the
//              compiler may use, as a preserve_none call does.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/coro.h"

#ifndef BENCH_VARIANT
#define BENCH_VARIANT "libcacs"
#endif

#define NCO 10

static uint64_t iters_per_co, yields_done;

static __attribute__((noinline)) uint64_t yield_loop(uint64_t k) {
  uint64_t i = 0;
  for (; i < k; ++i)
    cacs_yield();
  return i;
}

#if defined(__x86_64__)
#define CLOBBER_ALL()                                                          \
  __asm__ volatile("" ::                                                       \
                       : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", \
                         "r10", "r11", "r12", "r13", "r14", "r15", "memory")
#else
#define CLOBBER_ALL() __asm__ volatile("" ::: "memory")
#endif

static __attribute__((noinline)) uint64_t empty_loop(uint64_t k) {
  uint64_t i = 0;
  for (; i < k; ++i)
    CLOBBER_ALL();
  return i;
}

static void body(void *arg) {
  (void)arg;
  yields_done += yield_loop(iters_per_co);
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 100000000);
  int small = a.variant && !strcmp(a.variant, "small");
  int empty = a.variant && !strcmp(a.variant, "empty");
  char name[128];
  snprintf(name, sizeof name, "%s%s", empty ? "empty-loop" : BENCH_VARIANT,
           small ? "+small-stack" : "");
  bench_run r = bench_begin("yield", name, a.n);
  iters_per_co = a.n / NCO;
  uint64_t total = iters_per_co * NCO;
  for (int rep = 0; rep < a.reps && empty; ++rep) {
    uint64_t t0 = bench_cpu_ns();
    uint64_t got = empty_loop(total);
    uint64_t t1 = bench_cpu_ns();
    bench_record(&r, t1 - t0, total, got, total);
  }
  for (int rep = 0; rep < a.reps && !empty; ++rep) {
    cacs_coro *c[NCO - 1];
    yields_done = 0;
    for (int i = 0; i < NCO - 1; ++i)
      c[i] = cacs_create(body, NULL, small ? 4112 : 0);
    uint64_t t0 = bench_cpu_ns();
    body(NULL); // main is the 10th participant
    for (int i = 0; i < NCO - 1; ++i)
      cacs_join(c[i]);
    uint64_t t1 = bench_cpu_ns();
    bench_record(&r, t1 - t0, total, yields_done, total);
  }
  return bench_end(&r);
}
