// Shared (copy) stacks, CACS_STACK_SHARED: coroutines run on one execution
// stack and are copied off it and back when another of them runs. Checks:
// many suspended five frames deep with live locals, interleaved with
// private-stack coroutines; a generator driven from a shared coroutine,
// including a switch-out inside the generator's body (whole stack saved);
// timed waits; what is saved per coroutine; the debug mode catching a
// pointer to a local used while its owner is switched out; overflow of a
// shared stack named after the coroutine on it. The waits of cacs/sync.h
// and cacs/io.h: stack-shared-waits.c.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: %t run 2000 2>&1 | FileCheck %s
// RUN: env CACS_SHARED_STACK_DEBUG=1 %t run 200 2>&1 | FileCheck %s
// RUN: %t escape 2>&1 | FileCheck %s --check-prefix=NODEBUG
// RUN: ulimit -c 0; env CACS_SHARED_STACK_DEBUG=1 not --crash %t escape 2>&1 | FileCheck %s --check-prefix=ESCAPE
// RUN: ulimit -c 0; not --crash %t overflow 2>&1 | FileCheck %s --check-prefix=OVERFLOW
//
// CHECK: suspended [[N:[0-9]+]] shared, [[N]] private
// CHECK-NEXT: saved bytes per suspended one: a few frames' worth
// CHECK-NEXT: finished [[N]] shared, [[N]] private, locals ok
// CHECK-NEXT: generator: sum 55, switched out inside it: ok
// CHECK-NEXT: sleeps ok
// CHECK-NEXT: PASS
//
// NODEBUG: escaped pointer read
// ESCAPE-NOT: escaped pointer read
// ESCAPE: cacs: access to a local of coroutine 'owner' (id 1) while it is switched out (shared stack): a pointer to a local escaped a switch; fault at 0x{{[0-9a-f]+}}
// OVERFLOW: cacs: stack overflow in coroutine 'deep-shared' (id 2): fault at

#include "cacs/coro.h"
#include "Inputs/deep-yield.h"
#include "cacs/generator.h"
#include "cacs/sync.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long *results;

static void body(void *arg) {
  long id = (long)(intptr_t)arg;
  results[id] = deep(4, id, 2);
}

static void gen_body(cacs_gen *g, void *arg) {
  (void)arg;
  for (uint64_t i = 1; i <= 10; ++i) {
    if (i == 5)
      cacs_yield(); // the coroutine switches out with sp on this stack
    cacs_gen_yield(g, i);
  }
}

static long gen_sum;
static void gen_user(void *arg) {
  (void)arg;
  volatile long mine = 1000;
  cacs_gen *g = cacs_gen_create(gen_body, NULL, 0);
  uint64_t v;
  while (cacs_gen_next(g, &v)) {
    gen_sum += (long)v;
    cacs_yield();
  }
  cacs_gen_destroy(g);
  gen_sum += mine - 1000;
}

static int sleeps;
static void sleeper(void *arg) {
  volatile long mine = (long)(intptr_t)arg;
  for (int i = 0; i < 3; ++i)
    cacs_sleep(100);
  sleeps += mine == (long)(intptr_t)arg;
}

static volatile long *escaped;
static void owner(void *arg) {
  (void)arg;
  volatile long local = 42;
  escaped = &local;
  cacs_yield();
}
static void reader(void *arg) {
  (void)arg;
  printf("escaped pointer read %ld\n", *escaped); // the rule broken
  fflush(stdout);
}

__attribute__((noinline)) static int recurse(volatile char *prev, int n) {
  volatile char buf[256];
  buf[0] = (char)n;
  buf[255] = prev ? prev[0] : 0;
  return recurse(buf, n + 1) + buf[255];
}
static void diver(void *arg) {
  (void)arg;
  recurse(NULL, 0);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "run";
  cacs_coro_attr shared = {0, CACS_STACK_SHARED, 0, NULL};
  if (!strcmp(mode, "escape")) {
    cacs_coro_attr a = {0, CACS_STACK_SHARED, 0, "owner"};
    cacs_coro *o = cacs_create_ex(owner, NULL, &a);
    cacs_coro *r = cacs_create(reader, NULL, 0);
    cacs_join(r);
    cacs_join(o);
    return 0;
  }
  if (!strcmp(mode, "overflow")) {
    cacs_coro *quiet = cacs_create_ex(body, NULL, &shared);
    (void)quiet;
    results = calloc(1, sizeof *results);
    cacs_coro_attr a = {32 * 1024, CACS_STACK_SHARED, 0, "deep-shared"};
    cacs_join(cacs_create_ex(diver, NULL, &a));
    return 0;
  }
  long n = argc > 2 ? atol(argv[2]) : 100;
  results = calloc((size_t)(2 * n), sizeof *results);
  cacs_coro **co = calloc((size_t)(2 * n), sizeof *co);
  for (long i = 0; i < 2 * n; ++i) // shared and private ones interleaved
    co[i] = i % 2 ? cacs_create(body, (void *)(intptr_t)i, 0)
                  : cacs_create_ex(body, (void *)(intptr_t)i, &shared);
  cacs_yield(); // each runs to its first yield
  printf("suspended %ld shared, %ld private\n", reached - reached / 2,
         reached / 2);
  cacs_yield(); // second yield
  // All shared ones but the last (resident) are saved, a few frames each.
  size_t saved = cacs_stack_shared_saved();
  printf("saved bytes per suspended one: %s\n",
         saved >= (size_t)(n - 1) * 5 * 32 && saved <= (size_t)(n - 1) * 4096
             ? "a few frames' worth"
             : "WRONG");
  cacs_yield(); // all finish
  long ok_s = 0, ok_p = 0;
  for (long i = 0; i < 2 * n; ++i) {
    cacs_join(co[i]);
    if (results[i] == deep(4, i, 0))
      ++*(i % 2 ? &ok_p : &ok_s);
  }
  printf("finished %ld shared, %ld private, locals %s\n", ok_s, ok_p,
         ok_s == n && ok_p == n ? "ok" : "WRONG");

  cacs_coro *g1 = cacs_create_ex(gen_user, NULL, &shared);
  cacs_coro *g2 = cacs_create_ex(body, (void *)(intptr_t)0, &shared);
  results[0] = 0;
  cacs_join(g1);
  cacs_join(g2);
  int gen_ok = results[0] == deep(4, 0, 0);
  printf("generator: sum %ld, switched out inside it: %s\n", gen_sum,
         gen_ok ? "ok" : "WRONG");

  cacs_coro *s[4];
  for (int i = 0; i < 4; ++i)
    s[i] = cacs_create_ex(sleeper, (void *)(intptr_t)(i + 7), &shared);
  for (int i = 0; i < 4; ++i)
    cacs_join(s[i]);
  printf("sleeps %s\n", sleeps == 4 ? "ok" : "WRONG");
  free(co);
  free(results);
  if (ok_s != n || ok_p != n || gen_sum != 55 || !gen_ok || sleeps != 4)
    return 1;
  printf("PASS\n");
  return 0;
}
