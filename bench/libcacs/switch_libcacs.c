//===- bench/libcacs/switch_libcacs.c - Ping-pong through cacs/switch.h ---===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The scheduler-less switch of libcacs (cacs/switch.h): main and one
// context switch back and forth, each switch carrying a value that the other
// side increments (ops = switches; checksum: the last value). Variants
// (-v):
//   switch  cacs_switch, inlined into both loops (the default)
//   tail    a preserve_none function ending in CACS_TAIL_SWITCH_BP, the
//           switch as a call: the resumed side lands in its caller
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/switch.h"

static cacs_context main_ctx, partner_ctx;
static uint64_t rounds;
static int tail;

__attribute__((noinline)) CACS_PRESERVE_NONE static uint64_t
tail_switch(cacs_context *from, cacs_context *to, uint64_t v) {
  CACS_SAVE_CALLER_BP(bp);
  CACS_TAIL_SWITCH_BP(from, to, v, bp);
}

static void partner(void *arg, uint64_t v) {
  (void)arg;
  if (tail)
    for (;;)
      v = tail_switch(&partner_ctx, &main_ctx, v + 1);
  for (;;)
    v = cacs_switch(&partner_ctx, &main_ctx, v + 1);
}

static __attribute__((noinline)) uint64_t pingpong(void) {
  uint64_t v = 0;
  if (tail)
    for (uint64_t i = 0; i < rounds; ++i)
      v = tail_switch(&main_ctx, &partner_ctx, v + 1);
  else
    for (uint64_t i = 0; i < rounds; ++i)
      v = cacs_switch(&main_ctx, &partner_ctx, v + 1);
  return v;
}

int main(int argc, char **argv) {
  static char stack[64 * 1024] __attribute__((aligned(16)));
  bench_args a = bench_parse(argc, argv, 100000000);
  tail = a.variant && !strcmp(a.variant, "tail");
  bench_run r = bench_begin(
      "yield", tail ? "libcacs-tail-switch" : "libcacs-switch", a.n);
  rounds = a.n / 2;
  for (int rep = 0; rep < a.reps; ++rep) {
    cacs_context_init(&partner_ctx, stack + sizeof stack, partner, NULL);
    uint64_t t0 = bench_cpu_ns();
    uint64_t got = pingpong();
    uint64_t t1 = bench_cpu_ns();
    bench_record(&r, t1 - t0, rounds * 2, got, rounds * 2);
  }
  return bench_end(&r);
}
