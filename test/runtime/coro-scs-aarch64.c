// AArch64 shadow call stack (-fsanitize=shadow-call-stack -ffixed-x18):
// instrumented functions push their return address at x18 and return to
// the one they pop. Coroutines and generators each need a shadow stack of
// their own, with x18 moved on every switch; sharing the thread's, a
// function returns to an address another coroutine pushed. Nested calls
// across yields in coroutines finishing in varied orders, waits on a
// channel, generators resumed in turn; the summary must equal the stock
// clang -O0 build's (no shadow call stack). On Linux nothing sets x18: the
// program points it at a buffer itself.
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
// A libcacs built without -ffixed-x18 may use x18 itself: it refuses.
// RUN: %clang %aarch64_flags -O1 -fsanitize=shadow-call-stack -ffixed-x18 -I%cacs_include %s -c -o %t3.o
// RUN: %clang %aarch64_flags -O1 -I%cacs_include %t3.o $(%cacs_rt_objs %clang %aarch64_flags -O1 -I%cacs_include) -o %t3
// RUN: not --crash %run_aarch64 %t3 2>&1 | FileCheck %s --check-prefix=UNFIXED
//
// CHECK: orders: sum=
// CHECK-NEXT: channel: sum=
// CHECK-NEXT: generators: sum=
// CHECK-NEXT: done
// UNFIXED: cacs: this libcacs was built without -ffixed-x18 and cannot switch shadow call stacks (-fsanitize=shadow-call-stack)

#include "cacs/coro.h"
#include "cacs/generator.h"
#include "cacs/sync.h"

#include <stdint.h>
#include <stdio.h>

#include "Inputs/scs-main.h"

// Every level yields before and after going deeper; the value it returns
// depends on the path, so a return to the wrong place shows.
__attribute__((noinline)) static uint64_t nest(uint64_t tag, int depth,
                                               int yields) {
  for (int i = 0; i < yields; i++)
    cacs_yield();
  uint64_t v = depth > 0 ? nest(tag * 3 + 1, depth - 1, yields) : tag;
  for (int i = 0; i < (int)(tag + depth) % 3; i++)
    cacs_yield();
  return v * 7 + (uint64_t)depth;
}

static uint64_t results[24];

static void worker(void *arg) {
  int tag = (int)(intptr_t)arg;
  results[tag] = nest((uint64_t)tag, tag % 6, (tag * 7) % 4);
}

static void orders(void) {
  enum { N = 24 };
  cacs_coro *c[N];
  for (int i = 0; i < N; i++) {
    c[i] = cacs_create(worker, (void *)(intptr_t)i, 0);
    if (i % 6 == 5)
      cacs_yield();
  }
  uint64_t mine = nest(99, 4, 2); // main's frames across yields too
  for (int i = 0; i < N; i++)
    cacs_join(c[(i * 7) % N]);
  uint64_t sum = mine;
  for (int i = 0; i < N; i++)
    sum = sum * 31 + results[i];
  printf("orders: sum=%llu\n", (unsigned long long)sum);
}

static cacs_chan *chan;
static uint64_t received;

__attribute__((noinline)) static void send_deep(int depth, uint64_t v) {
  if (depth > 0)
    send_deep(depth - 1, v * 5 + 1);
  else
    cacs_chan_send(chan, &v, CACS_FOREVER);
}

static void producer(void *arg) {
  (void)arg;
  for (int i = 0; i < 40; i++)
    send_deep(i % 5, (uint64_t)i);
}

static void consumer(void *arg) {
  (void)arg;
  for (int i = 0; i < 40; i++) {
    uint64_t v;
    cacs_chan_recv(chan, &v, CACS_FOREVER);
    received = received * 31 + v;
  }
}

static void channel(void) {
  chan = cacs_chan_create(sizeof(uint64_t), 1, 0);
  cacs_coro *p = cacs_create(producer, 0, 0);
  cacs_coro *q = cacs_create(consumer, 0, 0);
  cacs_join(q);
  cacs_join(p);
  cacs_chan_destroy(chan);
  printf("channel: sum=%llu\n", (unsigned long long)received);
}

__attribute__((noinline)) static void gen_rec(cacs_gen *g, uint64_t tag,
                                              int depth) {
  cacs_gen_yield(g, tag);
  if (depth > 0)
    gen_rec(g, tag * 3 + 1, depth - 1);
  cacs_gen_yield(g, tag + 1000);
}

static void gen_body(cacs_gen *g, void *arg) {
  gen_rec(g, (uint64_t)(uintptr_t)arg, 5);
}

__attribute__((noinline)) static uint64_t step(cacs_gen *g) {
  return cacs_gen_resume(g, 0) + 1;
}

static void generators(void) {
  cacs_gen *a = cacs_gen_create(gen_body, (void *)1, 0);
  cacs_gen *b = cacs_gen_create(gen_body, (void *)2, 0);
  uint64_t sum = 0;
  while (!cacs_gen_done(a) || !cacs_gen_done(b)) {
    if (!cacs_gen_done(a))
      sum = sum * 31 + step(a);
    if (!cacs_gen_done(b))
      sum = sum * 31 + step(b);
  }
  cacs_gen_destroy(a);
  cacs_gen_destroy(b);
  printf("generators: sum=%llu\n", (unsigned long long)sum);
}

int main(void) {
  orders();
  channel();
  generators();
  printf("done\n");
  return 0;
}
