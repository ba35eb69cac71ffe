// cacs_pool_sleep: coroutines wake in deadline order (one worker: its own
// timer heap, expired in order), each after at least its duration, and
// the worker runs others meanwhile (the sleeps overlap: the whole run
// takes about the longest sleep, not their sum).
//
// Each deadline is taken when its sleep starts, and the wakes are checked
// against those: on a loaded machine the worker may start the sleepers
// tens of milliseconds apart, which reorders the deadlines themselves.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t | FileCheck %s
// CHECK: in deadline order: yes
// CHECK-NEXT: early: 0
// CHECK-NEXT: overlapped: yes

#include "cacs/pool.h"

#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static int order[5], n, early;
static long long deadline[51]; // by the sleep's ms
static atomic_flag spin = ATOMIC_FLAG_INIT;

static long long now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void sleeper(void *arg) {
  int ms = (int)(long)arg;
  long long t0 = now_us();
  deadline[ms] = t0 + ms * 1000 * 4;
  cacs_pool_sleep(ms * 1000 * 4);
  long long took = now_us() - t0;
  while (atomic_flag_test_and_set(&spin))
    ;
  early += took < ms * 1000 * 4;
  order[n++] = ms;
  atomic_flag_clear(&spin);
}

int main(void) {
  cacs_pool *p = cacs_pool_create(1);
  static const int ms[5] = {50, 10, 40, 20, 30};
  cacs_pool_task *t[5];
  long long t0 = now_us();
  for (int i = 0; i < 5; ++i)
    t[i] = cacs_pool_spawn(p, sleeper, (void *)(long)ms[i]);
  for (int i = 0; i < 5; ++i)
    cacs_pool_join(t[i]);
  long long took = now_us() - t0;
  cacs_pool_destroy(p);
  // Deadlines are microseconds apart at best: the heap's order is exact.
  int sorted = n == 5;
  for (int i = 1; i < n; ++i)
    sorted &= deadline[order[i - 1]] <= deadline[order[i]];
  printf("in deadline order: %s (", sorted ? "yes" : "no");
  for (int i = 0; i < n; ++i)
    printf(" %d@%lld", order[i], deadline[order[i]] - t0);
  // One after the other, the five sleeps would take their sum (600 ms).
  printf(" )\nearly: %d\noverlapped: %s (%lld us)\n", early,
         took < 150 * 1000 * 4 ? "yes" : "no", took);
  return 0;
}
