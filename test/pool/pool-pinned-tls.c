// The default pool (cacs_pool_create) is safe for code built without
// -fcoroutine-migration: a coroutine that has started resumes on its home
// worker after every wait, so an &errno or &tls that stock clang -O2 keeps
// across the wait is still the running thread's. A tester and a partner
// homed on different workers (the tester spins until the partner has
// started: a worker runs one coroutine at a time) take rounds of waits the
// partner ends from the other worker: cacs_pool_yield, cacs_pool_sleep, a
// channel receive, a semaphore wait, a contended mutex lock, a condition
// wait, and a read of an empty pipe (the pool's poller). After each wait
// the tester compares the addresses it computed before the wait with the
// thread's own, and its worker index with the one before.
//
// The same program with CACS_POOL_MIGRATE_RUNNING (-DMIGRATE_RUNNING) shows
// moves and stale addresses: what the default prevents (and what makes
// this test able to fail).
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stock_clang -O2 -I%cacs_include -I%S/Inputs %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/pinned
// RUN: %t/pinned 200 | FileCheck %s
// RUN: %stock_clang -O2 -fPIC -I%cacs_include -I%S/Inputs %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/pic
// RUN: %t/pic 200 | FileCheck %s
// RUN: %stock_clang -O2 -DMIGRATE_RUNNING -I%cacs_include -I%S/Inputs %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t/running
// RUN: %t/running 200 | FileCheck %s --check-prefix=RUNNING
//
// CHECK: homes differ: yes
// CHECK-NEXT: yield: waits=200 moved=0 stale=0
// CHECK-NEXT: sleep: waits=200 moved=0 stale=0
// CHECK-NEXT: chan: waits=200 moved=0 stale=0
// CHECK-NEXT: sem: waits=200 moved=0 stale=0
// CHECK-NEXT: mutex: waits=200 moved=0 stale=0
// CHECK-NEXT: cond: waits={{[1-9][0-9]*}} moved=0 stale=0
// CHECK-NEXT: io: waits=200 moved=0 stale=0
// CHECK-NEXT: total: moved=0 stale=0
// RUNNING: homes differ: yes
// RUNNING: total: moved={{[1-9][0-9]*}} stale={{[1-9][0-9]*}}

#define _GNU_SOURCE 1 // pipe2
#include "cacs/io.h"
#include "cacs/pool.h"
#include "cacs/pool_sync.h"
#include "pool-tls-fresh.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define LOAD(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define STORE(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)

enum { K_YIELD, K_SLEEP, K_CHAN, K_SEM, K_MUTEX, K_COND, K_IO, NKINDS };
static const char *const kind_name[NKINDS] = {"yield", "sleep", "chan", "sem",
                                              "mutex", "cond",  "io"};
static struct { int waits, moved, stale; } cell[NKINDS];

static int rounds;
static int tester_w = -1, partner_w = -1;
static cacs_pool_chan *ch;
static cacs_pool_sem sem;
static cacs_pool_mutex mu;
static cacs_pool_cond cv;
static int flag;                   // under mu
static int round_go, round_locked; // partner <-> tester steps
static int pipefd[2];

static long long now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

// After a wait: `e`, `t` and `v` were computed right after it, with no
// call in between, from what the tester used before it.
__attribute__((noinline)) static void check(int k, int w0, int *e, int *t,
                                            int v) {
  int now = cacs_pool_worker_index();
  cell[k].waits++;
  cell[k].moved += now != w0;
  cell[k].stale += e != fresh_errno();
  cell[k].stale += t != fresh_tls();
  cell[k].stale += v != 100 + now;
}

#define PROBE(k, CALL)                                                         \
  do {                                                                         \
    int w0 = cacs_pool_worker_index();                                         \
    errno = 0;                                                                 \
    tls = 100 + w0;                                                            \
    CALL;                                                                      \
    int *e = &errno, *t = &tls, v = tls;                                       \
    check(k, w0, e, t, v);                                                     \
  } while (0)

static void die(const char *what) {
  printf("error: %s\n", what);
  fflush(stdout);
  _exit(1);
}

