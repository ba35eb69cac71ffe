// Generators: sum of a sequence, Hanoi(20) yielding from recursion depth 20
// (must match plain recursion move by move), values passed both ways,
// nested generators, and a generator driven from inside a coroutine.
// Argument: number of disks.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 20 | FileCheck %s
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t1 && %t1 20 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 20 | FileCheck %s
// RUN: %clang -O3 -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 20 | FileCheck %s
// RUN: %clang -O0 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t4 && %t4 20 | FileCheck %s
// RUN: %clang -O2 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t5 && %t5 20 | FileCheck %s
// RUN: %clang -O3 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t6 && %t6 20 | FileCheck %s
//
// CHECK: sum: 500000500000 ok
// CHECK: hanoi: [[MOVES:1048575]] moves ok
// CHECK: echo ok
// CHECK: nested ok
// CHECK: in coroutine ok
// CHECK: PASS
// SMALL: hanoi: 4095 moves ok
// SMALL: PASS

#include "cacs/coro.h"
#include "cacs/generator.h"

#include <stdio.h>
#include <stdlib.h>

static int failures;

// --- sum of sequence -----------------------------------------------------
static void seq(cacs_gen *g, void *arg) {
  for (uint64_t c = (uint64_t)(uintptr_t)arg; c; --c)
    cacs_gen_yield(g, c);
}

static void test_sum(void) {
  const uint64_t n = 1000000;
  cacs_gen *g = cacs_gen_create(seq, (void *)(uintptr_t)n, 0);
  uint64_t sum = 0, v, count = 0;
  while (cacs_gen_next(g, &v)) {
    sum += v;
    ++count;
  }
  int ok = sum == n * (n + 1) / 2 && count == n && cacs_gen_done(g);
  failures += !ok;
  printf("sum: %llu %s\n", (unsigned long long)sum, ok ? "ok" : "WRONG");
  cacs_gen_destroy(g);
}

// --- Hanoi ---------------------------------------------------------------
static uint64_t encode(int n, int f, int t) {
  return (uint64_t)n | (uint64_t)f << 8 | (uint64_t)t << 16;
}

static void hanoi_gen(cacs_gen *g, int n, int f, int t, int a) {
  if (n == 0)
    return;
  hanoi_gen(g, n - 1, f, a, t);
  cacs_gen_yield(g, encode(n, f, t));
  hanoi_gen(g, n - 1, a, t, f);
}
static void hanoi_entry(cacs_gen *g, void *arg) {
  hanoi_gen(g, (int)(intptr_t)arg, 'a', 'b', 'c');
}

static uint64_t *ref_moves;
static size_t ref_count;
static void hanoi_ref(int n, int f, int t, int a) {
  if (n == 0)
    return;
  hanoi_ref(n - 1, f, a, t);
  ref_moves[ref_count++] = encode(n, f, t);
  hanoi_ref(n - 1, a, t, f);
}

static void test_hanoi(int disks) {
  ref_moves = malloc(sizeof(uint64_t) << disks);
  ref_count = 0;
  hanoi_ref(disks, 'a', 'b', 'c');
  cacs_gen *g = cacs_gen_create(hanoi_entry, (void *)(intptr_t)disks, 0);
  size_t i = 0, mismatches = 0;
  uint64_t v;
  while (cacs_gen_next(g, &v)) {
    if (i >= ref_count || ref_moves[i] != v)
      ++mismatches;
    ++i;
  }
  int ok = i == ref_count && !mismatches && ref_count == (1u << disks) - 1;
  failures += !ok;
  printf("hanoi: %zu moves %s\n", i, ok ? "ok" : "WRONG");
  cacs_gen_destroy(g);
  free(ref_moves);
}

// --- values passed in both directions ------------------------------------------
static void echo(cacs_gen *g, void *arg) {
  (void)arg;
  uint64_t in = 0;
  for (int k = 0; k < 100; ++k)
    in = cacs_gen_yield(g, in * 2 + 1);
}
static void test_echo(void) {
  cacs_gen *g = cacs_gen_create(echo, NULL, 0);
  int ok = cacs_gen_resume(g, 12345) == 1; // first resume value is dropped
  for (uint64_t k = 1; k < 100; ++k)
    ok &= cacs_gen_resume(g, k) == 2 * k + 1;
  cacs_gen_resume(g, 0);
  ok &= cacs_gen_done(g) && cacs_gen_resume(g, 7) == 0;
  failures += !ok;
  printf("echo %s\n", ok ? "ok" : "WRONG");
  cacs_gen_destroy(g);
}

// --- a generator consuming another one ----------------------------------------
static void squares(cacs_gen *g, void *arg) {
  cacs_gen *inner = cacs_gen_create(seq, arg, 0);
  uint64_t v;
  while (cacs_gen_next(inner, &v))
    cacs_gen_yield(g, v * v);
  cacs_gen_destroy(inner);
}
static void test_nested(void) {
  cacs_gen *g = cacs_gen_create(squares, (void *)(uintptr_t)1000, 0);
  uint64_t v, sum = 0;
  while (cacs_gen_next(g, &v))
    sum += v;
  int ok = sum == 1000ull * 1001 * 2001 / 6;
  failures += !ok;
  printf("nested %s\n", ok ? "ok" : "WRONG");
  cacs_gen_destroy(g);
}

// --- generators used from coroutines that also yield to each other ----------
static void coro_consumer(void *arg) {
  uint64_t *out = (uint64_t *)arg;
  cacs_gen *g = cacs_gen_create(seq, (void *)(uintptr_t)1000, 0);
  uint64_t v;
  while (cacs_gen_next(g, &v)) {
    *out += v;
    cacs_yield();
  }
  cacs_gen_destroy(g);
}
static void test_in_coroutine(void) {
  uint64_t a = 0, b = 0;
  cacs_coro *ca = cacs_create(coro_consumer, &a, 0);
  cacs_coro *cb = cacs_create(coro_consumer, &b, 0);
  cacs_join(ca);
  cacs_join(cb);
  int ok = a == 500500 && b == 500500;
  failures += !ok;
  printf("in coroutine %s\n", ok ? "ok" : "WRONG");
}

int main(int argc, char **argv) {
  int disks = argc > 1 ? atoi(argv[1]) : 20;
  test_sum();
  test_hanoi(disks);
  test_echo();
  test_nested();
  test_in_coroutine();
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
