// A fault-injection program (scripts/faults; issue 36, part 2): a wake
// from another thread to a pool worker asleep in its io_uring ring, for
// the faults that keep the ring from watching its wake-up eventfd
// (io_pool_uring.c's arm_kick: no submission entry, and the submit that
// would make room fails too). Run with CACS_IO_ENGINE=uring
// (kick@uring): one worker, whose coroutine reads a quiet pipe; once the
// worker waits in its ring with the read in flight, this thread spawns a
// coroutine that writes the pipe. Only the eventfd's watch ends that wait
// (the spawn kicks it; the read completes only once the writer has run).
// The wait's own timeout is the pool's sweep (a second at most; the
// retry of a watch not queued: 1 ms): this program's faults_ring_wait
// drops timeouts longer than 100 ms, as if the sweep were never due, so
// that a wake the ring does not watch for is a hang, not a delay.
// Without a fault, or with one the ring recovers from, it ends with exit
// 0 ("woken: PASS").

#define _GNU_SOURCE 1 // strerrorname_np
#include "cacs/io.h"
#include "cacs/pool.h"
#include "faults-check.h"

#include <fcntl.h>
#include <linux/time_types.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int pfd[2];
static atomic_int watching; // post `asleep` at the next wait in a ring
static sem_t asleep;

// Inputs/faults.c's hooks. Before each of libcacs's calls of a wrapped
// function: the worker's first wait in its ring once the reader is
// spawned (the read is in flight: only then does the worker sleep there).
void faults_before_call(const char *name) {
  if (!strcmp(name, "io_uring_wait_cqes") && atomic_exchange(&watching, 0))
    sem_post(&asleep);
}

// The timeout of each wait in a ring: none for the sweep's.
struct __kernel_timespec *faults_ring_wait(struct __kernel_timespec *ts) {
  return ts && (ts->tv_sec > 0 || ts->tv_nsec > 100 * 1000 * 1000) ? NULL : ts;
}

static void engine_of(void *arg) { *(int *)arg = cacs_io_engine(); }

static void reader(void *arg) {
  char c;
  *(ssize_t *)arg = cacs_read(pfd[0], &c, 1, CACS_FOREVER);
  if (*(ssize_t *)arg < 0)
    check(0, "cacs_read");
  // A read that never waited in the ring (it failed): on with the writer.
  if (atomic_exchange(&watching, 0))
    sem_post(&asleep);
}

static void writer(void *arg) {
  (void)arg;
  check(write(pfd[1], "k", 1) == 1, "write");
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  sem_init(&asleep, 0, 0);
  if (!check(pipe2(pfd, O_CLOEXEC) == 0, "pipe2"))
    return 0;
  cacs_pool *p = cacs_pool_create(1);
  if (!check(p != NULL, "cacs_pool_create"))
    goto out;
  int engine = 0;
  cacs_pool_task *g = cacs_pool_spawn(p, engine_of, &engine);
  if (check(g != NULL, "cacs_pool_spawn") &&
      check(cacs_pool_join(g) == 0, "cacs_pool_join"))
    printf("engine: %s\n", engine == CACS_IO_ENGINE_URING   ? "uring"
                           : engine == CACS_IO_ENGINE_EPOLL ? "epoll"
                                                            : "none");
  ssize_t got = 0;
  atomic_store(&watching, 1);
  cacs_pool_task *r = cacs_pool_spawn(p, reader, &got);
  if (!check(r != NULL, "cacs_pool_spawn")) {
    atomic_store(&watching, 0);
  } else {
    // On epoll the worker never waits in a ring: the spawn wakes it
    // through its futex or the poller's eventfd.
    if (engine == CACS_IO_ENGINE_URING)
      sem_wait(&asleep);
    cacs_pool_task *w = cacs_pool_spawn(p, writer, NULL);
    if (!check(w != NULL, "cacs_pool_spawn") && write(pfd[1], "k", 1) != 1)
      check(0, "write");
    if (w)
      check(cacs_pool_join(w) == 0, "cacs_pool_join");
    check(cacs_pool_join(r) == 0, "cacs_pool_join");
    printf("woken: %s\n", got == 1 ? "PASS" : "FAIL");
  }
  check(cacs_pool_destroy(p) == 0, "cacs_pool_destroy");
out:
  close(pfd[0]);
  close(pfd[1]);
  printf("done: %d handled\n", handled);
  return 0;
}