static void partner(void *arg) {
  (void)arg;
  STORE(&partner_w, cacs_pool_worker_index());
  for (int r = 1; r <= rounds; ++r) {
    while (LOAD(&round_go) < r)
      cacs_pool_sleep(20);
    if (cacs_pool_chan_send(ch, &r, -1) != 0)
      die("send");
    cacs_pool_sleep(30);
    cacs_pool_sem_post(&sem);
    // The tester's lock: held here until it has had time to park on it.
    cacs_pool_mutex_lock(&mu, -1);
    STORE(&round_locked, r);
    cacs_pool_sleep(50);
    cacs_pool_mutex_unlock(&mu);
    // The tester's condition wait.
    cacs_pool_sleep(50);
    cacs_pool_mutex_lock(&mu, -1);
    flag = r;
    cacs_pool_cond_signal(&cv);
    cacs_pool_mutex_unlock(&mu);
    // The tester's read: a byte after it has parked on the pipe.
    cacs_pool_sleep(50);
    char b = (char)r;
    if (write(pipefd[1], &b, 1) != 1)
      die("write");
  }
}

static void tester(void *arg) {
  cacs_pool *p = arg;
  STORE(&tester_w, cacs_pool_worker_index());
  cacs_pool_task *pt = cacs_pool_spawn(p, partner, NULL);
  if (!pt)
    die("spawn");
  // Hold this worker until the partner runs: it starts on the other one.
  long long end = now_us() + 5000000;
  while (LOAD(&partner_w) < 0 && now_us() < end)
    ;
  for (int r = 1; r <= rounds; ++r) {
    PROBE(K_YIELD, cacs_pool_yield());
    PROBE(K_SLEEP, cacs_pool_sleep(20));
    STORE(&round_go, r);
    int got = 0;
    PROBE(K_CHAN, got = cacs_pool_chan_recv(ch, &got, -1) == 0 ? got : -1);
    if (got != r)
      die("recv");
    PROBE(K_SEM, cacs_pool_sem_wait(&sem, -1));
    while (LOAD(&round_locked) < r)
      cacs_pool_sleep(10);
    PROBE(K_MUTEX, cacs_pool_mutex_lock(&mu, -1));
    while (flag < r)
      PROBE(K_COND, cacs_pool_cond_wait(&cv, &mu, -1));
    cacs_pool_mutex_unlock(&mu);
    char b;
    ssize_t n = 0;
    PROBE(K_IO, n = cacs_read(pipefd[0], &b, 1, -1));
    if (n != 1 || b != (char)r)
      die("read");
  }
  if (cacs_pool_join(pt) != 0)
    die("join");
}

int main(int argc, char **argv) {
  rounds = argc > 1 ? atoi(argv[1]) : 200;
  alarm(60); // a hang is a failure, not a stuck test run
  if (pipe2(pipefd, O_NONBLOCK) != 0)
    die("pipe");
  ch = cacs_pool_chan_create(sizeof(int), 0);
  cacs_pool_sem_init(&sem, 0);
  cacs_pool_cond_init(&cv);
  if (!ch || cacs_pool_mutex_init(&mu, CACS_POOL_LOCK_CES) != 0)
    die("init");
#ifdef MIGRATE_RUNNING
  cacs_pool_attr attr = {2, 0, CACS_POOL_MIGRATE_RUNNING};
#else
  cacs_pool_attr attr = {2, 0, CACS_POOL_MIGRATE_UNSTARTED};
#endif
  cacs_pool *p = cacs_pool_create_ex(&attr);
  if (!p)
    die("create");
  if (cacs_pool_join(cacs_pool_spawn(p, tester, p)) != 0)
    die("join tester");
  cacs_pool_destroy(p);
  printf("homes differ: %s\n", tester_w != partner_w ? "yes" : "no");
  int moved = 0, stale = 0;
  for (int k = 0; k < NKINDS; ++k) {
    printf("%s: waits=%d moved=%d stale=%d\n", kind_name[k], cell[k].waits,
           cell[k].moved, cell[k].stale);
    moved += cell[k].moved;
    stale += cell[k].stale;
  }
  printf("total: moved=%d stale=%d\n", moved, stale);
  return 0;
}
