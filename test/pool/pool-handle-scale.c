// The set of joinable pool handles (pool_handles.c) grows with the handles
// alive and shrinks back, so that a join walks a few handles whatever the
// number alive: with 4,096 fixed buckets, a million parked coroutines made
// each join walk 244 of them (25 us a join, bench/stackbound/pool.c). The
// table's shape is what is checked, not time: while 200,000 handles are
// alive it has at least half as many buckets (a stripe past two handles a
// bucket doubles it) and no chain longer than 16 (the most a chain holds
// is a property of the hash: near 2 on average, the longest under 12 for
// any layout of the blocks malloc gives); once they are joined, it is back
// to its first 4,096. Then pool coroutines on two workers spawn and join
// 50,000 each at once, so that the resizes run from coroutines (on the
// worker's stack) while other spawns and joins wait on the stripes.
// (Arch-neutral C: x86-64 only.)
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t | FileCheck %s
//
// Breaking it: never grow the table (cacs__phandle_add's `grow` false):
// 4,096 buckets hold 200,000 handles, chains of about 49.

// CHECK: alive: buckets >= half the handles: yes
// CHECK-NEXT: alive: longest chain <= 16: yes
// CHECK-NEXT: joined: buckets 4096, longest 0
// CHECK-NEXT: from coroutines: joined 200000
// CHECK-NEXT: after: buckets 4096, longest 0
// CHECK-NEXT: PASS

#include "../runtime/Inputs/check.h"
#include "cacs/pool.h"

#include <stdio.h>
#include <stdlib.h>

// libcacs's, for the tests (pool_internal.h).
void cacs__phandle_shape(size_t *buckets, size_t *longest);

enum { N = 200000, SPAWNERS = 4, EACH = N / SPAWNERS };

static cacs_pool *pool;
static cacs_pool_task *handles[N];
static int joined_ok[SPAWNERS];

static void nothing(void *arg) { (void)arg; }

// Spawns its share and joins it (handles' growth and shrinking under
// the other spawner's spawns and joins).
static void spawner(void *arg) {
  int k = (int)(long)arg;
  cacs_pool_task **mine = &handles[k * EACH];
  for (int i = 0; i < EACH; ++i)
    if (!(mine[i] = cacs_pool_spawn(pool, nothing, NULL)))
      return;
  for (int i = 0; i < EACH; ++i)
    joined_ok[k] += cacs_pool_join(mine[i]) == 0;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  pool = cacs_pool_create(2);
  EXPECT(pool != NULL);
  if (!pool)
    return 1;

  for (int i = 0; i < N; ++i) {
    handles[i] = cacs_pool_spawn(pool, nothing, NULL);
    EXPECT(handles[i] != NULL);
  }
  size_t buckets = 0, longest = 0;
  cacs__phandle_shape(&buckets, &longest);
  printf("alive: buckets >= half the handles: %s\n",
         2 * buckets >= N ? "yes" : "no");
  printf("alive: longest chain <= 16: %s\n", longest <= 16 ? "yes" : "no");
  if (2 * buckets < N || longest > 16)
    printf("(buckets %zu, longest %zu)\n", buckets, longest);
  EXPECT(2 * buckets >= N && longest <= 16);
  for (int i = 0; i < N; ++i)
    EXPECT(cacs_pool_join(handles[i]) == 0);
  cacs__phandle_shape(&buckets, &longest);
  printf("joined: buckets %zu, longest %zu\n", buckets, longest);

  cacs_pool_task *sp[SPAWNERS];
  for (long k = 0; k < SPAWNERS; ++k)
    sp[k] = cacs_pool_spawn(pool, spawner, (void *)k);
  int total = 0;
  for (int k = 0; k < SPAWNERS; ++k) {
    EXPECT(cacs_pool_join(sp[k]) == 0);
    total += joined_ok[k];
  }
  printf("from coroutines: joined %d\n", total);
  cacs__phandle_shape(&buckets, &longest);
  printf("after: buckets %zu, longest %zu\n", buckets, longest);
  EXPECT(cacs_pool_destroy(pool) == 0);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}
