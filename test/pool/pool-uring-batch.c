// The pool's io_uring engine batches a busy worker's blocking waits as a
// thread's ring does (lib/io_pool_uring.c, lib/io_uring.c's
// cacs__uring_wait_min): a worker whose completions come faster than it
// waits for them asks the kernel to let them gather (a minimum wait, Linux
// 6.12) instead of waking at the first. Pool coroutines echo connections
// whose peer, a thread with blocking calls, streams bursts of small
// messages; the library's io_uring_enter2 calls are interposed and counted:
// a batched wait is one with a minimum wait that may wait for more than one
// completion. Every echoed byte is checked.
//
// REQUIRES: io-uring
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 \
// RUN:   -lpthread -o %t
// RUN: %t | FileCheck %s
// CACS_IO_BATCH_US=0 turns batching off: no wait gathers completions.
// RUN: env CACS_IO_BATCH_US=0 %t | FileCheck %s --check-prefix=OFF
//
// CHECK: engine: uring
// CHECK-NEXT: streaming: every byte echoed ok
// CHECK-NEXT: streaming: waits gathered completions ok
// CHECK-NEXT: PASS
// OFF: engine: uring
// OFF-NEXT: streaming: every byte echoed ok
// OFF-NEXT: streaming: waits gathered completions ok (batching off: none batched)
// OFF-NEXT: PASS

#define _GNU_SOURCE 1
#include "cacs/io.h"
#include "cacs/pool.h"

#include "../runtime/Inputs/uring-batch.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CHECK(c)                                                               \
  do {                                                                         \
    if (!(c)) {                                                                \
      printf("FAILED: %s (line %d)\n", #c, __LINE__);                          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

enum { CONNS = 8, BURSTS = 200 };

static int srv[CONNS], cli[CONNS];

static void echo(void *arg) {
  int fd = (int)(intptr_t)arg;
  char buf[1024];
  ssize_t r;
  while ((r = cacs_read(fd, buf, sizeof buf, 5000000)) > 0)
    if (cacs_write_all(fd, buf, (size_t)r, 5000000) != r)
      break;
  cacs_close(fd);
}

static void tcp_pair(int *client, int *server) {
  int l = socket(AF_INET, SOCK_STREAM, 0);
  CHECK(l >= 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  CHECK(bind(l, (struct sockaddr *)&a, sizeof a) == 0);
  CHECK(listen(l, 1) == 0);
  CHECK(getsockname(l, (struct sockaddr *)&a, &len) == 0);
  *client = socket(AF_INET, SOCK_STREAM, 0);
  CHECK(*client >= 0);
  CHECK(connect(*client, (struct sockaddr *)&a, sizeof a) == 0);
  *server = accept(l, NULL, NULL);
  CHECK(*server >= 0);
  close(l);
  int one = 1;
  setsockopt(*client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  setsockopt(*server, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// One streaming run: the number of bad echoes.
static int run(cacs_pool *p) {
  for (int c = 0; c < CONNS; c++)
    tcp_pair(&cli[c], &srv[c]);
  cacs_pool_task *t[CONNS];
  for (int c = 0; c < CONNS; c++) {
    t[c] = cacs_pool_spawn(p, echo, (void *)(intptr_t)srv[c]);
    CHECK(t[c] != NULL);
  }
  struct peer pr = {cli, CONNS, BURSTS, 0};
  pthread_t peer;
  CHECK(pthread_create(&peer, NULL, peer_main, &pr) == 0);
  for (int c = 0; c < CONNS; c++)
    cacs_pool_join(t[c]);
  pthread_join(peer, NULL);
  return pr.bad;
}

static void engine_of(void *arg) { *(int *)arg = cacs_io_engine(); }

int main(void) {
  CHECK(cacs_io_set_engine(CACS_IO_ENGINE_URING) == 0);
  const char *env = getenv("CACS_IO_BATCH_US");
  int off = env && strcmp(env, "0") == 0;
  int min_wait = kernel_min_wait() && !off;
  cacs_pool *p = cacs_pool_create(1);
  CHECK(p != NULL);
  int engine = 0;
  cacs_pool_join(cacs_pool_spawn(p, engine_of, &engine));
  printf("engine: %s\n", engine == CACS_IO_ENGINE_URING ? "uring" : "epoll");

  // The worker batches once it finds itself busy, which depends on how
  // the two threads happen to run: a few streaming runs, if need be.
  int bad = 0, runs = 0, batches = 0;
  do {
    atomic_store(&batched, 0);
    bad += run(p);
    batches += atomic_load(&batched);
  } while (min_wait && !batches && ++runs < 20);
  printf("streaming: every byte echoed %s\n", bad ? "FAILED" : "ok");
  // Without the kernel's minimum wait, or with batching off, the worker
  // waits as before.
  int ok = min_wait ? batches > 0 : batches == 0;
  printf("streaming: waits gathered completions %s%s\n", ok ? "ok" : "FAILED",
         min_wait ? ""
         : off    ? " (batching off: none batched)"
                  : " (kernel without a minimum wait: none batched)");
  if (!ok)
    printf("  batched waits %d\n", batches);
  CHECK(cacs_pool_destroy(p) == 0);
  printf(bad || !ok ? "FAIL\n" : "PASS\n");
  return bad || !ok;
}
