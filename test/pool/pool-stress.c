// Migration stress, bounded in time: pool coroutines on 2 workers yield,
// sleep random short times, spawn and join children, and update shared
// counters under a spin lock, for 2 seconds (or a count of rounds). Each
// keeps values in its frame and in registers across every switch and
// checks them after it (a context restored wrongly on another worker
// shows up as "corrupt"), and the counters must add up. The same program
// under ThreadSanitizer (the pool tells TSan of its fibers and of the
// hand-offs between workers) must report nothing.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2 | FileCheck %s
// RUN: %clang -O1 -g -fsanitize=thread -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t-tsan
// RUN: env TSAN_OPTIONS=halt_on_error=1 %t-tsan 2 2>&1 | FileCheck %s --check-prefix=TSAN
// CHECK: corrupt=0 counted=yes children=yes migrated=yes
// TSAN-NOT: WARNING: ThreadSanitizer
// TSAN: corrupt=0 counted=yes children=yes migrated=yes
// TSAN-NOT: WARNING: ThreadSanitizer

#include "cacs/pool.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { COROS = 24, MAX_ROUNDS = 4000 };

static cacs_pool *pool;
static atomic_flag spin = ATOMIC_FLAG_INIT;
static long shared_count;   // under `spin`
static long children_ran;   // under `spin`
static _Atomic long rounds, spawned, corrupt, migrations;
static double stop_at;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void child(void *arg) {
  long *slot = arg;
  *slot += 1; // the parent reads it after the join
  while (atomic_flag_test_and_set_explicit(&spin, memory_order_acquire))
    ;
  children_ran++;
  atomic_flag_clear_explicit(&spin, memory_order_release);
}

static void body(void *arg) {
  uint64_t rng = (uintptr_t)arg * 0x9E3779B97F4A7C15ull + 1;
  volatile uint64_t frame[16]; // in memory across every switch
  for (int i = 0; i < 16; ++i)
    frame[i] = rng + i;
  uint64_t reg = rng * 3; // in a register or spilled: the compiler's choice
  int r = 0;
  for (; r < MAX_ROUNDS && now() < stop_at; ++r) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    int w = cacs_pool_worker_index();
    switch (rng % 4) {
    case 0:
      cacs_pool_yield();
      break;
    case 1:
      cacs_pool_sleep((int64_t)(rng >> 8) % 100);
      break;
    case 2: {
      long slot = 41;
      cacs_pool_task *t = cacs_pool_spawn(pool, child, &slot);
      atomic_fetch_add(&spawned, 1);
      if (!t || cacs_pool_join(t) != 0 || slot != 42)
        atomic_fetch_add(&corrupt, 1);
      break;
    }
    default:
      while (atomic_flag_test_and_set_explicit(&spin, memory_order_acquire))
        ;
      shared_count++;
      atomic_flag_clear_explicit(&spin, memory_order_release);
      break;
    }
    if (cacs_pool_worker_index() != w)
      atomic_fetch_add(&migrations, 1);
    atomic_fetch_add(&rounds, 1);
    reg = reg * 6364136223846793005ull + 1;
  }
  uint64_t expect = (uintptr_t)arg * 0x9E3779B97F4A7C15ull + 1;
  for (int i = 0; i < 16; ++i)
    if (frame[i] != expect + i)
      atomic_fetch_add(&corrupt, 1);
  uint64_t again = expect * 3; // `reg`'s steps, without switches
  for (int i = 0; i < r; ++i)
    again = again * 6364136223846793005ull + 1;
  if (reg != again)
    atomic_fetch_add(&corrupt, 1);
}

int main(int argc, char **argv) {
  double secs = argc > 1 ? atof(argv[1]) : 2;
  stop_at = now() + secs;
  // Its running coroutines must move: it opts in.
  cacs_pool_attr attr = {2, 0, CACS_POOL_MIGRATE_RUNNING};
  pool = cacs_pool_create_ex(&attr);
  cacs_pool_task *t[COROS];
  for (int i = 0; i < COROS; ++i)
    t[i] = cacs_pool_spawn(pool, body, (void *)(uintptr_t)(i + 1));
  for (int i = 0; i < COROS; ++i)
    cacs_pool_join(t[i]);
  cacs_pool_destroy(pool);
  long ops = atomic_load(&rounds);
  printf("rounds=%ld spawned=%ld shared=%ld migrations=%ld\n", ops,
         (long)spawned, shared_count, (long)migrations);
  printf("corrupt=%ld counted=%s children=%s migrated=%s\n", (long)corrupt,
         ops > 0 ? "yes" : "no", children_ran == spawned ? "yes" : "no",
         migrations > 0 ? "yes" : "no");
  return 0;
}
