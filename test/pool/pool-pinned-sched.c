// Scheduling in the default pool, where a started coroutine stays on its
// home worker.
//
// "balance": one pool coroutine spawns 64 children onto its own worker's
// deque, and joins them; each child holds its worker until children have
// started on both workers (bounded: 5 s): coroutines that have not started
// are still stolen. Each child then yields 20 times and must be on its home
// worker after every yield.
//
// "pingpong N": two coroutines homed on different workers (the first
// holds its worker until the second has started elsewhere) bounce a token
// N times through a rendezvous channel and back through a semaphore: each
// wake comes from the other worker and goes to the woken one's home, whose
// worker is asleep (futex) by then. Then the same after both have waited
// on a pipe, so that an idle worker sleeps in the pool's epoll_wait
// instead. A lost wake-up hangs: a watchdog ends the program after 5 s.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t balance | FileCheck %s --check-prefix=BALANCE
// RUN: %t pingpong 5000 | FileCheck %s --check-prefix=PINGPONG
//
// BALANCE: children=64 workers=2 moved=0
// PINGPONG: homes differ: yes
// PINGPONG-NEXT: futex: 5000 round trips, moved=0
// PINGPONG-NEXT: epoll: 5000 round trips, moved=0
// PINGPONG2K: homes differ: yes
// PINGPONG2K-NEXT: futex: 2000 round trips, moved=0
// PINGPONG2K-NEXT: epoll: 2000 round trips, moved=0

#define _GNU_SOURCE 1 // pipe2
#include "cacs/io.h"
#include "cacs/pool.h"
#include "cacs/pool_sync.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define LOAD(p) __atomic_load_n(p, __ATOMIC_ACQUIRE)
#define STORE(p, v) __atomic_store_n(p, v, __ATOMIC_RELEASE)
#define ADD(p, v) __atomic_fetch_add(p, v, __ATOMIC_ACQ_REL)

static long long now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

static void die(const char *what) {
  printf("error: %s\n", what);
  fflush(stdout);
  _exit(1);
}

static void on_alarm(int sig) {
  (void)sig;
  static const char m[] = "watchdog: no progress in 5 s (a lost wake-up)\n";
  ssize_t k = write(1, m, sizeof m - 1);
  (void)k;
  _exit(1);
}

// --- balance ----------------------------------------------------------------

enum { NCHILD = 64, NYIELD = 20 };
static int ran_on[2], moved;

static void child(void *arg) {
  (void)arg;
  int w = cacs_pool_worker_index();
  ADD(&ran_on[w], 1);
  // Hold this worker until children have started on both (the parent's
  // worker takes its own once the parent waits; the other must steal).
  long long end = now_us() + 5000000;
  while (!(LOAD(&ran_on[0]) && LOAD(&ran_on[1])) && now_us() < end)
    ;
  for (int i = 0; i < NYIELD; ++i) {
    cacs_pool_yield();
    if (cacs_pool_worker_index() != w)
      ADD(&moved, 1);
  }
}

static void parent(void *arg) {
  cacs_pool *p = arg;
  cacs_pool_task *t[NCHILD];
  for (int i = 0; i < NCHILD; ++i)
    if (!(t[i] = cacs_pool_spawn(p, child, NULL)))
      die("spawn");
  for (int i = 0; i < NCHILD; ++i)
    if (cacs_pool_join(t[i]) != 0)
      die("join");
}

static int balance(void) {
  cacs_pool *p = cacs_pool_create(2);
  if (!p)
    die("create");
  if (cacs_pool_join(cacs_pool_spawn(p, parent, p)) != 0)
    die("join parent");
  cacs_pool_destroy(p);
  printf("children=%d workers=%d moved=%d\n", ran_on[0] + ran_on[1],
         (ran_on[0] > 0) + (ran_on[1] > 0), moved);
  return 0;
}

// --- pingpong ---------------------------------------------------------------

static int trips;
static cacs_pool_chan *ping;
static cacs_pool_sem pong;
static int a_w = -1, b_w = -1, pp_moved[2], progress;
static int pipefd[2];

static void bounce_b(void *arg) {
  (void)arg;
  STORE(&b_w, cacs_pool_worker_index());
  for (int phase = 0; phase < 2; ++phase) {
    if (phase == 1) { // now the pool polls: wait on the pipe once
      char c;
      if (cacs_read(pipefd[0], &c, 1, -1) != 1)
        die("read b");
    }
    for (int i = 0; i < trips; ++i) {
      int v;
      if (cacs_pool_chan_recv(ping, &v, -1) != 0 || v != i)
        die("recv");
      if (cacs_pool_worker_index() != b_w)
        ADD(&pp_moved[phase], 1);
      cacs_pool_sem_post(&pong);
    }
  }
}

static void bounce_a(void *arg) {
  cacs_pool *p = arg;
  STORE(&a_w, cacs_pool_worker_index());
  cacs_pool_task *b = cacs_pool_spawn(p, bounce_b, NULL);
  if (!b)
    die("spawn b");
  long long end = now_us() + 5000000;
  while (LOAD(&b_w) < 0 && now_us() < end)
    ;
  for (int phase = 0; phase < 2; ++phase) {
    if (phase == 1) {
      char c = 1;
      if (write(pipefd[1], &c, 1) != 1)
        die("write");
    }
    for (int i = 0; i < trips; ++i) {
      if (cacs_pool_chan_send(ping, &i, -1) != 0)
        die("send");
      if (cacs_pool_sem_wait(&pong, -1) != 0)
        die("sem");
      if (cacs_pool_worker_index() != a_w)
        ADD(&pp_moved[phase], 1);
      STORE(&progress, phase * trips + i + 1);
    }
  }
  if (cacs_pool_join(b) != 0)
    die("join b");
}

static int pingpong(int n) {
  trips = n;
  if (pipe2(pipefd, O_NONBLOCK) != 0)
    die("pipe");
  ping = cacs_pool_chan_create(sizeof(int), 0);
  cacs_pool_sem_init(&pong, 0);
  cacs_pool *p = cacs_pool_create(2);
  if (!ping || !p)
    die("create");
  cacs_pool_task *a = cacs_pool_spawn(p, bounce_a, p);
  // The watchdog: every 5 s of no progress ends the program.
  signal(SIGALRM, on_alarm);
  int last = -1;
  while (LOAD(&progress) < 2 * n) {
    int now = LOAD(&progress);
    if (now != last) {
      alarm(5);
      last = now;
    }
    usleep(1000);
  }
  alarm(0);
  if (cacs_pool_join(a) != 0)
    die("join a");
  cacs_pool_destroy(p);
  printf("homes differ: %s\n", a_w != b_w ? "yes" : "no");
  printf("futex: %d round trips, moved=%d\n", n, pp_moved[0]);
  printf("epoll: %d round trips, moved=%d\n", n, pp_moved[1]);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "balance"))
    return balance();
  if (argc > 2 && !strcmp(argv[1], "pingpong"))
    return pingpong(atoi(argv[2]));
  fprintf(stderr, "usage: %s balance | pingpong N\n", argv[0]);
  return 2;
}
