//===- bench/effect/effect_shapes.h - Effects' shapes, one driver -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// What bench/effect/cacs_effects.c (cacs/effect.h) and seff_effects.c
// (libseff, the peer, built from a source tree the user gives: run.sh)
// both run: the shapes of libseff's own benchmarks, each a variant of the
// bench/common/bench.h protocol (`-v VARIANT`, one RESULT line, its result
// checked):
//   state      the get/put state loop (libseff's state_bench): put(get() +
//              1), n times; ops = 2n performs, each with its resume
//   upK        a perform handled K handlers up (K = 1, 5, 10: K - 1 effect
//              coroutines that handle another effect between the performer
//              and its handler), n times; ops = n
//   throwK     an exception by effects through K frames (libseff's
//              exception_bench, deeper): create an effect coroutine, which
//              recurses K frames and performs; the handler does not resume
//              it and frees it; ops = n/10 of these
//   generator  a generator by effects: the coroutine performs 0..n-1, the
//              handler sums them; ops = n
//   skynet     skynet by effects (libseff's skynet_bench): a tree of effect
//              coroutines, ten children each, down to n leaves (n rounded
//              down to a power of 10); each leaf performs its number, which
//              passes over every node (they resume their children handling
//              nothing) to the handler at the root, which sums; ops = the
//              coroutines created (each created, run, freed)
//   callstate, callupK
//              cacs only, another mechanism (not perform + resume): state
//              and upK with their handlers as call handlers
//              (cacs_effect_resume_with, a tail-resumptive handler run on
//              the performer's stack: no switch); ops as there. The
//              implementation defines SHAPE_CALLS to have them
//   idle       memory, not time: n/100 effect coroutines, each resumed once
//              up to a perform where it stays; ns= of the RESULT line
//              carries the growth of the resident set over all of them in
//              bytes (ops = the coroutines), run.sh reports bytes per
//              coroutine
// Each implementation defines the functions below; this header is the
// driver.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_EFFECT_SHAPES_H
#define CACS_BENCH_EFFECT_SHAPES_H

#include "../common/bench.h"

/// put(get() + 1), n times from 0: returns the final state (n).
static uint64_t shape_state(uint64_t n);
/// n performs, handled `up` handlers up, answered with the payload + 1:
/// returns the sum of the answers.
static uint64_t shape_up(int up, uint64_t n);
/// n throws through `frames` frames, each payload `frames`: their sum.
static uint64_t shape_throw(int frames, uint64_t n);
/// The sum of 0..n-1, generated.
static uint64_t shape_generator(uint64_t n);
/// Skynet down to `leaves` leaves (a power of 10): the sum of 0..leaves-1.
static uint64_t shape_skynet(uint64_t leaves);
/// n effect coroutines suspended in a perform at once; sets *rss_bytes to
/// the resident set's growth meanwhile. Returns the requests received (n).
static uint64_t shape_idle(uint64_t n, uint64_t *rss_bytes);

#ifdef SHAPE_CALLS
/// state and upK, their handlers calls (callstate, callupK).
static uint64_t shape_call_state(uint64_t n);
static uint64_t shape_call_up(int up, uint64_t n);
#else
static uint64_t shape_call_state(uint64_t n) {
  (void)n;
  fprintf(stderr, "no call handlers in this implementation\n");
  exit(64);
}
static uint64_t shape_call_up(int up, uint64_t n) {
  (void)up;
  return shape_call_state(n);
}
#endif

/// Keeps a recursion a recursion (no accumulator tail call).
#define SHAPE_KEEP(x) __asm__ volatile("" : "+r"(x))

static int shape_main(int argc, char **argv, const char *impl) {
  bench_args a = bench_parse(argc, argv, 1000000);
  const char *v = a.variant ? a.variant : "state";
  uint64_t n = a.n, ops = n, expected;
  int k = 0;
  if (!strcmp(v, "state") || !strcmp(v, "callstate")) {
    ops = 2 * n;
    expected = n;
  } else if ((sscanf(v, "up%d", &k) == 1 || sscanf(v, "callup%d", &k) == 1) &&
             k >= 1) {
    expected = n * (n + 1) / 2;
  } else if (sscanf(v, "throw%d", &k) == 1 && k >= 0) {
    n = n / 10 ? n / 10 : 1;
    ops = n;
    expected = n * (uint64_t)k;
  } else if (!strcmp(v, "generator")) {
    expected = n * (n - 1) / 2;
  } else if (!strcmp(v, "skynet")) {
    uint64_t leaves = 1;
    while (leaves <= n / 10)
      leaves *= 10;
    n = leaves;
    ops = (10 * n - 1) / 9;
    expected = n * (n - 1) / 2;
  } else if (!strcmp(v, "idle")) {
    n = n / 100 ? n / 100 : 1;
    ops = n;
    expected = n;
  } else {
    fprintf(stderr, "unknown variant %s\n", v);
    return 64;
  }
  char variant[64];
  snprintf(variant, sizeof variant, "%s-%s", impl, v);
  bench_run r = bench_begin("effect", variant, a.n);
  for (int i = 0; i < a.reps; ++i) {
    uint64_t t0 = bench_cpu_ns(), got, bytes = 0;
    if (!strcmp(v, "idle")) {
      got = shape_idle(n, &bytes);
      bench_record(&r, bytes, ops, got, expected);
      continue;
    }
    if (!strcmp(v, "state"))
      got = shape_state(n);
    else if (!strcmp(v, "callstate"))
      got = shape_call_state(n);
    else if (!strncmp(v, "callup", 6))
      got = shape_call_up(k, n);
    else if (v[0] == 'u')
      got = shape_up(k, n);
    else if (v[0] == 't')
      got = shape_throw(k, n);
    else if (v[0] == 's')
      got = shape_skynet(n);
    else
      got = shape_generator(n);
    bench_record(&r, bench_cpu_ns() - t0, ops, got, expected);
  }
  return bench_end(&r);
}

#endif // CACS_BENCH_EFFECT_SHAPES_H
