// A fault-injection program (scripts/faults): the M:N pool: create, spawn
// and join, a detached coroutine, pool sleep (timers), a pool mutex and
// wait group, a pool channel, and pool I/O over a socketpair, then
// destroy. Every fallible call is checked; a failure is reported
// ("handled: WHAT: ERRNO") and the program frees what it made, so a run
// with any one call failing ends with exit 0 and nothing leaked, or in a
// documented abort. It prints the engine its pool's I/O ran on
// ("engine: uring" or "epoll"): run with CACS_IO_ENGINE=uring
// (scripts/faults's pool@uring), a ring that one worker could not make
// leaves the whole pool on epoll, as documented.

#define _GNU_SOURCE 1 // strerrorname_np
#include "cacs/io.h"
#include "cacs/pool.h"
#include "cacs/pool_sync.h"
#include "faults-check.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>


enum { TIMEOUT = 2 * 1000 * 1000, N = 3 };

static cacs_pool_mutex mu;
static cacs_pool_waitgroup wg;
static long total;

static void worker(void *arg) {
  long id = (long)(intptr_t)arg;
  check(cacs_pool_sleep(100 + 50 * id) == 0, "cacs_pool_sleep");
  if (check(cacs_pool_mutex_lock(&mu, TIMEOUT) == 0, "cacs_pool_mutex_lock")) {
    total += id;
    cacs_pool_yield();
    cacs_pool_mutex_unlock(&mu);
  }
}

static void detached(void *arg) {
  (void)arg;
  check(cacs_pool_sleep(200) == 0, "cacs_pool_sleep");
  cacs_pool_waitgroup_done(&wg);
}

static void producer(void *arg) {
  cacs_pool_chan *ch = arg;
  for (int i = 0; i < 8; i++)
    if (!check(cacs_pool_chan_send(ch, &i, TIMEOUT) == 0,
               "cacs_pool_chan_send"))
      break;
  cacs_pool_chan_close(ch);
}

static void consumer(void *arg) {
  cacs_pool_chan *ch = arg;
  int v, sum = 0;
  while (cacs_pool_chan_recv(ch, &v, TIMEOUT) == 0)
    sum += v;
  check(errno == EPIPE, "cacs_pool_chan_recv");
}

static void engine_of(void *arg) { *(int *)arg = cacs_io_engine(); }

static int sv[2];
static void echo(void *arg) {
  (void)arg;
  char buf[16];
  ssize_t n;
  while ((n = cacs_read(sv[1], buf, sizeof buf, TIMEOUT)) > 0)
    if (!check(cacs_write_all(sv[1], buf, (size_t)n, TIMEOUT) == n,
               "echo write"))
      break;
  if (n < 0)
    check(0, "echo read");
}

static void talker(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; i++) {
    char in[4];
    if (!check(cacs_write_all(sv[0], "abc", 3, TIMEOUT) == 3,
               "cacs_write_all"))
      break;
    ssize_t got = 0, n;
    while (got < 3 && (n = cacs_read(sv[0], in + got, 3 - got, TIMEOUT)) > 0)
      got += n;
    if (!check(got == 3, "cacs_read"))
      break;
  }
  shutdown(sv[0], SHUT_WR);
}

// Spawn entry(arg) on p; NULL (reported) if it cannot be.
static cacs_pool_task *spawn(cacs_pool *p, void (*entry)(void *), void *arg) {
  cacs_pool_task *t = cacs_pool_spawn(p, entry, arg);
  check(t != NULL, "cacs_pool_spawn");
  return t;
}

static void join(cacs_pool_task *t) {
  if (t)
    check(cacs_pool_join(t) == 0, "cacs_pool_join");
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  cacs_pool *p = cacs_pool_create(2);
  if (!check(p != NULL, "cacs_pool_create")) {
    printf("done: %d handled\n", handled);
    return 0;
  }
  cacs_pool_task *t[N];
  if (check(cacs_pool_mutex_init(&mu, 0) == 0, "cacs_pool_mutex_init")) {
    for (int i = 0; i < N; i++)
      t[i] = spawn(p, worker, (void *)(intptr_t)i);
    for (int i = 0; i < N; i++)
      join(t[i]);
  }
  cacs_pool_waitgroup_init(&wg);
  cacs_pool_waitgroup_add(&wg, 1);
  if (!check(cacs_pool_spawn_detached(p, detached, NULL) == 0,
             "cacs_pool_spawn_detached"))
    cacs_pool_waitgroup_done(&wg);
  check(cacs_pool_waitgroup_wait(&wg, TIMEOUT) == 0,
        "cacs_pool_waitgroup_wait");

  cacs_pool_chan *ch = cacs_pool_chan_create(sizeof(int), 2);
  if (check(ch != NULL, "cacs_pool_chan_create")) {
    cacs_pool_task *c = spawn(p, consumer, ch);
    cacs_pool_task *q = spawn(p, producer, ch);
    if (!q)
      cacs_pool_chan_close(ch);
    join(q);
    join(c);
    check(cacs_pool_chan_destroy(ch) == 0, "cacs_pool_chan_destroy");
  }

  if (check(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0,
            "socketpair")) {
    int engine = 0;
    cacs_pool_task *g = spawn(p, engine_of, &engine);
    join(g);
    if (g)
      printf("engine: %s\n", engine == CACS_IO_ENGINE_URING   ? "uring"
                             : engine == CACS_IO_ENGINE_EPOLL ? "epoll"
                                                              : "none");
    cacs_pool_task *e = spawn(p, echo, NULL);
    cacs_pool_task *k = spawn(p, talker, NULL);
    if (!k)
      shutdown(sv[0], SHUT_WR);
    join(k);
    join(e);
    cacs_close(sv[0]);
    cacs_close(sv[1]);
  }
  check(cacs_pool_destroy(p) == 0, "cacs_pool_destroy");
  printf("done: %d handled, total %ld\n", handled, total);
  return 0;
}
