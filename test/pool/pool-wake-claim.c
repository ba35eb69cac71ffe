// In a default pool every item of a producer and a consumer homed on two
// workers passes between them: a wake of the other worker's coroutine. A
// worker asleep, or spinning for work, when such a wake gives it work counts
// as running from the wake on (pool_ready.c, wake_worker and claim_wake),
// while the waker's claim-spins pay (pool_worker.c, claim_gate), so the
// waker, its own coroutines waiting next, spins for the answer
// (pool_worker.c, idle_spin) instead of sleeping: before, it counted the
// other worker as idle until that one was up, refused to spin and slept,
// and every item cost a futex wake and wait on each side (the cond shape at
// one slot, issue 37: 0.3 futex calls per item, 0.2 M items/s against Go's
// 2.4; bench/results/locks/cond-46).
//   pingpong: two coroutines on the two workers pass a token N times
//     through two semaphores; the workers together sleep fewer than N/20
//     times (before: 2 N / 3; with a sleeping worker claimed but a
//     spinning one not, N/40 to 2 N / 3);
//   idle: then both coroutines wait on a 20 ms timer: each worker sleeps
//     (the pool all idle sleeps at once: its count of sleeps moves, or it
//     was asleep already and used under 1 ms of CPU) and uses under 5 ms;
//   late: the ping-pong again with every claim-spin late (this file's
//     clock_gettime, which the library's calls reach, jumps 1 ms at each
//     read of CLOCK_MONOTONIC: the spin sees its work, if at all, after
//     its bound, as a spin that lost its CPU for a time slice would): the
//     claim gate turns the claim off (pool_worker.c, claim_gate), claim-
//     spins fail and the workers sleep N / 2 times or more, as before the
//     claim (with two busy loops on the two CPUs, claim-spins that gave
//     the CPU away collapsed the cond shape 25x);
//   recovered: the clock true again, the gate's probes turn the claim
//     back on: a ping-pong passes with fewer than N/20 sleeps again.
// A ping-pong fails with N / 2 sleeps or more (the old rule's 2 N / 3 on
// an idle machine: a sleep on one side of each item or both) and no
// claim-spin failed: the claim did not count, or the gate kept it off
// without probing. On a loaded machine a worker off its CPU lets the
// other's spins fail, and the gate turns the claim off as it should: such
// a round says nothing, and the ping-pong is run again, up to 8 rounds or
// 3 s, after which it says it is inconclusive. Under 0.3 s quiet.
//
// RUN: %clang -O2 -DH_MIGRATE=CACS_POOL_MIGRATE_UNSTARTED -I%cacs_include \
// RUN:   -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
//
// CHECK: pingpong: {{apart 1, few sleeps 1|inconclusive}}
// CHECK-NEXT: idle: both slept 1, CPU under 5 ms 1
// CHECK-NEXT: late: the claim off 1
// CHECK-NEXT: recovered: {{apart 1, few sleeps 1|inconclusive}}
#include "psync.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <time.h>

size_t cacs__pool_worker_sleeps(unsigned index, uint64_t *cpu_ns);
size_t cacs__pool_worker_claim_fails(unsigned index);

#define N 2000

static cacs_pool_sem ping_sem, pong_sem;
static int where[2];
static size_t sleeps, fails; // in the last ping-pong
static int idle_slept, idle_cpu_ok;
static _Atomic int late;        // the clock jumps at each read
static _Atomic int64_t skew_ns; // how far it has jumped

// The library's calls land here (a static library's undefined reference,
// resolved by the executable first): libc's clock, which CLOCK_MONOTONIC
// reads skew forward by 1 ms more at each read while `late`.
int clock_gettime(clockid_t id, struct timespec *ts) {
  static int (*real)(clockid_t, struct timespec *);
  if (!real)
    real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT,
                                                        "clock_gettime");
  int r = real(id, ts);
  if (r || id != CLOCK_MONOTONIC)
    return r;
  int64_t k = atomic_load(&late) ? atomic_fetch_add(&skew_ns, 1000000) + 1000000
                                 : atomic_load(&skew_ns);
  int64_t ns = ts->tv_nsec + k % 1000000000;
  ts->tv_sec += k / 1000000000 + ns / 1000000000;
  ts->tv_nsec = ns % 1000000000;
  return 0;
}

static size_t all_sleeps(uint64_t *cpu) {
  uint64_t c0 = 0, c1 = 0;
  size_t s =
      cacs__pool_worker_sleeps(0, &c0) + cacs__pool_worker_sleeps(1, &c1);
  if (cpu) {
    cpu[0] = c0;
    cpu[1] = c1;
  }
  return s;
}

