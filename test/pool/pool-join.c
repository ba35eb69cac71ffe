// cacs_pool_join from a plain thread, from a pool coroutine (of the same
// pool and of another pool), of a coroutine that has finished already and
// of one still running; its errors (EDEADLK for itself, EINVAL for NULL).
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t | FileCheck %s
// CHECK: thread: 0 value=1
// CHECK-NEXT: coro: 0 value=2
// CHECK-NEXT: finished first: 0 value=3
// CHECK-NEXT: other pool: 0 value=4
// CHECK-NEXT: self: -1 EDEADLK
// CHECK-NEXT: null: -1 EINVAL
// CHECK-NEXT: destroy: 0 0

#include "cacs/pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>

static cacs_pool *p, *q;
static int value;

static void set_late(void *arg) {
  cacs_pool_sleep(20000);
  value = (int)(long)arg;
}
static void set_now(void *arg) { value = (int)(long)arg; }

static void *joiner_thread(void *arg) {
  cacs_pool_task *t = arg;
  long r = cacs_pool_join(t);
  return (void *)r;
}

static void coro_joins(void *arg) {
  (void)arg;
  int r = cacs_pool_join(cacs_pool_spawn(p, set_late, (void *)2L));
  printf("coro: %d value=%d\n", r, value);
  cacs_pool_task *t = cacs_pool_spawn(p, set_now, (void *)3L);
  cacs_pool_sleep(20000); // it has finished by then
  r = cacs_pool_join(t);
  printf("finished first: %d value=%d\n", r, value);
  r = cacs_pool_join(cacs_pool_spawn(q, set_late, (void *)4L));
  printf("other pool: %d value=%d\n", r, value);
  r = cacs_pool_join(cacs_pool_current());
  printf("self: %d %s\n", r, errno == EDEADLK ? "EDEADLK" : "?");
}

int main(void) {
  p = cacs_pool_create(2);
  q = cacs_pool_create(1);
  pthread_t th;
  pthread_create(&th, NULL, joiner_thread,
                 cacs_pool_spawn(p, set_late, (void *)1L));
  void *r;
  pthread_join(th, &r);
  printf("thread: %ld value=%d\n", (long)r, value);
  cacs_pool_join(cacs_pool_spawn(p, coro_joins, NULL));
  int n = cacs_pool_join(NULL);
  printf("null: %d %s\n", n, errno == EINVAL ? "EINVAL" : "?");
  int a = cacs_pool_destroy(p), b = cacs_pool_destroy(q);
  printf("destroy: %d %d\n", a, b);
  return 0;
}
