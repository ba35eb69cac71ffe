//===- bench/effect/floor_rounds.h - A floor round's handler side -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// What floor_effects.c and floor_sites.c share: the handler's side of a
// perform + resume round between two fixed contexts (the shapes up1 and
// state of effect_shapes.h; the others exit 64) and main. The including
// file defines first FLOOR_CTX (a context type: sp, pc, fp, bp first, as
// cacs_context), FLOOR_IMPL (the name in the RESULT line),
// FLOOR_RESUME(from, to, v), the handler's switch, FLOOR_PERFORM, the
// performer's, and FLOOR_BODY_ATTRS, body's attributes; after, start(),
// which makes `self` a fresh context on `stack` that runs body().
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_FLOOR_ROUNDS_H
#define CACS_BENCH_FLOOR_ROUNDS_H

#include "effect_shapes.h"

#include <stdlib.h>

static FLOOR_CTX self, caller;
static uint64_t count;
static int state_shape;
static _Alignas(16) char stack[1 << 16];

static void start(void);

/// The performer: `count` rounds (two per iteration in the state shape),
/// then its sum to the handler.
__attribute__((noreturn)) FLOOR_BODY_ATTRS static void body(void) {
  uint64_t acc = 0;
  if (state_shape) {
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t v = FLOOR_PERFORM(&self, &caller, 0); // get
      FLOOR_PERFORM(&self, &caller, v + 1);          // put
    }
  } else {
    for (uint64_t i = 0; i < count; ++i)
      acc += FLOOR_PERFORM(&self, &caller, i);
  }
  FLOOR_PERFORM(&self, &caller, acc); // done
  abort();                            // never resumed
}

static uint64_t shape_up(int up, uint64_t n) {
  (void)up; // no handlers between: the floor has no depth
  count = n;
  state_shape = 0;
  start();
  uint64_t v = FLOOR_RESUME(&caller, &self, 0);
  for (uint64_t i = 0; i < n; ++i)
    v = FLOOR_RESUME(&caller, &self, v + 1);
  return v;
}

static uint64_t shape_state(uint64_t n) {
  count = n;
  state_shape = 1;
  start();
  uint64_t value = 0, q = FLOOR_RESUME(&caller, &self, 0);
  for (uint64_t i = 0; i < 2 * n; ++i) {
    if (i % 2 == 0) {
      q = FLOOR_RESUME(&caller, &self, value); // answer get
    } else {
      value = q;                           // put's payload
      q = FLOOR_RESUME(&caller, &self, 0); // answer put
    }
  }
  return value;
}

static uint64_t unsupported(void) {
  fprintf(stderr, "%s: only the shapes state and upK\n", FLOOR_IMPL);
  exit(64);
}
static uint64_t shape_throw(int frames, uint64_t n) {
  (void)frames, (void)n;
  return unsupported();
}
static uint64_t shape_generator(uint64_t n) {
  (void)n;
  return unsupported();
}
static uint64_t shape_skynet(uint64_t leaves) {
  (void)leaves;
  return unsupported();
}
static uint64_t shape_idle(uint64_t n, uint64_t *rss_bytes) {
  (void)n, (void)rss_bytes;
  return unsupported();
}

int main(int argc, char **argv) { return shape_main(argc, argv, FLOOR_IMPL); }

#endif // CACS_BENCH_FLOOR_ROUNDS_H
