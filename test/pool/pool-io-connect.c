// A cacs_connect that fails after its wait: a connect to a closed loopback
// port is in progress when connect(2) returns (EINPROGRESS); the refusal
// comes with the writability event, and the call must report it as -1 with
// errno ECONNREFUSED (connect_finished in lib/io.c reads SO_ERROR) -- in a
// thread's coroutine (the thread's own poller) and in pool coroutines on 1
// and 2 workers (the pool's poller; errno is the caller's, which may have
// moved to the other worker while it waited). Each side connects 20 times.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t | FileCheck %s
// CHECK: thread coroutine: refused=20 of 20, in progress first=20
// CHECK-NEXT: pool, 1 worker: refused=20 of 20
// CHECK-NEXT: pool, 2 workers: refused=20 of 20

#include "Inputs/pio-engine.h"
#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { ROUNDS = 20 };

static struct sockaddr_in closed_port; // bound once, then closed
static _Atomic int refused;

// A loopback port no one listens on: bind a socket to port 0, learn the
// port, close the socket.
static void find_closed_port(void) {
  int l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  closed_port.sin_family = AF_INET;
  closed_port.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof closed_port;
  if (l < 0 || bind(l, (struct sockaddr *)&closed_port, sizeof closed_port) ||
      getsockname(l, (struct sockaddr *)&closed_port, &len)) {
    perror("closed port");
    _exit(1);
  }
  close(l);
}

static void connect_once(void) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int r = cacs_connect(fd, (struct sockaddr *)&closed_port, sizeof closed_port,
                       5000000);
  int e = errno;
  if (r == -1 && e == ECONNREFUSED)
    atomic_fetch_add(&refused, 1);
  else
    printf("connect: %d %s\n", r, r ? strerror(e) : "connected");
  cacs_close(fd);
}

// The refusal must come after a wait, or the test would not reach the
// branch it is about: a plain non-blocking connect(2) shows which.
static int in_progress_first(void) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  int r = connect(fd, (struct sockaddr *)&closed_port, sizeof closed_port);
  int e = errno;
  close(fd);
  return r == -1 && e == EINPROGRESS;
}

static int progress;

static void thread_coro(void *arg) {
  (void)arg;
  for (int i = 0; i < ROUNDS; ++i) {
    progress += in_progress_first();
    connect_once();
  }
}

static void pool_coro(void *arg) {
  (void)arg;
  connect_once();
}

static void on_pool(unsigned workers) {
  cacs_pool *p = cacs_pool_create(workers);
  pio_check_engine(p);
  cacs_pool_task *t[ROUNDS];
  atomic_store(&refused, 0);
  for (int i = 0; i < ROUNDS; ++i)
    t[i] = cacs_pool_spawn(p, pool_coro, NULL);
  for (int i = 0; i < ROUNDS; ++i)
    cacs_pool_join(t[i]);
  cacs_pool_destroy(p);
  printf("pool, %u worker%s: refused=%d of %d\n", workers,
         workers == 1 ? "" : "s", atomic_load(&refused), ROUNDS);
}

int main(void) {
  alarm(60); // a lost wake-up hangs: fail instead
  find_closed_port();
  cacs_join(cacs_create(thread_coro, NULL, 0));
  printf("thread coroutine: refused=%d of %d, in progress first=%d\n",
         atomic_load(&refused), ROUNDS, progress);
  on_pool(1);
  on_pool(2);
  return 0;
}
