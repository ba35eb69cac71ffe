// -fsplit-stack: split-stack prologues compare sp with a per-thread limit
// and call __morestack, which chains new stack segments on per-thread
// lists, when it is passed. Each coroutine has its own split-stack state
// (libgcc's context), moved on every switch: coroutines recurse far beyond
// their 64 KiB stacks, yield on the segments they grew, and finish in
// varied orders; each result must equal the same recursion run on the
// main stack. Generators (cacs/generator.h), whose inline switches cannot
// move that state, are refused at creation with a message.
//
// Linked with gold, as split stacks want: it gives calls into code built
// without them (libc, libcacs) a segment of full size.
// RUN: %clang -O1 -fsplit-stack -fuse-ld=gold -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: %t coro | FileCheck %s
// RUN: %clang -O2 -fsplit-stack -fuse-ld=gold -I%cacs_include %s %cacs_rt_x86_64 -o %t2
// RUN: %t2 coro | FileCheck %s
// RUN: not --crash %t gen 2>&1 | FileCheck %s --check-prefix=GEN
//
// CHECK: coroutines: 8 of 8 right, 40 rounds
// CHECK-NEXT: PASS
// GEN: cacs: generators (cacs/generator.h) do not support -fsplit-stack: use coroutines (cacs/coro.h)

#include "cacs/coro.h"
#include "cacs/generator.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static void fill(volatile char *p, int n, int tag) {
  for (int i = 0; i < n; i++)
    p[i] = (char)(tag * 31 + i);
}

__attribute__((noinline)) static int intact(volatile char *p, int n, int tag) {
  for (int i = 0; i < n; i++)
    if (p[i] != (char)(tag * 31 + i))
      return 0;
  return 1;
}

// About 300 bytes of stack per level; yields every few levels on the way
// down and up (at once when nothing else runs).
__attribute__((noinline)) static uint64_t rec(int depth, uint64_t acc) {
  char buf[256];
  fill(buf, (int)sizeof buf, depth);
  if (depth % 7 == 0)
    cacs_yield();
  uint64_t r = depth ? rec(depth - 1, acc * 3 + (uint64_t)depth) : acc;
  if (depth % 5 == 0)
    cacs_yield();
  return r * 7 + (uint64_t)intact(buf, (int)sizeof buf, depth);
}

enum { N = 8 };
static uint64_t results[N];

static int depth_of(int k) { return 600 + 150 * k; } // 180 KiB and more

static void worker(void *arg) {
  int k = (int)(intptr_t)arg;
  results[k] = rec(depth_of(k), (uint64_t)k);
}

static int coroutines(void) {
  int rounds = 40, right = 0;
  for (int r = 0; r < rounds; r++) { // segments are released and regrown
    cacs_coro *c[N];
    for (int k = 0; k < N; k++)
      c[k] = cacs_create(worker, (void *)(intptr_t)k, 0);
    for (int k = 0; k < N; k++)
      cacs_join(c[(k * 3 + r) % N]);
  }
  for (int k = 0; k < N; k++)
    right += results[k] == rec(depth_of(k), (uint64_t)k);
  printf("coroutines: %d of %d right, %d rounds\n", right, N, rounds);
  return right == N;
}

static void gen_body(cacs_gen *g, void *arg) {
  (void)arg;
  cacs_gen_yield(g, 1);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "gen")) {
    cacs_gen *g = cacs_gen_create(gen_body, NULL, 0);
    uint64_t v;
    while (cacs_gen_next(g, &v))
      ;
    cacs_gen_destroy(g);
    return 0;
  }
  int ok = coroutines();
  printf("%s\n", ok ? "PASS" : "FAIL");
  return !ok;
}
