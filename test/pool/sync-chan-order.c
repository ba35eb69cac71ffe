// Pool channels keep each sender's items in order and lose none, buffered
// (capacity 4) and rendezvous (capacity 0), with senders and receivers on
// pool tasks and plain threads; after close the buffered items still
// arrive, then EPIPE, and sends fail with EPIPE.
//
// On the pool, x86-64: cacs -O2 with -fcoroutine-migration (the test reads
// errno after waits that may migrate), stock clang -O0.
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: %stock_clang -O0 -I%cacs_include -I%S/Inputs %s %cacs_rt_x86_64 -lpthread -o %t0
// RUN: %t0 2>&1 | FileCheck %s
//
// CHECK: cap 4: 1800 items, in order per sender 1, sum ok 1
// CHECK-NEXT: cap 0: 1800 items, in order per sender 1, sum ok 1
// CHECK-NEXT: closed: drained 2, then EPIPE 1, send EPIPE 1
#include "psync.h"

enum { SENDERS = 3, RECEIVERS = 2, PER = 600 };

struct item {
  int sender, seq;
};

static cacs_pool_chan *ch;
static cacs_pool_waitgroup senders_done = CACS_POOL_WAITGROUP_INIT;
static cacs_pool_mutex mu = CACS_POOL_MUTEX_INIT;
static int last[RECEIVERS][SENDERS];
static int received, in_order = 1;
static long sum;

static void sender(void *arg) {
  int id = (int)(intptr_t)arg;
  for (int i = 0; i < PER; ++i) {
    struct item it = {id, i};
    H_CHECK(cacs_pool_chan_send(ch, &it, -1) == 0);
  }
  cacs_pool_waitgroup_done(&senders_done);
}

static void receiver(void *arg) {
  int id = (int)(intptr_t)arg;
  struct item it;
  while (cacs_pool_chan_recv(ch, &it, -1) == 0) {
    H_CHECK(cacs_pool_mutex_lock(&mu, -1) == 0);
    if (it.seq < last[id][it.sender]) // each receiver sees a sender's items
      in_order = 0;                     // in the order they were sent
    last[id][it.sender] = it.seq + 1;
    received++;
    sum += it.seq;
    H_CHECK(cacs_pool_mutex_unlock(&mu) == 0);
  }
  H_CHECK(errno == EPIPE);
}

static void closer(void *arg) {
  (void)arg;
  H_CHECK(cacs_pool_waitgroup_wait(&senders_done, -1) == 0);
  H_CHECK(cacs_pool_chan_close(ch) == 0);
}

static void run(size_t cap) {
  ch = cacs_pool_chan_create(sizeof(struct item), cap);
  H_CHECK(ch);
  memset(last, 0, sizeof last);
  received = 0;
  sum = 0;
  in_order = 1;
  cacs_pool_waitgroup_add(&senders_done, SENDERS);
  for (intptr_t i = 0; i < SENDERS; ++i)
    (i == 0 ? h_plain : h_spawn)(sender, (void *)i);
  for (intptr_t i = 0; i < RECEIVERS; ++i)
    (i == 0 ? h_plain : h_spawn)(receiver, (void *)i);
  h_spawn(closer, NULL);
  h_join_all();
  H_CHECK(cacs_pool_chan_destroy(ch) == 0);
  printf("cap %zu: %d items, in order per sender %d, sum ok %d\n", cap, received,
         in_order, sum == (long)SENDERS * PER * (PER - 1) / 2);
}

static void closed(void *arg) {
  (void)arg;
  cacs_pool_chan *c = cacs_pool_chan_create(sizeof(int), 4);
  int a = 1, b = 2, x = 0, y = 0;
  H_CHECK(cacs_pool_chan_send(c, &a, 0) == 0 && cacs_pool_chan_send(c, &b, 0) == 0);
  H_CHECK(cacs_pool_chan_close(c) == 0);
  int drained = cacs_pool_chan_recv(c, &x, 0) == 0 && cacs_pool_chan_recv(c, &y, 0) == 0 &&
                x == 1 && y == 2;
  int epipe = cacs_pool_chan_recv(c, &x, -1) == -1 && errno == EPIPE;
  int send_epipe = cacs_pool_chan_send(c, &a, -1) == -1 && errno == EPIPE;
  printf("closed: drained %d, then EPIPE %d, send EPIPE %d\n", drained ? 2 : 0,
         epipe, send_epipe);
  H_CHECK(cacs_pool_chan_destroy(c) == 0);
}

int main(void) {
  h_start(2);
  run(4);
  run(0);
  h_spawn(closed, NULL);
  h_join_all();
  h_stop();
  return 0;
}
