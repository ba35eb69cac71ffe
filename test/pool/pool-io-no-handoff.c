// A pool coroutine parked in a descriptor wait is never resumed by a CES
// hand-off (pool_park_inline.h, `handed`): a hand-off's resumption queues
// the coroutine that handed off (cacs__pool_resumed: the pool's queues and
// a sleeping worker's wake), which below a read on the worker's io_uring
// ring passes the transfer stack budget (cacs/detail/contract.h), and the
// waits may run on exact stacks. Only cacs/pool_sync.h's waiters are
// handed to, so no call of libcacs does this; the test calls the internal
// hand-off on a reader parked in cacs_read (the pool's poller, and its
// worker's ring where io_uring runs) and expects the wait to stop the
// program rather than go on below that frame.
//
// RUN: %clang -O2 -I%cacs_include -I%S/../../runtime/lib/pool %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: not --crash %t 2>&1 | FileCheck %s
// RUN: env CACS_IO_ENGINE=uring not --crash %t 2>&1 | FileCheck %s
//
// Breaking it: without the trap (a hand-off resumes the reader as any
// pool_sync.h waiter), the reader is resumed, the writer's byte ends its
// read, and the program exits 0: `not --crash` fails.
// CHECK: handing off to the reader
// CHECK-NOT: resumed

#include "cacs/io.h"
#include "cacs/pool.h"
#include "pool_park.h"

#include <stdatomic.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

static int sv[2];
static cacs__ptask *_Atomic reader_task;

static void reader(void *arg) {
  (void)arg;
  char c;
  atomic_store(&reader_task, cacs__pool_self());
  // Parks: nothing was written yet, and the writer runs only once this
  // coroutine has switched out (one worker).
  ssize_t n = cacs_read(sv[0], &c, 1, -1);
  printf("reader resumed: %zd\n", n);
}

static void writer(void *arg) {
  (void)arg;
  while (!atomic_load(&reader_task))
    cacs_pool_yield();
  printf("handing off to the reader\n");
  fflush(stdout);
  cacs__pool_handoff(atomic_load(&reader_task));
  printf("writer resumed\n");
  char c = 'x';
  if (cacs_write(sv[1], &c, 1, -1) != 1)
    perror("cacs_write");
}

int main(void) {
  if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
    return 1;
  cacs_pool *p = cacs_pool_create(1);
  cacs_pool_task *r = cacs_pool_spawn(p, reader, NULL);
  cacs_pool_task *w = cacs_pool_spawn(p, writer, NULL);
  cacs_pool_join(r);
  cacs_pool_join(w);
  cacs_pool_destroy(p);
  return 0;
}
