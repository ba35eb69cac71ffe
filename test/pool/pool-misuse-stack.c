// A misuse that a wait reports from a pool coroutine aborts within the
// call's stack budget (cacs/detail/contract.h): the call carries the
// budget, so a bounded entry that makes it may run on an exact stack with
// no guard, and the abort's message must not overflow it. libcacs formats
// and writes the message, and aborts, on the worker's own stack (fatal.c).
// Each run makes one such call in a pool coroutine, with the 16 KiB below
// its stack pointer filled; a SIGABRT handler, on the worker's alternate
// signal stack, finds the lowest byte the call wrote and says whether it
// lies within the budget (then exits). The calls: the single-thread waits
// that refuse a pool coroutine (cacs_sleep, cacs_park, cacs_join, a
// contended cacs_mutex_lock), a pool wait inside a sync block (the
// deepest: the check is at the switch) and a cacs_pool_join of a handle
// joined already. x86-64, and AArch64 under qemu.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -Wl,-z,now -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: %t/p sleep 2>&1 | FileCheck %s --check-prefix=SLEEP
// RUN: %t/p park 2>&1 | FileCheck %s --check-prefix=PARK
// RUN: %t/p join 2>&1 | FileCheck %s --check-prefix=JOIN
// RUN: %t/p mutex 2>&1 | FileCheck %s --check-prefix=MUTEX
// RUN: %t/p sync 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: %t/p pool_join 2>&1 | FileCheck %s --check-prefix=POOLJOIN
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O2 -Wl,-z,now -I%cacs_include %s %cacs_rt_aarch64 -lpthread -o %t/a64 && \
// RUN:   %run_aarch64 %t/a64 sleep 2>&1 | FileCheck %s --check-prefix=SLEEP && \
// RUN:   %run_aarch64 %t/a64 sync 2>&1 | FileCheck %s --check-prefix=SYNC && \
// RUN:   %run_aarch64 %t/a64 pool_join 2>&1 | FileCheck %s --check-prefix=POOLJOIN %}
//
// Breaking it: with the message formatted on the caller's stack (fatal.c
// before this test) each call used 2,552 to 2,856 bytes of its 1,024 on
// x86-64, 2,736 to 3,056 on AArch64; now 336 to 640 and 224 to 544.

// SLEEP: cacs: cacs_sleep called from a pool coroutine
// SLEEP-NEXT: abort: used {{[0-9]+}}, budget {{[0-9]+}}
// SLEEP-NEXT: abort: within the budget
// PARK: cacs: cacs_park called from a pool coroutine
// PARK-NEXT: abort: used {{[0-9]+}}, budget {{[0-9]+}}
// PARK-NEXT: abort: within the budget
// JOIN: cacs: cacs_join called from a pool coroutine
// JOIN-NEXT: abort: used {{[0-9]+}}, budget {{[0-9]+}}
// JOIN-NEXT: abort: within the budget
// MUTEX: cacs: cacs_park_timeout (or a wait of cacs/sync.h) called from a pool coroutine
// MUTEX-NEXT: abort: used {{[0-9]+}}, budget {{[0-9]+}}
// MUTEX-NEXT: abort: within the budget
// SYNC: cacs: cacs_pool_yield inside the sync block at {{.*}}pool-misuse-stack.c:{{[0-9]+}}
// SYNC-NEXT: abort: used {{[0-9]+}}, budget {{[0-9]+}}
// SYNC-NEXT: abort: within the budget
// POOLJOIN: joined once: 0
// POOLJOIN-NEXT: cacs: cacs_pool_join(0x{{[0-9a-f]+}}): not a pool coroutine that can still be joined
// POOLJOIN-NEXT: abort: used {{[0-9]+}}, budget {{[0-9]+}}
// POOLJOIN-NEXT: abort: within the budget

#include "cacs/coro.h"
#include "cacs/pool.h"
#include "cacs/sync.h"
#include "cacs/syncblock.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../runtime/Inputs/stack-budget.h"

#define FILL_VALUE 0xa5

static cacs_mutex m;
static cacs_pool *pool;
static volatile char *volatile at; // the caller's stack pointer at the call
static size_t budget;               // the call's

static void on_abort(int sig) {
  (void)sig;
  volatile char *low = at - FILL + 256;
  while (low < at && *low == (char)FILL_VALUE)
    ++low;
  report("abort", (size_t)(at - low), budget);
  fflush(stdout);
  _exit(budget_bad);
}

static void nothing(void *arg) { (void)arg; }

__attribute__((noinline)) static void misuse(int which,
                                             cacs_pool_task *joined) {
  fill(FILL_VALUE);
  READ_SP(at);
  switch (which) {
  case 0:
    cacs_sleep(1000);
    break;
  case 1:
    cacs_park();
    break;
  case 2:
    cacs_join(NULL);
    break;
  case 3:
    cacs_mutex_lock(&m, CACS_FOREVER); // main holds it: this one waits
    break;
  case 4: {
    cacs_sync_token tok = cacs_sync_begin(__FILE__, __LINE__);
    cacs_pool_yield(); // a switch inside the block
    cacs_sync_end(&tok);
    break;
  }
  default:
    cacs_pool_join(joined);
  }
}

static void body(void *arg) {
  const char *what = arg;
  cacs_pool_task *t = NULL;
  if (!strcmp(what, "pool_join")) {
    t = cacs_pool_spawn(pool, nothing, NULL);
    printf("joined once: %d\n", cacs_pool_join(t));
    fflush(stdout);
  }
  static const char *const calls[] = {"sleep", "park", "join", "mutex",
                                       "sync"};
  int which = 0;
  while (which < 5 && strcmp(what, calls[which]))
    ++which;
  // The single-thread waits (cacs/coro.h's, cacs/sync.h's) carry the park
  // budget, the pool's calls the pool's (cacs/detail/contract.h).
  budget = which < 4 ? CACS_CONTRACT_PARK_STACK_BUDGET
                     : CACS_CONTRACT_POOL_WAIT_STACK_BUDGET;
  misuse(which, t);
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_abort;
  sa.sa_flags = SA_ONSTACK; // the worker's alternate stack (libcacs's)
  sigemptyset(&sa.sa_mask);
  sigaction(SIGABRT, &sa, NULL);
  setvbuf(stderr, NULL, _IONBF, 0);
  cacs_mutex_init(&m);
  if (!strcmp(argv[1], "mutex"))
    cacs_mutex_lock(&m, CACS_FOREVER);
  pool = cacs_pool_create(1);
  cacs_pool_join(cacs_pool_spawn(pool, body, argv[1]));
  puts("no abort");
  return 1;
}
