// ThreadSanitizer sees the orderings the pool promises between workers
// (lib/pool/pool_park.h), and nothing else orders this program's plain
// variables: its own flags are relaxed atomics, which TSan does not count
// as synchronization.
//   park: a pool coroutine writes `before_park`, arms its park, and a plain
//     thread that wins cacs__pool_wake reads it (the token's release/acquire).
//   wake: a pool coroutine writes `before_wake`, wakes a parked one and
//     keeps its worker busy; the woken one, queued on the waker's deque, is
//     stolen by the other worker and reads `before_wake` there (the vote,
//     the deque push and the steal).
// libcacs built without TSan (%cacs_rt_x86_64) is invisible to TSan: the
// pool stands in with __tsan_release/__tsan_acquire on these hand-offs.
// Built with TSan (%cacs_rt_srcs) the pool leaves that to its atomics, so a
// relaxed store where the pool needs a release shows up here as a race.
//
// RUN: %clang -O1 -g -fsanitize=thread -I%cacs_include -I%S/../../runtime/lib/pool %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t park 2>&1 | FileCheck %s --check-prefix=PARK
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t wake 2>&1 | FileCheck %s --check-prefix=WAKE
// RUN: %clang -O1 -g -fsanitize=thread -I%cacs_include -I%S/../../runtime/lib/pool %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -I%cacs_include) -lpthread -o %t.rt
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t.rt park 2>&1 | FileCheck %s --check-prefix=PARK
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t.rt wake 2>&1 | FileCheck %s --check-prefix=WAKE
// PARK-NOT: WARNING
// PARK: park: read 42
// PARK-NOT: WARNING
// WAKE-NOT: WARNING
// WAKE: wake: read 7 moved=yes
// WAKE-NOT: WARNING

#include "cacs/pool.h"
#include "pool_park.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int before_park, before_wake; // plain: ordered by the pool only
static _Atomic(cacs__ptask *) parked;
static _Atomic int woken, done, waker_on = -1, resumed_on = -1;

#define RELAXED memory_order_relaxed

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// --- park: the parker's writes are visible to the waker that wins --------

static void parker(void *arg) {
  (void)arg;
  before_park = 42;
  atomic_store_explicit(&parked, cacs__pool_self(), RELAXED);
  cacs__pool_park(NULL, NULL, 0);
}

static int park_mode(cacs_pool *p) {
  cacs_pool_task *t = cacs_pool_spawn(p, parker, NULL);
  cacs__ptask *x;
  while (!(x = atomic_load_explicit(&parked, RELAXED)))
    ;
  // 0 until the parker has armed its token: the first 1 follows its store.
  while (!cacs__pool_wake(x))
    ;
  int v = before_park;
  cacs_pool_join(t);
  printf("park: read %d\n", v);
  return 0;
}

// --- wake: the waker's writes are visible to the woken, on another worker --

static void sleeper(void *arg) {
  (void)arg;
  atomic_store_explicit(&parked, cacs__pool_self(), RELAXED);
  while (cacs__pool_park(NULL, NULL, 0) != 0 ||
         !atomic_load_explicit(&woken, RELAXED))
    ;
  int v = before_wake;
  atomic_store_explicit(&resumed_on, cacs_pool_worker_index(), RELAXED);
  atomic_store_explicit(&done, 1, RELAXED);
  printf("wake: read %d", v);
}

static void waker(void *arg) {
  (void)arg;
  cacs__ptask *x;
  while (!(x = atomic_load_explicit(&parked, RELAXED)))
    cacs_pool_yield();
  // Let the sleeper finish switching out (its worker's vote comes first),
  // so that this wake queues it here.
  double settle = now() + 0.002;
  while (now() < settle)
    ;
  atomic_store_explicit(&waker_on, cacs_pool_worker_index(), RELAXED);
  before_wake = 7;
  atomic_store_explicit(&woken, 1, RELAXED);
  while (!cacs__pool_wake(x))
    ;
  // Keep this worker: the sleeper, on this worker's deque, must be stolen.
  double until = now() + 5;
  while (!atomic_load_explicit(&done, RELAXED) && now() < until)
    ;
}

static int wake_mode(cacs_pool *p) {
  cacs_pool_task *s = cacs_pool_spawn(p, sleeper, NULL);
  cacs_pool_task *w = cacs_pool_spawn(p, waker, NULL);
  cacs_pool_join(w);
  cacs_pool_join(s);
  printf(" moved=%s\n", atomic_load(&resumed_on) != atomic_load(&waker_on)
                             ? "yes"
                             : "no");
  return 0;
}

int main(int argc, char **argv) {
  // Its running coroutines must move: it opts in.
  cacs_pool_attr attr = {2, 0, CACS_POOL_MIGRATE_RUNNING};
  cacs_pool *p = cacs_pool_create_ex(&attr);
  int r = argc > 1 && !strcmp(argv[1], "wake") ? wake_mode(p) : park_mode(p);
  cacs_pool_destroy(p);
  return r;
}
