// SafeStack with units built with and without it in one program. This file
// is compiled twice: with -DSS_PART and -fsanitize=safe-stack (functions
// with buffers on the unsafe stack), and without (switch points that do not
// touch the unsafe stack pointer). Coroutines keep unsafe frames live across
// yields made in the plain unit (libcacs sends every switch through its slow
// path once the program links the SafeStack runtime); generators switch in
// the plain unit on one side, in the SafeStack unit on the other, both ways
// round. The summary must equal the stock clang -O0 build's (no SafeStack).
//
// RUN: %stock_clang -O0 -I%cacs_include -DSS_PART %s -c -o %t0a.o
// RUN: %stock_clang -O0 -I%cacs_include %s -c -o %t0b.o
// RUN: %stock_clang %t0a.o %t0b.o %cacs_rt_x86_64 -o %t0
// RUN: %t0 > %t0.out
// RUN: %clang -O1 -fsanitize=safe-stack -I%cacs_include -DSS_PART %s -c -o %t1a.o
// RUN: %clang -O1 -I%cacs_include %s -c -o %t1b.o
// RUN: %clang -fsanitize=safe-stack %t1a.o %t1b.o %cacs_rt_x86_64 -o %t1
// RUN: %t1 > %t1.out
// RUN: diff %t0.out %t1.out
// RUN: FileCheck %s < %t1.out
//
// CHECK: coroutines: checked=
// CHECK-SAME: bad=0
// CHECK-NEXT: plain body: sum=
// CHECK-SAME: bad=0
// CHECK-NEXT: plain resumer: sum=
// CHECK-SAME: bad=0
// CHECK-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/generator.h"

#include <stdint.h>
#include <stdio.h>

// The plain unit's switch points.
void plain_yield_n(int n);
uint64_t plain_gen_yield(cacs_gen *g, uint64_t v);
uint64_t plain_resume(cacs_gen *g);
void plain_body(cacs_gen *g, void *arg);
// Called by plain_body: SafeStack frames that yield in the plain unit.
void ss_levels(cacs_gen *g, int tag);

#ifndef SS_PART

void plain_yield_n(int n) {
  for (int i = 0; i < n; i++)
    cacs_yield();
}

uint64_t plain_gen_yield(cacs_gen *g, uint64_t v) {
  return cacs_gen_yield(g, v);
}

uint64_t plain_resume(cacs_gen *g) { return cacs_gen_resume(g, 0); }

void plain_body(cacs_gen *g, void *arg) { ss_levels(g, (int)(intptr_t)arg); }

#else

#include "Inputs/unsafe-frames.h"

// --- coroutines: unsafe frames live across yields made in the plain unit --

static void nest(int tag, int depth) {
  char buf[40 + 8 * depth];
  fill(buf, (int)sizeof buf, tag * 8 + depth);
  plain_yield_n(tag % 3 + 1);
  if (depth > 0)
    nest(tag, depth - 1);
  plain_yield_n((tag + depth) % 2);
  check(buf, (int)sizeof buf, tag * 8 + depth);
}

static void worker(void *arg) {
  int tag = (int)(intptr_t)arg;
  char mine[64];
  fill(mine, 64, tag);
  nest(tag, tag % 4);
  check(mine, 64, tag);
}

static void coroutines(void) {
  enum { N = 12 };
  cacs_coro *c[N];
  for (int i = 0; i < N; i++) {
    c[i] = cacs_create(worker, (void *)(intptr_t)(i + 1), 0);
    if (i % 4 == 3)
      plain_yield_n(1);
  }
  for (int i = 0; i < N; i++)
    cacs_join(c[(i * 5) % N]);
  printf("coroutines: checked=%ld bad=%ld\n", checked, bad);
}

// --- generators: one side of each switch in each unit -----------------------

static uint64_t yield_here(cacs_gen *g, uint64_t v) {
  return cacs_gen_yield(g, v);
}

static uint64_t resume_here(cacs_gen *g) { return cacs_gen_resume(g, 0); }

// The body in the plain unit calls these frames, which yield there.
void ss_levels(cacs_gen *g, int tag) { gen_levels(g, tag, 4, plain_gen_yield); }

// The body in this unit, for a resumer in the plain unit.
static void ss_body(cacs_gen *g, void *arg) {
  gen_levels(g, (int)(intptr_t)arg, 4, yield_here);
}

int main(void) {
  coroutines();
  run_generators("plain body", plain_body, resume_here);
  run_generators("plain resumer", ss_body, plain_resume);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}

#endif
