// The io_uring engine's batched waits (lib/io_uring.c, ur_wait_batch): a
// thread whose completions come faster than it waits for them asks the
// kernel to let them gather (a minimum wait, Linux 6.12) instead of
// waking at the first, so that a streaming peer's burst of small
// messages is read, and echoed, in one piece; a connection alone in
// flight is never held back for completions that cannot come. The library's
// io_uring_enter2 calls are interposed and counted: a batched wait is one
// with a minimum wait that may wait for more than one completion. Every
// echoed byte is checked.
//
// REQUIRES: io-uring
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t && %t | FileCheck %s
// CACS_IO_BATCH_US=0 turns batching off: no wait gathers completions.
// RUN: env CACS_IO_BATCH_US=0 %t | FileCheck %s --check-prefix=OFF
//
// CHECK: streaming: every byte echoed ok
// CHECK-NEXT: streaming: waits gathered completions ok
// CHECK-NEXT: one connection: every byte echoed ok
// CHECK-NEXT: one connection: no wait for more than one completion ok
// CHECK-NEXT: descriptors: none leaked
// CHECK-NEXT: PASS
// OFF: streaming: every byte echoed ok
// OFF-NEXT: streaming: waits gathered completions ok (batching off: none batched)
// OFF: PASS

#define _GNU_SOURCE 1
#define IO_TEST_OWN_ENGINE 1 // it asks for io_uring itself
#include "Inputs/io-test.h"

#include "Inputs/uring-batch.h"

#include <pthread.h>

enum { CONNS = 8, BURSTS = 200 };

static int srv[CONNS], cli[CONNS];

static void echo(void *arg) {
  int fd = (int)(intptr_t)arg;
  char buf[4096];
  ssize_t r;
  while ((r = cacs_read(fd, buf, sizeof buf, 5000000)) > 0)
    if (cacs_write_all(fd, buf, (size_t)r, 5000000) != r)
      break;
  cacs_close(fd);
}

static void run(int conns, int bursts, const char *name) {
  int before = failures;
  for (int c = 0; c < conns; c++) {
    int p[2];
    tcp_pair_loopback(p);
    // The peer's end is the peer thread's, with blocking calls.
    cacs_io_forget(p[0]);
    int fl = fcntl(p[0], F_GETFL);
    fcntl(p[0], F_SETFL, fl & ~O_NONBLOCK);
    cli[c] = p[0];
    srv[c] = p[1];
  }
  cacs_coro *s[CONNS];
  for (int c = 0; c < conns; c++)
    s[c] = cacs_create(echo, (void *)(intptr_t)srv[c], 0);
  atomic_store(&batched, 0);
  atomic_store(&max_nr, 0);
  struct peer pr = {cli, conns, bursts, 0};
  pthread_t t;
  EXPECT(pthread_create(&t, NULL, peer_main, &pr) == 0);
  for (int c = 0; c < conns; c++)
    cacs_join(s[c]);
  pthread_join(t, NULL);
  EXPECT(pr.bad == 0);
  if (name)
    printf("%s: every byte echoed %s\n", name,
           failures == before ? "ok" : "FAILED");
}

int main(void) {
  cacs_io_set_engine(CACS_IO_ENGINE_URING);
  int fds = test_begin(60);
  EXPECT(cacs_io_engine() == CACS_IO_ENGINE_URING);
  const char *env = getenv("CACS_IO_BATCH_US");
  int off = env && strcmp(env, "0") == 0;
  int min_wait = kernel_min_wait() && !off;

  // The thread batches once it finds itself busy, which depends on how
  // the two threads happen to run: a few streaming runs, if need be.
  int runs = 0, batches = 0;
  do {
    run(CONNS, BURSTS, runs ? NULL : "streaming");
    batches += atomic_load(&batched);
  } while (min_wait && !batches && ++runs < 20);
  batched = batches;
  int before = failures;
  // Without the kernel's minimum wait, or with batching off, the engine
  // waits as before.
  EXPECT(min_wait ? batched > 0 : batched == 0);
  printf("streaming: waits gathered completions %s%s\n",
         failures == before ? "ok" : "FAILED",
         min_wait ? ""
         : off    ? " (batching off: none batched)"
                  : " (kernel without a minimum wait: none batched)");
  if (failures != before)
    printf("  batched waits %d\n", batched);

  // One connection streaming: the thread is as busy, but its receive is
  // all it has in flight (its send and its receive alternate).
  unsigned most = 0;
  for (runs = 0; runs < 5; runs++) {
    run(1, BURSTS, runs ? NULL : "one connection");
    unsigned m = atomic_load(&max_nr);
    most = m > most ? m : most;
  }
  max_nr = most;
  before = failures;
  EXPECT(max_nr <= 1);
  printf("one connection: no wait for more than one completion %s\n",
         failures == before ? "ok" : "FAILED");
  if (failures != before)
    printf("  batched waits %d, for up to %u completions\n", batched, max_nr);
  return test_end(fds);
}
