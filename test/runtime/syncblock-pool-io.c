// A pool coroutine's I/O (cacs/io.h) inside a sync block blocks its worker
// in poll(2), as a thread's coroutine's does (syncblock-io.c), instead of
// parking (which would abort there): the read times out, then gets the
// data another thread writes; the pool's other coroutine, queued on the
// one worker, runs only after the blocks. Outside a block the same read
// parks and lets it run.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
//
// CHECK: block, timeout: -1 ETIMEDOUT, other ran 0
// CHECK-NEXT: block, data: 5 hello, write 5, other ran 0
// CHECK-NEXT: outside, data: 5 world, other ran 1
// CHECK-NEXT: PASS

#include "cacs/io.h"
#include "cacs/pool.h"
#include "cacs/syncblock.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int p[2], q[2];
static atomic_int other_ran;

static void other(void *arg) {
  (void)arg;
  atomic_store(&other_ran, 1);
}

static void *writer(void *arg) {
  struct timespec ts = {0, 30 * 1000 * 1000};
  nanosleep(&ts, NULL);
  if (write(p[1], arg, 5) != 5)
    perror("write");
  return NULL;
}

static void reader(void *arg) {
  cacs_pool *pool = arg;
  char buf[8] = {0};
  pthread_t t;
  cacs_pool_task *o = cacs_pool_spawn(pool, other, NULL);
  ssize_t n = 0, w = 0;
  int e = 0;
  CACS_SYNC {
    n = cacs_read(p[0], buf, 5, 20 * 1000);
    e = errno;
  }
  printf("block, timeout: %zd %s, other ran %d\n", n,
         e == ETIMEDOUT ? "ETIMEDOUT" : strerror(e), atomic_load(&other_ran));

  pthread_create(&t, NULL, writer, "hello");
  CACS_SYNC {
    n = cacs_read(p[0], buf, 5, CACS_FOREVER);
    w = cacs_write(q[1], buf, 5, CACS_FOREVER);
  }
  pthread_join(t, NULL);
  printf("block, data: %zd %s, write %zd, other ran %d\n", n, buf, w,
         atomic_load(&other_ran));

  pthread_create(&t, NULL, writer, "world");
  n = cacs_read(p[0], buf, 5, CACS_FOREVER);
  pthread_join(t, NULL);
  printf("outside, data: %zd %s, other ran %d\n", n, buf,
         atomic_load(&other_ran));
  cacs_pool_join(o);
}

int main(void) {
  if (pipe(p) || pipe(q))
    return 1;
  cacs_pool *pool = cacs_pool_create(1);
  cacs_pool_join(cacs_pool_spawn(pool, reader, pool));
  cacs_pool_destroy(pool);
  printf("PASS\n");
  return 0;
}
