// Instructions of cacs_pool_spawn from outside the pool (main), per spawn:
// N trivial coroutines spawned on a 2-worker pool, then joined.
#include "cacs/pool.h"
#include <stdio.h>
#include <stdlib.h>
enum { N = 20000 };
static void nop(void *a) { (void)a; }
int main(int argc, char **argv) {
  cacs_pool_attr a = {2, 0, argc > 1 ? CACS_POOL_MIGRATE_RUNNING : CACS_POOL_MIGRATE_UNSTARTED, 0};
  cacs_pool *p = cacs_pool_create_ex(&a);
  static cacs_pool_task *t[N];
  for (int i = 0; i < N; ++i) t[i] = cacs_pool_spawn(p, nop, NULL);
  for (int i = 0; i < N; ++i) cacs_pool_join(t[i]);
  cacs_pool_destroy(p);
  puts("ok");
}
