// Sync blocks (cacs/syncblock.h) at run time: blocks nest and close on
// break and return; a coroutine created inside one first runs after it; a
// generator of effects run wholly inside one is no switch; and every
// switch inside one aborts naming the innermost block's file and line:
// cacs_yield (also alone on the ring), cacs_sleep, a contended
// cacs_mutex_lock, cacs_exit, a perform to a handler outside the block,
// cacs_pool_yield. A pool spawn inside a block starts after it.
// It switches inside blocks on purpose: -fno-sync-block-check leaves them
// to the run-time check. (syncblock-aarch64.c: the same on AArch64.)
//
// RUN: %clang -O2 -fno-sync-block-check -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t ok 2>&1 | FileCheck %s --check-prefix=OK
// RUN: not --crash %t yield 2>&1 | FileCheck %s --check-prefix=YIELD
// RUN: not --crash %t yield-alone 2>&1 | FileCheck %s --check-prefix=YIELD
// RUN: not --crash %t sleep 2>&1 | FileCheck %s --check-prefix=YIELD
// RUN: not --crash %t mutex 2>&1 | FileCheck %s --check-prefix=YIELD
// RUN: not --crash %t exit 2>&1 | FileCheck %s --check-prefix=EXIT
// RUN: not --crash %t perform 2>&1 | FileCheck %s --check-prefix=PERFORM
// RUN: not --crash %t pool-yield 2>&1 | FileCheck %s --check-prefix=POOL
// RUN: not --crash %t end-unopened 2>&1 | FileCheck %s --check-prefix=UNOPENED
// RUN: %t pool-spawn 2>&1 | FileCheck %s --check-prefix=SPAWN
//
// OK: nested: depth 2, after 0
// OK-NEXT: break: 0, return: 0
// OK-NEXT: order: block-end child
// OK-NEXT: generator in a block: 6
// OK-NEXT: PASS
// YIELD: block at line [[L:[0-9]+]]
// YIELD-NEXT: cacs: a switch to another coroutine (cacs_yield, or a wait of cacs/coro.h or cacs/sync.h) inside the sync block at {{.*}}syncblock.c:[[L]]: no other coroutine may run until the block ends
// EXIT: block at line [[L:[0-9]+]]
// EXIT-NEXT: cacs: cacs_exit inside the sync block at {{.*}}syncblock.c:[[L]]: no other
// PERFORM: block at line [[L:[0-9]+]]
// PERFORM-NEXT: cacs: CACS_PERFORM of an effect handled outside the block inside the sync block at {{.*}}syncblock.c:[[L]]: no other
// POOL: block at line [[L:[0-9]+]]
// POOL-NEXT: cacs: cacs_pool_yield inside the sync block at {{.*}}syncblock.c:[[L]]: no other
// UNOPENED: cacs: cacs_sync_end: no sync block is open on this thread
// SPAWN: in block: started 0
// SPAWN-NEXT: after: started 1
// SPAWN-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/effect.h"
#include "cacs/pool.h"
#include "cacs/sync.h"
#include "cacs/syncblock.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static void at(int line) {
  printf("block at line %d\n", line);
  fflush(stdout);
}

static char order[64];
static void child(void *arg) {
  (void)arg;
  strcat(order, " child");
}

static int returns_inside(void) {
  CACS_SYNC { return cacs_sync_depth(); }
  return -1;
}

CACS_EFFECT(gen, int, int);
static void *three(void *arg) {
  (void)arg;
  for (int i = 1; i <= 3; ++i)
    CACS_PERFORM(gen, i);
  return NULL;
}

