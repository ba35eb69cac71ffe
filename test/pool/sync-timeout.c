// Pool sync timeouts: every wait with a timeout fails with ETIMEDOUT (errno)
// no earlier than its deadline when nothing serves it, at once for 0, from
// a pool task and from a plain thread; a condition wait that times out
// returns owning its mutex; a timed waiter served before its deadline gets
// the resource.
//
// On the pool, x86-64: cacs -O2 with -fcoroutine-migration (the test reads
// errno after waits that may migrate), stock clang -O0.
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: %stock_clang -O0 -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t0
// RUN: %t0 2>&1 | FileCheck %s
//
// CHECK: task: mutex sem chan wg rdlock wrlock cond zero served
// CHECK-NEXT: plain: mutex sem chan wg rdlock wrlock cond zero served
// CHECK-NEXT: done
#include "psync.h"

enum { T_US = 20000 };

static cacs_pool_mutex mu = CACS_POOL_MUTEX_INIT, mu2 = CACS_POOL_MUTEX_INIT;
static cacs_pool_rwlock rw = CACS_POOL_RWLOCK_INIT;
static cacs_pool_cond cv = CACS_POOL_COND_INIT;
static cacs_pool_sem sem = CACS_POOL_SEM_INIT(0);
static cacs_pool_waitgroup wg = CACS_POOL_WAITGROUP_INIT;
static cacs_pool_chan *ch;
static cacs_pool_sem holding = CACS_POOL_SEM_INIT(0),
                     release = CACS_POOL_SEM_INIT(0);

// Fails with ETIMEDOUT after at least T_US.
#define TIMES_OUT(name, call)                                                  \
  do {                                                                         \
    uint64_t t0_ = h_now_ns();                                                 \
    errno = 0;                                                                 \
    H_CHECK((call) == -1 && errno == ETIMEDOUT);                               \
    H_CHECK(h_now_ns() - t0_ >= (uint64_t)T_US * 1000);                        \
    printf(" %s", name);                                                       \
  } while (0)

// Holds mu and the read side of rw until told to let go.
static void holder(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_mutex_lock(&mu, -1) == 0);
  H_CHECK(cacs_pool_rwlock_rdlock(&rw, -1) == 0);
  cacs_pool_sem_post(&holding);
  H_CHECK(cacs_pool_sem_wait(&release, -1) == 0);
  H_CHECK(cacs_pool_rwlock_rdunlock(&rw) == 0);
  H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
}

static void server(void *arg) {
  (void)arg;
  uint64_t t0 = h_now_ns();
  while (h_now_ns() - t0 < 2000000) // 2 ms, well before the deadline
    h_yield();
  cacs_pool_sem_post(&sem);
}

static void checks(void *arg) {
  const char *who = arg;
  printf("%s:", who);
  h_spawn(holder, NULL);
  H_CHECK(cacs_pool_sem_wait(&holding, -1) == 0);
  TIMES_OUT("mutex", cacs_pool_mutex_lock(&mu, T_US));
  TIMES_OUT("sem", cacs_pool_sem_wait(&sem, T_US));
  char c;
  TIMES_OUT("chan", cacs_pool_chan_recv(ch, &c, T_US));
  cacs_pool_waitgroup_add(&wg, 1);
  TIMES_OUT("wg", cacs_pool_waitgroup_wait(&wg, T_US));
  cacs_pool_waitgroup_done(&wg);
  H_CHECK(cacs_pool_rwlock_wrlock(&rw, 0) == -1 && errno == ETIMEDOUT);
  // A writer that gave up must not keep readers out: the holder reads.
  TIMES_OUT("rdlock", (cacs_pool_rwlock_wrlock(&rw, T_US) == -1 &&
                       cacs_pool_rwlock_tryrdlock(&rw) == 0 &&
                       cacs_pool_rwlock_rdunlock(&rw) == 0)
                          ? (errno = ETIMEDOUT, -1)
                          : 0);
  TIMES_OUT("wrlock", cacs_pool_rwlock_wrlock(&rw, T_US));
  H_CHECK(cacs_pool_mutex_lock(&mu2, -1) == 0);
  TIMES_OUT("cond", cacs_pool_cond_wait(&cv, &mu2, T_US));
  H_CHECK(cacs_pool_mutex_trylock(&mu2) == -1 && errno == EBUSY);
  H_CHECK(cacs_pool_mutex_unlock(&mu2) == 0); // we own it again
  H_CHECK(cacs_pool_mutex_lock(&mu, 0) == -1 && errno == ETIMEDOUT);
  H_CHECK(cacs_pool_sem_wait(&sem, 0) == -1 && errno == ETIMEDOUT);
  printf(" zero");
  h_spawn(server, NULL);
  H_CHECK(cacs_pool_sem_wait(&sem, 10 * 1000 * 1000) == 0);
  printf(" served\n");
  cacs_pool_sem_post(&release);
}

int main(void) {
  ch = cacs_pool_chan_create(1, 1);
  H_CHECK(ch);
  h_start(2);
  h_spawn(checks, "task");
  h_join_all();
  h_plain(checks, "plain");
  h_join_all();
  h_stop();
  H_CHECK(cacs_pool_chan_destroy(ch) == 0);
  printf("done\n");
  return 0;
}
