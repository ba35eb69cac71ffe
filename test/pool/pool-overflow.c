// A stack overflow in a pool coroutine is reported with the coroutine's
// name on whichever worker it runs. A pool coroutine's stack is allocated,
// and registered for the SIGSEGV handler, by the worker that first runs it;
// here the coroutine first migrates to the other worker (it yields until
// it runs elsewhere), then recurses into its guard page. Without a
// process-wide look-up the handler on the second worker does not know the
// stack: a plain SIGSEGV, no report.
//
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: ulimit -c 0; not --crash %t migrated 2>&1 | FileCheck %s
// RUN: ulimit -c 0; not --crash %t home 2>&1 | FileCheck %s --check-prefix=HOME
// RUN: ulimit -c 0; env CACS_STACK_GUARD=mprotect not --crash %t migrated 2>&1 | FileCheck %s
//
// CHECK: migrated: yes
// CHECK-NEXT: cacs: stack overflow in coroutine 'pool coroutine' (id {{[0-9]+}}): fault at 0x{{[0-9a-f]+}}, guard page 0x{{[0-9a-f]+}}-0x{{[0-9a-f]+}}, stack size {{[0-9]+}}
// CHECK-NOT: survived
// HOME: overflowing where allocated
// HOME-NEXT: cacs: stack overflow in coroutine 'pool coroutine' (id {{[0-9]+}})

#include "cacs/pool.h"

#include <stdio.h>
#include <string.h>

__attribute__((noinline)) static int recurse(volatile char *prev, int n) {
  volatile char buf[256];
  buf[0] = (char)n;
  buf[255] = prev ? prev[0] : 0;
  return recurse(buf, n + 1) + buf[255]; // no tail call: grows forever
}

static int migrate;

static void body(void *arg) {
  (void)arg;
  if (migrate) {
    int home = cacs_pool_worker_index();
    for (int i = 0; i < 1000000 && cacs_pool_worker_index() == home; ++i)
      cacs_pool_yield();
    printf("migrated: %s\n", cacs_pool_worker_index() != home ? "yes" : "no");
  } else {
    printf("overflowing where allocated\n");
  }
  fflush(stdout);
  recurse(NULL, 0);
  printf("survived\n");
}

int main(int argc, char **argv) {
  migrate = argc > 1 && !strcmp(argv[1], "migrated");
  // Its running coroutines must move: it opts in.
  cacs_pool_attr attr = {2, 0, CACS_POOL_MIGRATE_RUNNING};
  cacs_pool *p = cacs_pool_create_ex(&attr);
  cacs_pool_join(cacs_pool_spawn(p, body, NULL));
  cacs_pool_destroy(p);
  return 0;
}
