// A pool coroutine that is ready runs, however many coroutines the pool's
// I/O polls keep waking (a pool echo server on one worker left connections
// unanswered for seconds). One worker whose coroutines migrate
// (CACS_POOL_MIGRATE_RUNNING): spawns and wakes go on the worker's deque,
// which it takes newest first, and the coroutines that its poll finds
// ready every 61 coroutines (pool_worker.c's find_work: the epoll poller,
// or the ring's pass) must not go on top of those ready before.
//
// A victim is spawned, then RELAYS relays above it. A relay that runs
// writes a byte to the pipe of the coroutine that ran before it (which
// waits in cacs_read on it) and then reads its own: each run makes the one
// before ready at the next poll, and no other coroutine ever. So each turn
// finds exactly as many ready as ran since the turn before (61; on a ring
// they complete as the turn submits their reads), and a worker that put
// them on top of its deque took those and only those for ever, and never
// reached the victim under them. The victim is a relay that stops after
// ROUNDS runs; then the main thread stops the relays (a flag, and a byte
// in every pipe). Counts only, no clock: the alarm fails a hang, nothing
// else.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 \
// RUN:   -lpthread -o %t
// RUN: %t | FileCheck %s
// CHECK: victim: 100 runs, relays: {{[0-9]+}} runs, errors 0

#include "Inputs/pio-engine.h"
#include "cacs/io.h"
#include "cacs/pool.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

enum { RELAYS = 100, ROUNDS = 100 };

struct relay {
  int rd, wr; // its pipe
  long runs;
};

static struct relay relays[RELAYS + 1]; // the victim first
// The last to run (one worker: no race).
static struct relay *prev;
static _Atomic int stop, errors;
static cacs_pool_task *victim;

static void relay(void *arg) {
  struct relay *s = arg;
  char b;
  while (!atomic_load(&stop)) {
    struct relay *p = prev;
    prev = s;
    if (p && write(p->wr, "x", 1) != 1) // one byte: never blocks
      atomic_fetch_add(&errors, 1);
    if (++s->runs == ROUNDS && s == &relays[0])
      return;
    if (cacs_read(s->rd, &b, 1, CACS_FOREVER) != 1) {
      atomic_fetch_add(&errors, 1);
      return;
    }
  }
}

// The victim first: the top of the deque, under every relay.
static void setup(void *arg) {
  cacs_pool *p = arg;
  victim = cacs_pool_spawn(p, relay, &relays[0]);
  for (int i = 1; i <= RELAYS; ++i)
    cacs_pool_spawn_detached(p, relay, &relays[i]);
}

static void watchdog(int sig) {
  (void)sig;
  static const char m[] = "FAIL: the victim did not finish (watchdog)\n";
  (void)!write(1, m, sizeof m - 1);
  _exit(1);
}

int main(void) {
  signal(SIGALRM, watchdog);
  alarm(60);
  for (int i = 0; i <= RELAYS; ++i) {
    int fd[2];
    if (pipe(fd) != 0)
      return 1;
    relays[i].rd = fd[0];
    relays[i].wr = fd[1];
  }
  cacs_pool_attr attr = {1, 0, CACS_POOL_MIGRATE_RUNNING, 0};
  cacs_pool *p = cacs_pool_create_ex(&attr);
  if (!p)
    return 1;
  pio_check_engine(p);
  cacs_pool_join(cacs_pool_spawn(p, setup, p));
  cacs_pool_join(victim);
  atomic_store(&stop, 1);
  for (int i = 1; i <= RELAYS; ++i) // each wakes, sees `stop`, returns
    if (write(relays[i].wr, "x", 1) != 1)
      atomic_fetch_add(&errors, 1);
  cacs_pool_destroy(p); // waits for every relay
  long n = 0;
  for (int i = 1; i <= RELAYS; ++i)
    n += relays[i].runs;
  printf("victim: %ld runs, relays: %ld runs, errors %d\n", relays[0].runs, n,
         atomic_load(&errors));
  for (int i = 0; i <= RELAYS; ++i) {
    close(relays[i].rd);
    close(relays[i].wr);
  }
  return 0;
}
