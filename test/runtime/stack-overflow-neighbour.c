// Stacks are slots carved next to each other from one mapping (stack.c),
// so a guard region is all that lies between a stack's bottom and the top
// of the stack below it, where that coroutine keeps its control block and
// its newest frames. A coroutine overflowing its stack faults on its
// guard and writes nothing into the neighbour below. The slots here had
// their pages given back first (cacs_stack_pool_trim; a coroutine that
// stays keeps the mapping), neighbours in one range across the guards
// between them: the guards stay.
//
// Of two coroutines on neighbouring slots, the lower one fills a buffer in
// its top frame and parks; the upper one recurses, writing every byte of
// its frames. The overflow report aborts; a SIGABRT handler then checks
// the buffer.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t
// RUN: ulimit -c 0; not --crash %t 2>&1 | FileCheck %s
// RUN: ulimit -c 0; env CACS_STACK_GUARD=mprotect not --crash %t 2>&1 | FileCheck %s
//
// CHECK: neighbours
// CHECK-NEXT: cacs: stack overflow in coroutine 'pair' (id {{6[67]}}): fault at
// CHECK-NEXT: neighbour intact

#include "cacs/coro.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CANARY 1024
static volatile unsigned char *canary;

static void on_abort(int sig) {
  (void)sig;
  int ok = canary != NULL;
  for (int i = 0; ok && i < CANARY; ++i)
    ok = canary[i] == 0x5a;
  static const char yes[] = "neighbour intact\n", no[] = "neighbour HIT\n";
  ssize_t r = ok ? write(1, yes, sizeof yes - 1) : write(1, no, sizeof no - 1);
  (void)r;
}

__attribute__((noinline)) static int recurse(volatile char *prev, int n) {
  volatile char buf[256];
  for (int i = 0; i < (int)sizeof buf; ++i) // every byte of every frame
    buf[i] = (char)n;
  buf[255] = prev ? prev[0] : 0;
  return recurse(buf, n + 1) + buf[255]; // no tail call: grows forever
}

static void pair(void *arg) {
  if (*(int *)arg) { // the diver, once the neighbour's buffer is there
    cacs_yield();
    recurse(NULL, 0);
  }
  volatile unsigned char buf[CANARY];
  for (int i = 0; i < CANARY; ++i)
    buf[i] = 0x5a;
  canary = buf;
  for (;;)
    cacs_yield();
}

static void nop(void *arg) { (void)arg; }

int main(void) {
  cacs_coro_attr a = {0, 0, 0, NULL};
  // 64 neighbouring slots, freed in order into the cache, then all given
  // back: in ranges of neighbours, across their guards.
  cacs_coro *c[65];
  for (int i = 0; i < 65; ++i)
    c[i] = cacs_create_ex(nop, NULL, &a);
  for (int i = 1; i < 65; ++i) // c[0] stays: the slab is not unmapped
    cacs_join(c[i]);
  cacs_stack_pool_trim();
  a.name = "pair";
  static int dives[2];
  cacs_coro *p = cacs_create_ex(pair, &dives[0], &a);
  cacs_coro *q = cacs_create_ex(pair, &dives[1], &a);
  // The control block is at the top of its stack: one slot apart, the
  // upper one dives.
  uintptr_t lo = (uintptr_t)(p < q ? p : q), hi = (uintptr_t)(p < q ? q : p);
  if (hi - lo < 80 * 1024)
    printf("neighbours\n");
  else
    printf("not neighbours: %p %p\n", (void *)p, (void *)q);
  dives[p < q] = 1;
  fflush(stdout);
  signal(SIGABRT, on_abort);
  cacs_join(p < q ? q : p);
  printf("survived\n");
  return 0;
}
