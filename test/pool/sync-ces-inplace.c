// The CES paper's Figure 6 on the pool: a contended unlock of a CES mutex
// runs the next waiter at once on the unlocker's worker (cacs__pool_handoff),
// so the waiter's critical section starts on the worker where the previous
// one ended, every time. A holder and a waiter on 2 workers take turns;
// each round the holder unlocks only once the waiter is queued on the
// mutex (looked up under the mutex's own spin lock), then computes for
// 200 us. A dispatch mutex (the paper's Figure 3) only makes the waiter
// runnable on the busy worker, where the idle one may steal it: its count
// goes to stderr only.
//
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t ces | FileCheck %s
// RUN: %stock_clang -O0 -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t0
// RUN: %t0 ces | FileCheck %s
// RUN: %t dispatch | FileCheck %s --check-prefix=DISPATCH
// Under ASan: the hand-off is a direct switch between two coroutines,
// announced to ASan (a missing start of the switch failed here with
// "finishing a fiber switch that has not started"), fake stacks included.
// RUN: %clang -O1 -g -fsanitize=address -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t.asan
// RUN: env ASAN_OPTIONS=detect_stack_use_after_return=1:detect_leaks=1 %t.asan ces 2>&1 | FileCheck %s
//
// CHECK: ces: waiter ran on the unlocker's worker in 200 of 200 rounds
// DISPATCH: dispatch: 200 rounds
#include "psync.h"

enum { ROUNDS = 200 };

static cacs_pool_mutex mu;
static cacs_pool_sem go = CACS_POOL_SEM_INIT(0);
static int unlock_worker, same;

// White box: whether a waiter is queued on `m`, read under its spin lock.
// The holder yields the CPU between two looks (as well as its worker):
// polled back to back, the spin lock is free only between a release and
// the next exchange, so a preempted holder would almost always hold it,
// and a waiter queueing from the other worker on the same CPU (`taskset
// -c 0`, a loaded machine) would spin for it for whole time slices
// (sync-mutex-handoff-rule.c livelocked so).
static int queued(cacs_pool_mutex *m) {
  while (__atomic_exchange_n(&m->spin, 1, __ATOMIC_ACQUIRE))
    ;
  int q = m->waiters.head != NULL;
  __atomic_store_n(&m->spin, 0, __ATOMIC_RELEASE);
  return q;
}

static void waiter(void *arg) {
  (void)arg;
  for (int r = 0; r < ROUNDS; ++r) {
    H_CHECK(cacs_pool_sem_wait(&go, -1) == 0);
    H_CHECK(cacs_pool_mutex_lock(&mu, -1) == 0);
    same += h_worker() == unlock_worker;
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  }
}

static void holder(void *arg) {
  (void)arg;
  for (int r = 0; r < ROUNDS; ++r) {
    H_CHECK(cacs_pool_mutex_lock(&mu, -1) == 0);
    cacs_pool_sem_post(&go);
    while (!queued(&mu)) {
      h_yield();
      sched_yield();
    }
    unlock_worker = h_worker();
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
    // The parallel part: keeps this worker busy, so a waiter that was
    // only made runnable here is for the other worker to steal.
    uint64_t t0 = h_now_ns();
    while (h_now_ns() - t0 < 200000)
      ;
  }
}

int main(int argc, char **argv) {
  int dispatch = argc > 1 && !strcmp(argv[1], "dispatch");
  H_CHECK(cacs_pool_mutex_init(&mu, dispatch ? CACS_POOL_LOCK_DISPATCH
                                              : CACS_POOL_LOCK_CES) == 0);
  h_start(2);
  h_spawn(waiter, NULL);
  h_spawn(holder, NULL);
  h_join_all();
  h_stop();
  if (dispatch) {
    fprintf(stderr, "dispatch: on the unlocker's worker in %d of %d rounds\n",
            same, ROUNDS);
    printf("dispatch: %d rounds\n", ROUNDS);
  } else {
    printf("ces: waiter ran on the unlocker's worker in %d of %d rounds\n",
           same, ROUNDS);
  }
  return 0;
}
