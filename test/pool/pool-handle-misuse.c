// Misuse of a pool's handles is named, as cacs_join names it (issue 36,
// part 3): a handle that may be freed (joined already, never spawned) or a
// pool destroyed already aborts with a message naming the rule instead of
// freeing it twice; misuse of a live handle or object fails with -1 and
// errno: a second joiner while the first waits, a pool destroyed from its
// own coroutine, a mutex unlocked by a non-owner, a channel destroyed
// while a coroutine waits on it. (Arch-neutral C: x86-64 only.)
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: not --crash %t join-twice 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not --crash %t join-twice-coro 2>&1 | FileCheck %s --check-prefix=TWICE-CORO
// RUN: not --crash %t join-stale 2>&1 | FileCheck %s --check-prefix=STALE
// RUN: not --crash %t destroy-twice 2>&1 | FileCheck %s --check-prefix=DESTROY
// RUN: %t checked 2>&1 | FileCheck %s --check-prefix=CHECKED
//
// TWICE: joined once: 0
// TWICE-NEXT: cacs: cacs_pool_join(0x{{[0-9a-f]+}}): not a pool coroutine that can still be joined: it was joined already (every handle of cacs_pool_spawn is joined exactly once, and the join frees it), or it is not a handle cacs_pool_spawn returned
// TWICE-CORO: joined once in a coroutine: 0
// TWICE-CORO-NEXT: cacs: cacs_pool_join(0x{{[0-9a-f]+}}): not a pool coroutine that can still be joined: it was joined already
// STALE: cacs: cacs_pool_join(0x{{[0-9a-f]+}}): not a pool coroutine that can still be joined
// DESTROY: destroyed once: 0
// DESTROY-NEXT: cacs: cacs_pool_destroy(0x{{[0-9a-f]+}}): not a pool that is alive: it was destroyed already, or is being destroyed (a pool is destroyed once, from outside it)
// CHECKED: second joiner: -1 EINVAL
// CHECKED-NEXT: first joiner: 0
// CHECKED-NEXT: destroy from inside: -1 EDEADLK
// CHECKED-NEXT: unlock by a non-owner: -1 EPERM
// CHECKED-NEXT: destroy a channel with a waiter: -1 EBUSY
// CHECKED-NEXT: destroy after: 0
// CHECKED-NEXT: PASS

#define _GNU_SOURCE 1 // strerrorname_np
#include "../runtime/Inputs/check.h"
#include "cacs/pool.h"
#include "cacs/pool_sync.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>


static void report(const char *what, int r, int want) {
  int e = errno;
  printf("%s: %d %s\n", what, r, strerrorname_np(e));
  fflush(stdout);
  EXPECT(r == -1 && e == want);
}

static cacs_pool *pool;
static atomic_int release;

static void nothing(void *arg) { (void)arg; }

// Runs until `release` (or 5 s: a failing test must not hang).
static void until_released(void *arg) {
  (void)arg;
  for (int i = 0; i < 5000 && !atomic_load(&release); ++i)
    cacs_pool_sleep(1000);
}

static void join_twice(void *arg) {
  cacs_pool_task *t = cacs_pool_spawn(pool, nothing, NULL);
  printf("joined once in a coroutine: %d\n", cacs_pool_join(t));
  fflush(stdout);
  cacs_pool_join(t);
  (void)arg;
}

// The second joiner: a thread that joins while main's join waits.
static cacs_pool_task *waited;
static void *second_joiner(void *arg) {
  (void)arg;
  usleep(300000); // main's join has taken the handle by now
  report("second joiner", cacs_pool_join(waited), EINVAL);
  atomic_store(&release, 1);
  return NULL;
}

static void destroy_own(void *arg) {
  report("destroy from inside", cacs_pool_destroy(pool), EDEADLK);
  (void)arg;
}

static cacs_pool_mutex mu;
static void unlock_not_mine(void *arg) {
  report("unlock by a non-owner", cacs_pool_mutex_unlock(&mu), EPERM);
  (void)arg;
}

static cacs_pool_chan *ch;
static atomic_int receiving;
static void receiver(void *arg) {
  int v;
  atomic_store(&receiving, 1);
  EXPECT(cacs_pool_chan_recv(ch, &v, 5000000) == 0 && v == 7);
  (void)arg;
}

static int checked(void) {
  // A second joiner of a live handle: EINVAL, and the first still joins.
  atomic_store(&release, 0);
  waited = cacs_pool_spawn(pool, until_released, NULL);
  pthread_t th;
  pthread_create(&th, NULL, second_joiner, NULL);
  int r = cacs_pool_join(waited);
  pthread_join(th, NULL);
  printf("first joiner: %d\n", r);
  EXPECT(r == 0);

  cacs_pool_join(cacs_pool_spawn(pool, destroy_own, NULL));

  cacs_pool_mutex_init(&mu, 0);
  EXPECT(cacs_pool_mutex_lock(&mu, CACS_POOL_FOREVER) == 0); // main owns it
  cacs_pool_join(cacs_pool_spawn(pool, unlock_not_mine, NULL));
  EXPECT(cacs_pool_mutex_unlock(&mu) == 0);

  ch = cacs_pool_chan_create(sizeof(int), 0);
  cacs_pool_task *rt = cacs_pool_spawn(pool, receiver, NULL);
  while (!atomic_load(&receiving))
    usleep(1000);
  usleep(100000); // it waits in recv now (a late one makes EBUSY fail)
  report("destroy a channel with a waiter", cacs_pool_chan_destroy(ch), EBUSY);
  int v = 7;
  EXPECT(cacs_pool_chan_send(ch, &v, 5000000) == 0);
  EXPECT(cacs_pool_join(rt) == 0);
  EXPECT(cacs_pool_chan_destroy(ch) == 0);

  r = cacs_pool_destroy(pool);
  printf("destroy after: %d\n", r);
  EXPECT(r == 0);
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "checked";
  setvbuf(stdout, NULL, _IONBF, 0);
  pool = cacs_pool_create(2);
  if (!strcmp(what, "join-twice")) {
    cacs_pool_task *t = cacs_pool_spawn(pool, nothing, NULL);
    printf("joined once: %d\n", cacs_pool_join(t));
    cacs_pool_join(t);
  } else if (!strcmp(what, "join-twice-coro")) {
    cacs_pool_join(cacs_pool_spawn(pool, join_twice, NULL));
  } else if (!strcmp(what, "join-stale")) {
    static char not_a_handle[256];
    cacs_pool_join((cacs_pool_task *)not_a_handle);
  } else if (!strcmp(what, "destroy-twice")) {
    printf("destroyed once: %d\n", cacs_pool_destroy(pool));
    cacs_pool_destroy(pool);
  } else {
    return checked();
  }
  printf("not reached\n");
  return 0;
}
