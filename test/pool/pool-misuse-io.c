// A wait of cacs/io.h called from a pool coroutine aborts with a message
// naming it, before it parks (cacs__io_wait_begin: a pool worker never has
// a service coroutine, so the refusal is tested where there is none).
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: not --crash %t 2>&1 | FileCheck %s
// CHECK: cacs: a wait of cacs/io.h called from a pool coroutine (cacs/pool.h)
// CHECK-NOT: read returned

#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/pool.h"

#include <stdio.h>
#include <unistd.h>

static int fds[2];

static void body(void *arg) {
  (void)arg;
  char c;
  // Empty pipe: EAGAIN, then the wait.
  ssize_t n = cacs_read(fds[0], &c, 1, CACS_FOREVER);
  printf("read returned %zd\n", n);
}

int main(void) {
  if (pipe(fds) != 0)
    return 2;
  cacs_pool *p = cacs_pool_create(1);
  cacs_pool_join(cacs_pool_spawn(p, body, NULL));
  cacs_pool_destroy(p);
  return 0;
}
