// A generator whose body waits as a coroutine (cacs_sleep) between values:
// the coroutine that resumed it is switched out, and switched back in,
// while it runs the generator's frames. Under ThreadSanitizer the switch
// back must return to the fiber that was running, the generator's, not to
// the coroutine's own: else the generator's next yield records the
// coroutine's fiber as the generator's, and TSan later works on a fiber
// that cacs_join destroyed (it aborted in cacs_gen_destroy). The output
// must equal the stock clang -O0 build's, without a TSan report.
//
// RUN: %stock_clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0
// RUN: %t0 > %t0.out
// RUN: FileCheck %s < %t0.out
// RUN: %clang -O1 -g -fsanitize=thread -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t1
// RUN: %t1 > %t1.out 2>&1
// RUN: diff %t0.out %t1.out
// RUN: %clang -O2 -fsanitize=thread -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t2
// RUN: %t2 2>&1 | diff %t0.out -
// The same with libcacs's sources built with TSan too.
// RUN: %clang -O1 -g -fsanitize=thread -I%cacs_include %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -I%cacs_include) -lpthread -o %t.rt
// RUN: %t.rt 2>&1 | diff %t0.out -
//
// CHECK: sum 2001000 other 1

#include "cacs/coro.h"
#include "cacs/generator.h"

#include <stdint.h>
#include <stdio.h>

static cacs_gen *gen;
static volatile int done;
static int others;

// Frames of the generator below the wait, so that the fibers' call
// stacks have some depth.
static __attribute__((noinline)) uint64_t deep(cacs_gen *g, uint64_t v,
                                              int d) {
  volatile char pad[64];
  pad[0] = (char)v;
  if (d)
    return deep(g, v, d - 1) + (uint64_t)pad[0] - (uint64_t)pad[0];
  cacs_sleep(0); // the coroutine running the generator switches out
  return cacs_gen_yield(g, v);
}

static void body(cacs_gen *g, void *arg) {
  (void)arg;
  for (uint64_t v = 1; v <= 2000; ++v)
    deep(g, v, 5);
}

static uint64_t sum;
static void consumer(void *arg) {
  (void)arg;
  uint64_t v;
  while (cacs_gen_next(gen, &v)) {
    sum += v;
    cacs_sleep(0);
  }
  done = 1;
}

// Runs whenever the consumer waits, inside the generator or not.
static void other(void *arg) {
  (void)arg;
  while (!done) {
    others = 1;
    cacs_sleep(0);
  }
}

int main(void) {
  gen = cacs_gen_create(body, 0, 0);
  cacs_coro *c = cacs_create(consumer, 0, 0);
  cacs_coro *o = cacs_create(other, 0, 0);
  cacs_join(c);
  cacs_join(o);
  cacs_gen_destroy(gen);
  printf("sum %llu other %d\n", (unsigned long long)sum, others);
  return 0;
}
