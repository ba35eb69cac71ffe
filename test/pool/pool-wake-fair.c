// A pool coroutine that is ready runs, however often the coroutines
// running on its worker wake one another (the cousin of pool-io-fair.c,
// whose wakes come from the I/O poll): wakes made by a running coroutine,
// a channel's or a timer's, go where the worker looks first (its deque's
// bottom; in a default pool, a started coroutine's own woken queue), so a
// pair that keeps waking each other keeps that place full for ever. What
// waits elsewhere must still get the turn that pool_worker.c's find_work
// gives every 61 coroutines: the oldest of the deque, and the shared queue.
//
// One worker. A pair ping-pongs: "chan", over two rendezvous channels
// (each send wakes the other side, which the loop runs next); "timer",
// by short sleeps, each side spinning on the clock until the other's
// sleep is due, so that the loop's timer check finds the other expired
// at every turn, and no turn finds the deque to itself. A victim is
// ready meanwhile: "deque", spawned by a pool coroutine before the pair
// (under it, at the deque's top); "shared", spawned from the main thread
// once the pair runs (on the shared queue). Pool "migrate"
// (CACS_POOL_MIGRATE_RUNNING: the wakes go on the deque) or "pinned"
// (the default: they go on the worker's woken queue, read before its
// deque and, in the turn, before the shared queue). The pair stops once
// the victim has run, or after ROUNDS rounds: a victim that only ran
// once the pair had stopped was starved. Counts only: the clock decides
// only which timers have expired, never the verdict.
//
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t chan migrate deque | FileCheck %s
// RUN: %t chan migrate shared | FileCheck %s
// RUN: %t chan pinned deque | FileCheck %s
// RUN: %t chan pinned shared | FileCheck %s
// RUN: %t timer migrate deque | FileCheck %s
// RUN: %t timer migrate shared | FileCheck %s
// RUN: %t timer pinned deque | FileCheck %s
// RUN: %t timer pinned shared | FileCheck %s
// CHECK: victim ran while the pair ran ({{[0-9]+}} rounds after it was ready), errors 0

#include "Inputs/ptest.h"
#include "cacs/pool.h"
#include "cacs/pool_sync.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { ROUNDS = 100000, SPIN_NS = 3000 };

static int timer_mode, shared_mode;
static cacs_pool_chan *ping, *pong;
static _Atomic long rounds;     // the pair's, counted by `left`
static _Atomic long ready_at;   // `rounds` once the victim was ready; -1 before
static _Atomic long ran_at = -1; // `rounds` when the victim ran
static _Atomic int errors;
static cacs_pool_task *victim;

static void victim_main(void *arg) {
  (void)arg;
  atomic_store(&ran_at, atomic_load(&rounds));
}

// Whether the pair goes on: the victim has not run, and the ready victim
// has waited less than ROUNDS rounds.
static int go_on(void) {
  long r = atomic_load(&ready_at);
  return atomic_load(&ran_at) < 0 &&
         (r < 0 || atomic_load(&rounds) - r < ROUNDS);
}

// Timer mode: this side started after the other parked with a sleep of
// 1 us; 3 us of this side's run later, the other's deadline has passed,
// and the loop's timer check, right after this side parks, wakes it.
static void timer_turn(void) {
  uint64_t t0 = h_now_ns();
  while (h_now_ns() - t0 < SPIN_NS)
    ;
  if (cacs_pool_sleep(1) != 0)
    atomic_fetch_add(&errors, 1);
}

static void left(void *arg) {
  (void)arg;
  int v = 0;
  while (go_on()) {
    atomic_fetch_add(&rounds, 1);
    if (timer_mode) {
      timer_turn();
      continue;
    }
    if (cacs_pool_chan_send(ping, &v, CACS_POOL_FOREVER) != 0 ||
        cacs_pool_chan_recv(pong, &v, CACS_POOL_FOREVER) != 0)
      atomic_fetch_add(&errors, 1);
  }
  if (!timer_mode && cacs_pool_chan_close(ping) != 0) // `right` gets EPIPE
    atomic_fetch_add(&errors, 1);
}

static void right(void *arg) {
  (void)arg;
  int v;
  if (timer_mode) {
    while (go_on())
      timer_turn();
    return;
  }
  while (cacs_pool_chan_recv(ping, &v, CACS_POOL_FOREVER) == 0)
    if (cacs_pool_chan_send(pong, &v, CACS_POOL_FOREVER) != 0)
      atomic_fetch_add(&errors, 1);
  if (errno != EPIPE)
    atomic_fetch_add(&errors, 1);
}

// Deque mode: the victim first, then the pair above it.
static void setup(void *arg) {
  cacs_pool *p = arg;
  if (!shared_mode) {
    victim = cacs_pool_spawn(p, victim_main, NULL);
    atomic_store(&ready_at, 0);
  }
  if (cacs_pool_spawn_detached(p, left, NULL) != 0 ||
      cacs_pool_spawn_detached(p, right, NULL) != 0)
    atomic_fetch_add(&errors, 1);
}

static void watchdog(int sig) {
  (void)sig;
  static const char m[] = "FAIL: hang (watchdog)\n";
  (void)!write(1, m, sizeof m - 1);
  _exit(1);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s chan|timer migrate|pinned deque|shared\n",
            argv[0]);
    return 2;
  }
  timer_mode = strcmp(argv[1], "timer") == 0;
  int migrate = strcmp(argv[2], "migrate") == 0;
  shared_mode = strcmp(argv[3], "shared") == 0;
  signal(SIGALRM, watchdog);
  alarm(120);
  atomic_store(&ready_at, -1);
  ping = cacs_pool_chan_create(sizeof(int), 0);
  pong = cacs_pool_chan_create(sizeof(int), 0);
  cacs_pool_attr attr = {1, 0,
                         migrate ? CACS_POOL_MIGRATE_RUNNING
                                 : CACS_POOL_MIGRATE_UNSTARTED,
                         0};
  cacs_pool *p = cacs_pool_create_ex(&attr);
  if (!p || !ping || !pong)
    return 1;
  cacs_pool_join(cacs_pool_spawn(p, setup, p));
  if (shared_mode) {
    // From outside the pool: on the shared queue, once the pair runs.
    while (atomic_load(&rounds) < 10)
      sched_yield();
    atomic_store(&ready_at, atomic_load(&rounds));
    victim = cacs_pool_spawn(p, victim_main, NULL);
  }
  if (!victim)
    return 1;
  cacs_pool_join(victim);
  cacs_pool_destroy(p); // waits for the pair
  long r = atomic_load(&ready_at), ran = atomic_load(&ran_at);
  int starved = r < 0 || ran - r >= ROUNDS;
  if (starved)
    printf("FAIL: victim starved: it ran %ld rounds after it was ready, "
           "once the pair had stopped\n",
           ran - r);
  else
    printf("victim ran while the pair ran (%ld rounds after it was ready), "
           "errors %d\n",
           ran - r, atomic_load(&errors));
  cacs_pool_chan_destroy(ping);
  cacs_pool_chan_destroy(pong);
  return starved || atomic_load(&errors);
}
