// A fault-injection program (scripts/faults): descriptors closed by another
// thread inside the first call of cacs/io.h of a thread (epoll loop in poll
// mode and in epoll mode, the io_uring engine) and of a pool, while the call
// makes the module's own descriptors, which take the closed numbers (the
// close race of runtime/io-close-first-call.c and pool/pool-io-close.c
// "closeinread"). faults.c calls faults_before_call before each of the
// runtime's calls of a wrapped function: armed, it has a plain thread
// cacs_close the victims before the runtime's eventfd (a thread's first
// wait, or its ring) or epoll_create1 (the pool's poller) is made.
//
// Every call on a closed number must fail with EBADF, or with the error of
// the call the harness made fail (ENOMEM, EMFILE); any other result (EINVAL
// or ETIMEDOUT from the module's own descriptor, a write that counted into
// its eventfd) is reported ("UNDOCUMENTED") and the program exits 1.

#define _GNU_SOURCE 1 // strerrorname_np
#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/pool.h"
#include "faults-check.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static int undocumented;

static const char *_Atomic armed; // the wrapped function to act before

// The result of a call on a closed descriptor: -1 with EBADF, or the
// failure the harness injected on the way. (If the hook has not run yet,
// the call failed before it made the module's descriptors, on a descriptor
// still open: nothing to expect of the next call on it.)
static void expect_closed(const char *what, long n) {
  int e = errno;
  if (atomic_load(&armed)) {
    check(n >= 0, what);
    return;
  }
  if (n == -1 && (e == EBADF || e == ENOMEM || e == EMFILE)) {
    if (e != EBADF)
      check(0, what);
    return;
  }
  printf("UNDOCUMENTED: %s: %ld %s\n", what, n,
         n < 0 ? strerrorname_np(e) : "");
  undocumented++;
}

// --- the hook ----------------------------------------------------------------
static int victims[3], nvictims;

static void *closer(void *arg) {
  (void)arg;
  for (int i = 0; i < nvictims; i++)
    cacs_close(victims[i]);
  return NULL;
}

void faults_before_call(const char *name) {
  const char *a = atomic_load(&armed);
  if (!a || strcmp(a, name) || !atomic_compare_exchange_strong(&armed, &a, 0))
    return;
  pthread_t t;
  if (pthread_create(&t, NULL, closer, NULL) != 0)
    abort();
  pthread_join(t, NULL);
}

// Arm the hook on `name` with `n` victims, the peers' ends in `peers`; 0 if
// the sockets cannot be made.
static int arm(const char *name, int n, int peers[3]) {
  nvictims = 0;
  for (int i = 0; i < n; i++) {
    int sv[2];
    if (!check(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0,
               "socketpair"))
      break;
    victims[nvictims] = sv[0];
    peers[nvictims++] = sv[1];
  }
  if (nvictims < n) {
    for (int i = 0; i < nvictims; i++)
      close(victims[i]), close(peers[i]);
    return 0;
  }
  atomic_store(&armed, name);
  return 1;
}

// After the calls: if the hook never ran (the call failed before it made
// the descriptor), close the victims here; close the peers.
static void disarm(int peers[3]) {
  if (atomic_exchange(&armed, NULL))
    closer(NULL);
  for (int i = 0; i < nvictims; i++)
    close(peers[i]);
}

// --- a thread's first call ---------------------------------------------------

struct first {
  int wait_fd; // the first call is a cacs_wait_fd, not a read
};

static void *thread_first(void *arg) {
  struct first *f = arg;
  int peers[3];
  if (!arm("eventfd", 1, peers))
    return NULL;
  char c;
  if (f->wait_fd) {
    expect_closed("first call wait_fd",
                  cacs_wait_fd(victims[0], EPOLLIN, 500000));
  } else {
    expect_closed("first call read", cacs_read(victims[0], &c, 1, 500000));
    uint64_t one = 1;
    expect_closed("then write",
                  cacs_write(victims[0], &one, sizeof one, 500000));
  }
  disarm(peers);
  return NULL;
}

static void on_thread(const char *what, int wait_fd) {
  struct first f = {wait_fd};
  pthread_t t;
  if (check(pthread_create(&t, NULL, thread_first, &f) == 0, "pthread_create"))
    pthread_join(t, NULL);
  printf("%s: done\n", what);
}

// --- a pool's first call -----------------------------------------------------

static void pool_first(void *arg) {
  (void)arg;
  char c;
  uint64_t v = 1;
  expect_closed("pool read", cacs_read(victims[0], &c, 1, CACS_FOREVER));
  expect_closed("pool write", cacs_write(victims[1], &v, sizeof v, 500000));
  expect_closed("pool read (no wait)", cacs_read(victims[2], &v, sizeof v, 0));
  expect_closed("pool wait_fd", cacs_wait_fd(victims[1], EPOLLOUT, 0));
}

static void on_pool(void) {
  cacs_pool *p = cacs_pool_create(2);
  if (!check(p != NULL, "cacs_pool_create"))
    return;
  int peers[3];
  if (arm("epoll_create1", 3, peers)) {
    cacs_pool_task *t = cacs_pool_spawn(p, pool_first, NULL);
    if (check(t != NULL, "cacs_pool_spawn"))
      check(cacs_pool_join(t) == 0, "cacs_pool_join");
    disarm(peers);
  }
  check(cacs_pool_destroy(p) == 0, "cacs_pool_destroy");
  printf("pool: done\n");
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  // The epoll loop first, whatever the default engine and CACS_IO_ENGINE.
  cacs_io_set_engine(CACS_IO_ENGINE_EPOLL);
  on_thread("poll mode", 0);
  on_thread("poll mode, wait_fd", 1);
  setenv("CACS_IO_POLL_MAX", "0", 1);
  on_thread("epoll mode", 0);
  unsetenv("CACS_IO_POLL_MAX");
  // Threads that start from here on ask for io_uring (epoll where the
  // runtime was built without liburing or the kernel has none).
  cacs_io_set_engine(CACS_IO_ENGINE_URING);
  on_thread("io_uring", 0);
  on_thread("io_uring, wait_fd", 1);
  on_pool();
  printf("done: %d handled, %d undocumented\n", handled, undocumented);
  return undocumented != 0;
}
