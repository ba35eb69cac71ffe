// Coroutines spawned from outside a default pool spread over its workers
// (pool_ready.c, place): each is placed at its spawn on the worker with
// the fewest coroutines homed or placed there, whichever worker runs
// first. Taken from the shared queue instead, each homed on the first
// worker to take it, and a worker that was busy or not yet awake took
// none (bench/results/locks/cond-rw-41/README.md, section 2: all 64 of a
// benchmark's tasks often on one worker).
//
// 2 workers, TASKS coroutines spawned by main, each recording its worker
// and then waiting on a semaphore until all have started (so that every
// one stays homed where it started; one that finished would make its
// worker the least loaded again, rightly). Modes:
//   idle: both workers idle (asleep) at the spawns.
//   busy: a hog coroutine keeps one worker busy (spinning) while main
//     spawns, and stops once all are spawned; the hog counts as a home.
//     On the shared queue all went to the other worker.
// Homes within 2: 1 for the odd one, 1 for a spawn that reads a worker's
// load between its taking a placed coroutine and starting it.
//   roles: as idle, and the even-numbered tasks (a user's producers,
//     spawned in turn with consumers) must be on both workers, at least
//     a quarter of them on each: ties taken round the workers put them
//     all on one, every item a cross-worker wake.
//   hog: the hog spins until all TASKS have started, and those placed on
//     its worker can start only if an idle worker takes them
//     (cacs__pool_steal_placed: once the hog has run 10 ms of CPU time
//     without its worker taking them): all must start (the watchdog fails
//     a hang).
// The busy mode's bound holds only if the hog's worker did not run it for
// 10 ms of CPU time (the spawns took less) nor for 100 ms of wall-clock
// time (all started sooner) while its share waited: else the idle worker
// may rightly take that share. Such a round (a loaded machine) is run
// again, up to ROUNDS times.
//
// RUN: %clang -O2 -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t idle | FileCheck %s
// RUN: %t busy | FileCheck %s
// RUN: %t roles | FileCheck %s
// RUN: %t hog | FileCheck %s --check-prefix=HOG
// RUN: %if llvm-19 %{ %clang -O1 -g -fsanitize=thread -I%cacs_include -I%S/Inputs %s $(%cacs_rt_objs %clang -O1 -g -fsanitize=thread -I%cacs_include) -lpthread -o %t.tsan %}
// RUN: %if llvm-19 %{ env TSAN_OPTIONS=halt_on_error=1 %t.tsan busy 2>&1 | FileCheck %s %}
// RUN: %if llvm-19 %{ env TSAN_OPTIONS=halt_on_error=1 %t.tsan hog 2>&1 | FileCheck %s --check-prefix=HOG %}
// CHECK: balanced
// HOG: all 64 started

#include "cacs/pool.h"
#include "cacs/pool_sync.h"
#include "ptest.h"

#include <sched.h>
#include <stdint.h>
#include <string.h>

enum { TASKS = 64, ROUNDS = 10 };
// pool_ready.c, PLACED_HOG_NS (CPU time) and PLACED_WALL_NS
#define HOG_NS 10000000ull
#define WALL_NS 100000000ull

static cacs_pool_sem gate;
static int started, hog_worker, hog_go;
static int homes[2], evens[2];

static void task(void *arg) {
  int w = cacs_pool_worker_index();
  __atomic_add_fetch(&homes[w], 1, __ATOMIC_RELAXED);
  if ((intptr_t)arg % 2 == 0)
    __atomic_add_fetch(&evens[w], 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
  H_CHECK(cacs_pool_sem_wait(&gate, CACS_POOL_FOREVER) == 0);
}

// Spins (never waits) until main says go, or (hog mode) until every task
// has started.
static void hog(void *arg) {
  int all = *(int *)arg;
  __atomic_store_n(&hog_worker, cacs_pool_worker_index(), __ATOMIC_RELEASE);
  while (!(all ? __atomic_load_n(&started, __ATOMIC_ACQUIRE) == TASKS
               : __atomic_load_n(&hog_go, __ATOMIC_ACQUIRE)))
    ;
}

// One round: 1 if the hog may have run long enough to lose its share: the
// spawns (until the hog is told to stop) took HOG_NS, or the tasks took
// WALL_NS to start.
static int round_of(const char *mode) {
  cacs_pool *p = cacs_pool_create(2);
  H_CHECK(p);
  cacs_pool_sem_init(&gate, 0);
  started = hog_go = homes[0] = homes[1] = evens[0] = evens[1] = 0;
  hog_worker = -1;
  int busy = !strcmp(mode, "busy") || !strcmp(mode, "hog");
  int all = !strcmp(mode, "hog");
  cacs_pool_task *h = NULL, *t[TASKS];
  if (busy) {
    H_CHECK((h = cacs_pool_spawn(p, hog, &all)));
    while (__atomic_load_n(&hog_worker, __ATOMIC_ACQUIRE) < 0)
      sched_yield();
  }
  uint64_t t0 = h_now_ns();
  for (int i = 0; i < TASKS; ++i)
    H_CHECK((t[i] = cacs_pool_spawn(p, task, (void *)(intptr_t)i)));
  __atomic_store_n(&hog_go, 1, __ATOMIC_RELEASE);
  uint64_t window = h_now_ns() - t0;
  while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < TASKS)
    sched_yield();
  uint64_t up = h_now_ns() - t0;
  for (int i = 0; i < TASKS; ++i)
    cacs_pool_sem_post(&gate);
  for (int i = 0; i < TASKS; ++i)
    H_CHECK(cacs_pool_join(t[i]) == 0);
  if (h)
    H_CHECK(cacs_pool_join(h) == 0);
  H_CHECK(cacs_pool_destroy(p) == 0);
  printf("%s: homes %d/%d, hog on %d, spawns %.2f ms, all started %.2f ms\n",
         mode, homes[0], homes[1], hog_worker, window / 1e6, up / 1e6);
  return window >= HOG_NS || up >= WALL_NS;
}

int main(int argc, char **argv) {
  H_CHECK(argc == 2);
  h_watchdog(60);
  const char *mode = argv[1];
  for (int r = 0; r < ROUNDS; ++r) {
    int slow = round_of(mode);
    if (!strcmp(mode, "hog")) {
      printf("all %d started\n", homes[0] + homes[1]);
      return 0;
    }
    if (!strcmp(mode, "busy") && slow)
      continue; // the idle worker may have taken the hog's share
    // The hog counts where it runs.
    int a = homes[0] + (hog_worker == 0), b = homes[1] + (hog_worker == 1);
    H_CHECK(a - b <= 2 && b - a <= 2);
    if (!strcmp(mode, "roles")) {
      printf("even ones %d/%d\n", evens[0], evens[1]);
      H_CHECK(evens[0] >= TASKS / 8 && evens[1] >= TASKS / 8);
    }
    printf("balanced\n");
    return 0;
  }
  printf("every round was slow: inconclusive\n");
  return 1;
}
