// Effects under the AArch64 shadow call stack (-fsanitize=shadow-call-stack
// -ffixed-x18): each effect coroutine has a shadow stack of its own
// (cacs_effect_create), and every perform and resume moves x18 with the
// rest of the context, on the assembly's round (lib/effect_aarch64.S) as on
// effect.c's C paths. Left where it was, or taken from another slot of the
// context, a function returns to an address pushed by another coroutine.
//
// main handles `note` around mid coroutines, each of which handles `ask`
// around inner ones (`note` passes it, two up), first one to its end (the
// fast round: every answer follows its request), then two at a time in
// turn (every resume follows the other's request: the C path). Performs
// happen at every level of a recursion, the handlers' loops run several
// frames deep, and every value depends on the path, so a return to the
// wrong place shows. The output must equal the stock clang -O0 build's
// (no shadow call stack). On Linux nothing sets x18: the program points it
// at a buffer itself.
//
// REQUIRES: qemu-aarch64
// RUN: %stock_clang %aarch64_flags -O0 -I%cacs_include %s %cacs_rt_aarch64 -o %t0
// RUN: %run_aarch64 %t0 > %t0.out
// RUN: %clang %aarch64_flags -O1 -fsanitize=shadow-call-stack -ffixed-x18 -I%cacs_include %s %cacs_rt_aarch64 -o %t1
// RUN: %run_aarch64 %t1 > %t1.out
// RUN: diff %t0.out %t1.out
// RUN: FileCheck %s < %t1.out
// RUN: %clang %aarch64_flags -O2 -fsanitize=shadow-call-stack -ffixed-x18 -I%cacs_include %s %cacs_rt_aarch64 -o %t2
// RUN: %run_aarch64 %t2 | diff %t0.out -
//
// CHECK: mid 0: sum=
// CHECK-NEXT: mid 1: sum=
// CHECK-NEXT: mid 2: sum=
// CHECK-NEXT: mid 3: sum=
// CHECK-NEXT: done

#include "cacs/effect.h"
#include "cacs/stack.h" // tells libcacs that this unit uses the shadow stack

#include <stdint.h>
#include <stdio.h>

#include "Inputs/scs-main.h"

CACS_EFFECT(ask, uint64_t, uint64_t);
CACS_EFFECT(note, uint64_t, uint64_t);

// Performs before and after going deeper; `note` at some levels.
__attribute__((noinline)) static uint64_t nest(uint64_t tag, int depth) {
  uint64_t a = CACS_PERFORM(ask, tag);
  uint64_t v = depth > 0 ? nest(tag * 3 + a % 5, depth - 1) : tag + a;
  if ((tag + (uint64_t)depth) % 2)
    v += CACS_PERFORM(note, v % 1000);
  return v * 7 + (uint64_t)depth;
}

static void *inner(void *arg) {
  uint64_t tag = (uint64_t)(uintptr_t)arg;
  return (void *)(uintptr_t)(nest(tag, (int)(tag % 4) + 2) % 1000003);
}

static uint64_t answer(cacs_effect_request q) {
  return *(const uint64_t *)q.payload * 2 + 1;
}

// Runs k to its end, answering each `ask` at once, `depth` frames down.
__attribute__((noinline)) static uint64_t one(cacs_effect_coro *k,
                                              int depth) {
  if (depth > 0)
    return one(k, depth - 1) * 3 + (uint64_t)depth;
  uint64_t sum = 0, r;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(ask), NULL);
  while (q.effect) {
    sum += *(const uint64_t *)q.payload;
    r = answer(q);
    q = cacs_effect_resume(k, CACS_HANDLES(ask), &r);
  }
  return sum + (uint64_t)(uintptr_t)q.payload;
}

// Runs a and b to their ends in turn, `depth` frames down.
__attribute__((noinline)) static uint64_t two(cacs_effect_coro *a,
                                              cacs_effect_coro *b, int depth) {
  if (depth > 0)
    return two(a, b, depth - 1) * 5 + (uint64_t)depth;
  uint64_t sum = 0, ra = 0, rb = 0;
  cacs_effect_request qa = cacs_effect_resume(a, CACS_HANDLES(ask), NULL);
  cacs_effect_request qb = cacs_effect_resume(b, CACS_HANDLES(ask), NULL);
  while (qa.effect || qb.effect) {
    if (qa.effect) {
      sum = sum * 3 + *(const uint64_t *)qa.payload;
      ra = answer(qa);
      qa = cacs_effect_resume(a, CACS_HANDLES(ask), &ra);
    }
    if (qb.effect) {
      sum = sum * 5 + *(const uint64_t *)qb.payload;
      rb = answer(qb);
      qb = cacs_effect_resume(b, CACS_HANDLES(ask), &rb);
    }
  }
  return (sum + (uint64_t)(uintptr_t)qa.payload * 11 +
          (uint64_t)(uintptr_t)qb.payload) %
         1000000007;
}

static void *mid(void *arg) {
  uint64_t tag = (uint64_t)(uintptr_t)arg;
  cacs_effect_coro *a = cacs_effect_create(inner, (void *)(uintptr_t)tag, 0);
  uint64_t s = one(a, (int)tag % 3);
  cacs_effect_destroy(a);
  a = cacs_effect_create(inner, (void *)(uintptr_t)(tag + 1), 0);
  cacs_effect_coro *b =
      cacs_effect_create(inner, (void *)(uintptr_t)(tag + 2), 0);
  s = s * 13 + two(a, b, (int)(tag + 1) % 3);
  cacs_effect_destroy(a);
  cacs_effect_destroy(b);
  return (void *)(uintptr_t)(s % 1000000007);
}

__attribute__((noinline)) static uint64_t run_mid(uint64_t tag, int depth,
                                                  uint64_t *notes) {
  if (depth > 0)
    return run_mid(tag, depth - 1, notes) + (uint64_t)depth;
  cacs_effect_coro *k = cacs_effect_create(mid, (void *)(uintptr_t)tag, 0);
  uint64_t r;
  cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(note), NULL);
  while (q.effect) {
    *notes = *notes * 7 + *(const uint64_t *)q.payload;
    r = *(const uint64_t *)q.payload + tag;
    q = cacs_effect_resume(k, CACS_HANDLES(note), &r);
  }
  cacs_effect_destroy(k);
  return (uint64_t)(uintptr_t)q.payload;
}

int main(void) {
  for (uint64_t tag = 0; tag < 4; ++tag) {
    uint64_t notes = 0;
    uint64_t s = run_mid(tag, (int)tag, &notes);
    printf("mid %llu: sum=%llu notes=%llu\n", (unsigned long long)tag,
           (unsigned long long)s, (unsigned long long)(notes % 1000000007));
  }
  printf("done\n");
  return 0;
}