static int ok_mode(void) {
  unsigned inner = 0;
  CACS_SYNC {
    CACS_SYNC { inner = cacs_sync_depth(); }
  }
  printf("nested: depth %u, after %u\n", inner, cacs_sync_depth());
  int skipped = 1;
  CACS_SYNC {
    break; // leaves the block (CACS_SYNC is a loop), not an enclosing one
    skipped = 0;
  }
  unsigned after_break = cacs_sync_depth() + !skipped;
  returns_inside();
  printf("break: %u, return: %u\n", after_break, cacs_sync_depth());
  cacs_coro *c;
  CACS_SYNC {
    c = cacs_create(child, NULL, 0);
    strcat(order, "block-end");
  }
  cacs_join(c);
  printf("order: %s\n", order);
  int sum = 0;
  CACS_SYNC {
    cacs_effect_coro *k = cacs_effect_create(three, NULL, 0);
    cacs_effect_request q = cacs_effect_resume(k, CACS_HANDLES(gen), NULL);
    for (; q.effect; q = cacs_effect_resume(k, CACS_HANDLES(gen), NULL))
      sum += *(int *)q.payload;
    cacs_effect_destroy(k);
  }
  printf("generator in a block: %d\n", sum);
  return 0;
}

static void idle(void *arg) { (void)arg; }

static cacs_mutex mu = CACS_MUTEX_INIT;
static void holder(void *arg) {
  (void)arg;
  cacs_mutex_lock(&mu, CACS_FOREVER);
  cacs_yield();
  cacs_mutex_unlock(&mu);
}

static void exits(void *arg) {
  (void)arg;
  CACS_SYNC {
    at(__LINE__ - 1);
    cacs_exit();
  }
}

static void *performs_in_block(void *arg) {
  (void)arg;
  CACS_SYNC {
    at(__LINE__ - 1);
    CACS_PERFORM(gen, 1); // its handler is main, outside the block
  }
  return NULL;
}

static void pool_yields(void *arg) {
  (void)arg;
  CACS_SYNC {
    at(__LINE__ - 1);
    cacs_pool_yield();
  }
}

static atomic_int started;
static void marks(void *arg) {
  (void)arg;
  atomic_store(&started, 1);
}

static void pool_spawns(void *arg) {
  cacs_pool *p = arg;
  cacs_pool_task *t;
  CACS_SYNC {
    t = cacs_pool_spawn(p, marks, NULL);
    // Other workers are idle: they would take it at once if queued.
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL);
    printf("in block: started %d\n", atomic_load(&started));
  }
  cacs_pool_join(t);
  printf("after: started %d\n", atomic_load(&started));
}

int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "ok";
  if (!strcmp(m, "ok")) {
    ok_mode();
    printf("PASS\n");
    return 0;
  } else if (!strcmp(m, "yield")) {
    cacs_coro *c = cacs_create(idle, NULL, 0);
    CACS_SYNC {
      at(__LINE__ - 1);
      cacs_yield();
    }
    cacs_join(c);
  } else if (!strcmp(m, "yield-alone")) {
    CACS_SYNC {
      at(__LINE__ - 1);
      cacs_yield(); // nothing else to run: still a switch point
    }
  } else if (!strcmp(m, "sleep")) {
    CACS_SYNC {
      at(__LINE__ - 1);
      cacs_sleep(1000);
    }
  } else if (!strcmp(m, "mutex")) {
    cacs_coro *c = cacs_create(holder, NULL, 0);
    cacs_yield(); // holder takes the mutex and yields back
    CACS_SYNC {
      at(__LINE__ - 1);
      cacs_mutex_lock(&mu, CACS_FOREVER); // held: must wait
    }
    cacs_join(c);
  } else if (!strcmp(m, "exit")) {
    cacs_coro *c = cacs_create(exits, NULL, 0);
    cacs_join(c);
  } else if (!strcmp(m, "perform")) {
    cacs_effect_coro *k = cacs_effect_create(performs_in_block, NULL, 0);
    cacs_effect_resume(k, CACS_HANDLES(gen), NULL);
  } else if (!strcmp(m, "pool-yield")) {
    cacs_pool *p = cacs_pool_create(1);
    cacs_pool_join(cacs_pool_spawn(p, pool_yields, NULL));
    cacs_pool_destroy(p);
  } else if (!strcmp(m, "end-unopened")) {
    cacs_sync_token t = {0};
    cacs_sync_end(&t);
  } else if (!strcmp(m, "pool-spawn")) {
    cacs_pool *p = cacs_pool_create(2);
    cacs_pool_join(cacs_pool_spawn(p, pool_spawns, p));
    cacs_pool_destroy(p);
    printf("PASS\n");
    return 0;
  }
  printf("not reached\n");
  return 0;
}
