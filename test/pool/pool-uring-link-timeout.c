// On the pool's io_uring engine (a ring per worker) a transfer with a
// timeout is a request with a linked timeout, named by its user data: the
// address of the request in the coroutine's frame. A linked timeout that
// fires cancels its request by that name, in task work that the worker's
// thread runs at its next io_uring_enter (IORING_SETUP_DEFER_TASKRUN), at
// most 20 items per enter on Linux 6.13 and later. If the request has
// completed by itself meanwhile, and the worker has reaped it and resumed
// the coroutine, whose next request comes from the same frame under the
// same name, that cancellation ends the new request: a read without a
// timeout fails with ECANCELED (the soak's "stream: read ... errno 125").
//
// The test lines the kernel up so: one worker; a victim coroutine reads a
// socket with a timeout, 64 others read sockets of their own; a coroutine
// then holds the worker (it spins, nothing enters the kernel) while the
// main thread writes the victim's socket, then every other socket, then
// waits past the victim's deadline: the victim's read completes in the
// worker's first enter, its timeout's task work comes more than 20 items
// later. The victim then reads again, without a timeout, and must get the
// byte the main thread writes once every other reader is done.
// (Without the race -- an older kernel, a timer that fires late -- the
// test passes too.)
//
// REQUIRES: io-uring
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 \
// RUN:   -lpthread -o %t
// RUN: %t | FileCheck %s
//
// CHECK: engine: uring
// CHECK-NEXT: round 0: second read: 1 byte
// CHECK-NEXT: round 1: second read: 1 byte
// CHECK-NEXT: PASS

#define _GNU_SOURCE 1
#include "Inputs/ptest.h"
#include "cacs/io.h"
#include "cacs/pool.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { OTHERS = 64, ROUNDS = 2 };
// The victim's first timeout: long enough for its request to reach the
// kernel before it fires, under any load (a late request only misses the
// race).
#define VICTIM_US 100000
// How long past the victim's deadline the main thread waits for the timer
// to have fired (a later timer, too, only misses the race).
#define MARGIN_NS 20000000ull

static int vfd[2], ofd[OTHERS][2];
static atomic_int parked, spinning, stop, others_done;
static atomic_ullong deadline;
static int first_err, second_err;

static void other(void *arg) {
  int i = (int)(long)arg;
  char c;
  atomic_fetch_add(&parked, 1);
  H_CHECK(cacs_read(ofd[i][0], &c, 1, CACS_FOREVER) == 1);
  atomic_fetch_add(&others_done, 1);
}

// Both reads from one call site: one frame, one request address.
static void victim(void *arg) {
  (void)arg;
  char c;
  atomic_store(&deadline, h_now_ns() + VICTIM_US * 1000ull);
  atomic_fetch_add(&parked, 1);
  for (int k = 0; k < 2; ++k) {
    ssize_t n = cacs_read(vfd[0], &c, 1, k ? CACS_FOREVER : VICTIM_US);
    int e = n == 1 ? 0 : n < 0 ? errno : -1;
    if (k)
      second_err = e;
    else
      first_err = e; // 0, or ETIMEDOUT if the race was missed
  }
}

// Once every reader is parked and a blocking pass has sent their requests
// (the sleep), hold the worker until the main thread is done.
static void holder(void *arg) {
  (void)arg;
  while (atomic_load(&parked) < OTHERS + 1)
    cacs_pool_yield();
  cacs_pool_sleep(1000);
  atomic_store(&spinning, 1);
  while (!atomic_load(&stop)) {
  }
}

static void engine_of(void *arg) { *(int *)arg = cacs_io_engine(); }

static void round_(cacs_pool *p, int round) {
  atomic_store(&parked, 0);
  atomic_store(&spinning, 0);
  atomic_store(&stop, 0);
  atomic_store(&others_done, 0);
  H_CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, vfd) == 0);
  for (int i = 0; i < OTHERS; ++i)
    H_CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ofd[i]) == 0);
  cacs_pool_task *t[OTHERS + 2];
  for (long i = 0; i < OTHERS; ++i)
    H_CHECK((t[i] = cacs_pool_spawn(p, other, (void *)i)) != NULL);
  H_CHECK((t[OTHERS] = cacs_pool_spawn(p, victim, NULL)) != NULL);
  H_CHECK((t[OTHERS + 1] = cacs_pool_spawn(p, holder, NULL)) != NULL);
  while (!atomic_load(&spinning))
    usleep(100);
  // The victim's completion first, then the others', then its timeout.
  H_CHECK(write(vfd[1], "v", 1) == 1);
  for (int i = 0; i < OTHERS; ++i)
    H_CHECK(write(ofd[i][1], "o", 1) == 1);
  while (h_now_ns() < atomic_load(&deadline) + MARGIN_NS)
    usleep(1000);
  atomic_store(&stop, 1);
  // The timeout's task work runs before the last other reader's
  // completion is posted: the victim's second read is in the kernel, or
  // it has failed, by then.
  while (atomic_load(&others_done) < OTHERS)
    usleep(100);
  H_CHECK(write(vfd[1], "w", 1) == 1);
  for (int i = 0; i < OTHERS + 2; ++i)
    H_CHECK(cacs_pool_join(t[i]) == 0);
  H_CHECK(first_err == 0 || first_err == ETIMEDOUT);
  if (second_err == 0)
    printf("round %d: second read: 1 byte\n", round);
  else
    printf("round %d: second read: %s\n", round,
           second_err < 0 ? "end of file" : strerror(second_err));
  for (int i = 0; i < OTHERS; ++i)
    H_CHECK(cacs_close(ofd[i][0]) == 0 && cacs_close(ofd[i][1]) == 0);
  H_CHECK(cacs_close(vfd[0]) == 0 && cacs_close(vfd[1]) == 0);
}

int main(void) {
  h_watchdog(120); // a second read that never ends: its byte was lost
  H_CHECK(cacs_io_set_engine(CACS_IO_ENGINE_URING) == 0);
  cacs_pool *p = cacs_pool_create(1);
  H_CHECK(p != NULL);
  int engine = 0;
  cacs_pool_join(cacs_pool_spawn(p, engine_of, &engine));
  printf("engine: %s\n", engine == CACS_IO_ENGINE_URING ? "uring" : "epoll");
  int bad = 0;
  for (int r = 0; r < ROUNDS; ++r) {
    round_(p, r);
    bad += second_err != 0;
  }
  H_CHECK(cacs_pool_destroy(p) == 0);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
