// The single-thread scheduler's waits called from a pool coroutine abort
// with a message naming the call (they would block the worker or need
// coroutines of the worker thread); cacs_yield returns at once.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: not --crash %t park 2>&1 | FileCheck %s --check-prefix=PARK
// RUN: not --crash %t sleep 2>&1 | FileCheck %s --check-prefix=SLEEP
// RUN: not --crash %t create 2>&1 | FileCheck %s --check-prefix=CREATE
// RUN: not --crash %t mutex 2>&1 | FileCheck %s --check-prefix=MUTEX
// RUN: %t yield 2>&1 | FileCheck %s --check-prefix=YIELD
// PARK: cacs: cacs_park called from a pool coroutine (cacs/pool.h)
// SLEEP: cacs: cacs_sleep called from a pool coroutine (cacs/pool.h)
// CREATE: cacs: cacs_create called from a pool coroutine (cacs/pool.h)
// MUTEX: cacs: cacs_park_timeout (or a wait of cacs/sync.h) called from a pool coroutine
// YIELD: yield returned

#include "cacs/coro.h"
#include "cacs/pool.h"
#include "cacs/sync.h"

#include <stdio.h>
#include <string.h>

static cacs_mutex m;

static void nothing(void *arg) { (void)arg; }

static void body(void *arg) {
  const char *what = arg;
  if (!strcmp(what, "park"))
    cacs_park();
  else if (!strcmp(what, "sleep"))
    cacs_sleep(1000);
  else if (!strcmp(what, "create"))
    cacs_create(nothing, NULL, 0);
  else if (!strcmp(what, "mutex")) {
    cacs_mutex_lock(&m, CACS_FOREVER); // held: this one waits
  } else if (!strcmp(what, "yield")) {
    cacs_yield();
    printf("yield returned\n");
  }
}

int main(int argc, char **argv) {
  (void)argc;
  cacs_mutex_init(&m);
  if (!strcmp(argv[1], "mutex"))
    cacs_mutex_lock(&m, CACS_FOREVER);
  cacs_pool *p = cacs_pool_create(1);
  cacs_pool_join(cacs_pool_spawn(p, body, argv[1]));
  cacs_pool_destroy(p);
  return 0;
}
