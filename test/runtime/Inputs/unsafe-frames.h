// What the SafeStack tests share: buffers filled with a pattern of their
// owner and checked after switches (address-taken: SafeStack puts them on
// the unsafe stack), and generators whose nested frames hold such buffers
// across yields while their consumer's frames come and go.

#ifndef CACS_TEST_UNSAFE_FRAMES_H
#define CACS_TEST_UNSAFE_FRAMES_H

#include "cacs/generator.h"

#include <stdint.h>
#include <stdio.h>

static __thread long bad, checked;

// Opaque to the optimizer, so the buffers are address-taken for real.
__attribute__((noinline)) static void fill(volatile char *p, int n, int tag) {
  for (int i = 0; i < n; i++)
    p[i] = (char)(tag * 31 + i);
}

__attribute__((noinline)) static void check(volatile char *p, int n, int tag) {
  for (int i = 0; i < n; i++)
    if (p[i] != (char)(tag * 31 + i)) {
      bad++;
      return;
    }
  checked++;
}

typedef uint64_t (*gen_yield_fn)(cacs_gen *g, uint64_t v);
typedef uint64_t (*gen_resume_fn)(cacs_gen *g);

// A generator body: `depth` levels, each with a buffer live across two
// yields made through `yield`.
static void gen_levels(cacs_gen *g, int tag, int depth, gen_yield_fn yield) {
  char buf[64];
  fill(buf, 64, tag + depth);
  yield(g, (uint64_t)(tag * 100 + depth));
  if (depth > 0)
    gen_levels(g, tag, depth - 1, yield);
  yield(g, (uint64_t)(tag * 100 + depth));
  check(buf, 64, tag + depth);
}

// One resume through `resume`, from a frame with a buffer of its own.
__attribute__((noinline)) static uint64_t gen_step(cacs_gen *g, int tag,
                                                   gen_resume_fn resume) {
  char buf[96];
  fill(buf, 96, tag);
  uint64_t v = resume(g);
  check(buf, 96, tag);
  return v;
}

// Two generators of `body` (args 3 and 4) resumed in turn through `resume`;
// at the fourth round the second is destroyed unfinished and replaced.
static void run_generators(const char *what, cacs_gen_fn body,
                           gen_resume_fn resume) {
  long bad0 = bad;
  uint64_t sum = 0;
  char outer[128];
  fill(outer, 128, 70);
  cacs_gen *a = cacs_gen_create(body, (void *)(intptr_t)3, 0);
  cacs_gen *b = cacs_gen_create(body, (void *)(intptr_t)4, 0);
  for (int i = 0; !cacs_gen_done(a) || !cacs_gen_done(b); i++) {
    if (!cacs_gen_done(a))
      sum += gen_step(a, i, resume);
    if (i == 3) {
      cacs_gen_destroy(b);
      b = cacs_gen_create(body, (void *)(intptr_t)5, 0);
    }
    if (!cacs_gen_done(b))
      sum += gen_step(b, i + 1, resume) * 3;
  }
  cacs_gen_destroy(a);
  cacs_gen_destroy(b);
  check(outer, 128, 70);
  printf("%s: sum=%llu bad=%ld\n", what, (unsigned long long)sum, bad - bad0);
}

#endif // CACS_TEST_UNSAFE_FRAMES_H