static size_t all_fails(void) {
  return cacs__pool_worker_claim_fails(0) + cacs__pool_worker_claim_fails(1);
}

static void pong(void *arg) {
  (void)arg;
  where[1] = h_worker();
  for (int i = 0; i < N; ++i) {
    H_CHECK(cacs_pool_sem_wait(&pong_sem, CACS_POOL_FOREVER) == 0);
    cacs_pool_sem_post(&ping_sem);
  }
  // The idle round: waits while ping sleeps on its timer.
  H_CHECK(cacs_pool_sem_wait(&pong_sem, CACS_POOL_FOREVER) == 0);
}

static void ping(void *arg) {
  (void)arg;
  where[0] = h_worker();
  size_t s0 = all_sleeps(NULL), f0 = all_fails();
  for (int i = 0; i < N; ++i) {
    cacs_pool_sem_post(&pong_sem);
    H_CHECK(cacs_pool_sem_wait(&ping_sem, CACS_POOL_FOREVER) == 0);
  }
  sleeps = all_sleeps(NULL) - s0;
  fails = all_fails() - f0;
  uint64_t c0[2], c1[2];
  size_t i0 = all_sleeps(c0);
  size_t a0 = cacs__pool_worker_sleeps(0, NULL);
  H_CHECK(cacs_pool_sleep(20000) == 0);
  size_t a1 = cacs__pool_worker_sleeps(0, NULL);
  size_t i1 = all_sleeps(c1);
  // Both workers slept: each one's count moved, or it used under 1 ms of
  // CPU in the 20 ms, asleep since before the first look (pong's worker,
  // idle as soon as pong parks, may be asleep before ping is back to look
  // on a loaded machine; its count then stays, and it is still asleep).
  int moved0 = a1 != a0, moved1 = (i1 - a1) != (i0 - a0);
  idle_slept = (moved0 || c1[0] - c0[0] < 1000000) &&
               (moved1 || c1[1] - c0[1] < 1000000);
  idle_cpu_ok = c1[0] - c0[0] < 5000000 && c1[1] - c0[1] < 5000000;
  cacs_pool_sem_post(&pong_sem);
}

// One ping-pong, its two coroutines on the two workers (placed on the
// worker with the fewest coroutines, they go one each, but a worker whose
// last coroutine has just woken its joiner may still count it: then
// again).
static void pingpong(const char *what) {
  for (int r = 0; r < 5; ++r) {
    cacs_pool_sem_init(&ping_sem, 0);
    cacs_pool_sem_init(&pong_sem, 0);
    h_spawn(pong, NULL);
    h_spawn(ping, NULL);
    h_join_all();
    if (getenv("CLAIM_VERBOSE"))
      fprintf(stderr, "%s: apart %d, %zu sleeps, %zu claim-spins failed\n",
              what, where[0] != where[1], sleeps, fails);
    if (where[0] != where[1])
      return;
  }
  printf("%s: apart 0\n", what);
  exit(1);
}

// Ping-pong rounds until one passes (fewer than N/20 sleeps) or fails
// (N/2 sleeps or more, the old rule's mark, with no claim-spin failed:
// the claim did not count, or the gate kept it off without a probe), up
// to 8 rounds or 3 s; prints `what`'s verdict. A round between, or one
// whose claim-spins failed (the gate saw the machine's load: a worker off
// its CPU while the other spun), says nothing.
static void pingpong_rounds(const char *what) {
  int ok = 0, bad = 0;
  time_t t0 = time(NULL);
  for (int r = 0; r < 8 && !ok && !bad && time(NULL) - t0 < 3; ++r) {
    pingpong(what);
    ok = sleeps < N / 20;
    bad = sleeps >= N / 2 && !fails;
  }
  if (ok || bad)
    printf("%s: apart 1, few sleeps %d (%zu)\n", what, ok, sleeps);
  else
    printf("%s: inconclusive, the machine too loaded\n", what);
}

int main(void) {
  h_watchdog(60);
  h_start(2);
  pingpong_rounds("pingpong");
  printf("idle: both slept %d, CPU under 5 ms %d\n", idle_slept, idle_cpu_ok);
  atomic_store(&late, 1);
  pingpong("late");
  atomic_store(&late, 0);
  printf("late: the claim off %d\n", sleeps >= N / 2 && fails);
  pingpong_rounds("recovered");
  h_stop();
  return 0;
}
