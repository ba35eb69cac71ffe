// Descriptors that go away while pool coroutines wait on them, and a pool
// shut down while its coroutines wait on I/O.
//
// "hangup": coroutines wait to read socketpair ends whose peers another
// thread then closes: each read returns 0 (end of file).
// "close": a coroutine waits to read; another pool coroutine calls
// cacs_close on the descriptor: the wait ends with ECANCELED.
// "outside": as "close", but a plain thread calls cacs_close; "otherpool":
// a coroutine of another pool does. The close finds the record in the pool
// that knows the descriptor: ECANCELED all the same.
// "closing": a read (no timeout) begins while a plain thread's cacs_close
// is between its forget and its close(2) (this program's close() holds the
// descriptor open there until the read has retried): its wait must not
// register the descriptor anew, which the close would then drop from the
// epoll set unseen (a wait that would end only at the pool's sweep); it
// retries (seen: its read(2) fails with EAGAIN again during the close) and
// fails with EBADF.
// "closingreuse": as "closing", then a blocking socket takes the number
// (dup2): a read of it must wait in the pool, not in read(2) on the
// worker's thread (what the read during the close learned, non-blocking,
// was of the closed file), or the writer that would end it never runs on
// the one worker.
// "closeinread": a plain thread's cacs_close lands inside the pool's first
// call of cacs/io.h, before the call makes the pool's poller (this
// program's epoll_create1 runs the close there): the poller's epoll
// instance, eventfd and timerfd take the closed numbers. Each call on them
// fails with EBADF, as on any closed descriptor: the read (it read the
// epoll instance: EINVAL), an 8-byte write (it counted into the pool's
// eventfd: 8), a read that may not wait (the timerfd: ETIMEDOUT), a
// cacs_wait_fd for writing (the eventfd was ready: 0).
// "epipe": a coroutine writes into a full socket until it waits; another
// thread closes the peer: the write fails with EPIPE.
// "close2": as "close", but a plain thread closes the descriptor with
// close(2), which the pool does not see: the kernel drops it from the epoll
// set, no event ever comes, and the read (timeout 300 ms) fails at its
// timeout with EBADF, not ETIMEDOUT.
// "forever": as "close2", but the read has no timeout: the pool's sweep
// (once a second while waits without a timeout exist) finds the
// descriptor gone from the epoll set and the read fails with EBADF; in
// "reuseforever" the number is another socket's by then (dup2): EBADF too.
// "reuse": as "close2", and the number is reused at once (dup2 of another
// socket onto it) before the read times out: EBADF all the same; a read of
// the number afterwards waits on the new socket (registered afresh) and
// gets the byte its peer sends.
// "shutdown": cacs_pool_destroy (graceful) waits for the coroutines that
// wait on I/O: it does not return while they wait, and returns once
// another thread closes their pipes' write ends (they read end of file).
//
// Order: whoever acts on a waiting call first sees it wait (await_parked):
// the descriptor in the pool's epoll set, which the pool adds at the
// descriptor's first wait under the lock that cacs_close and the poller
// take and that the waiter holds until it has parked; no fixed delay
// stands for "it waits by now". On the pool's io_uring engine (a ring
// per worker) a call waits once its request is armed in the kernel (the
// rings' fdinfo), which it is linked to its descriptor before: a close
// seen after finds it. "closing" interposes read(2) to see the
// read retry during the close. Left to time: "shutdown"'s
// 100 ms in which destroy must not return (a negative, not an order).
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t hangup 1 | FileCheck %s --check-prefix=HANGUP
// RUN: %t hangup 2 | FileCheck %s --check-prefix=HANGUP
// RUN: %t close 2 | FileCheck %s --check-prefix=CLOSE
// RUN: %t outside 1 | FileCheck %s --check-prefix=CLOSE
// RUN: %t outside 2 | FileCheck %s --check-prefix=CLOSE
// RUN: %t otherpool 2 | FileCheck %s --check-prefix=CLOSE
// RUN: %t closing 1 | FileCheck %s --check-prefix=CLOSING
// RUN: %t closingreuse 1 | FileCheck %s --check-prefix=CLOSING-REUSE
// RUN: %t close2 1 | FileCheck %s --check-prefix=CLOSE2
// RUN: %t close2 2 | FileCheck %s --check-prefix=CLOSE2
// RUN: %t reuse 2 | FileCheck %s --check-prefix=REUSE
// RUN: %t forever 1 | FileCheck %s --check-prefix=CLOSE2
// RUN: %t forever 2 | FileCheck %s --check-prefix=CLOSE2
// RUN: %t reuseforever 2 | FileCheck %s --check-prefix=CLOSE2
// RUN: %t closeinread 2 | FileCheck %s --check-prefix=CLOSE-IN-READ
// RUN: %t epipe 2 | FileCheck %s --check-prefix=EPIPE
// RUN: %t shutdown 2 | FileCheck %s --check-prefix=SHUTDOWN
// HANGUP: eof=16 other=0
// CLOSE: read: -1 ECANCELED
// CLOSE2: read: -1 EBADF
// REUSE: read: -1 EBADF
// REUSE-NEXT: read after reuse: 1 x
// CLOSING: read: -1 EBADF
// CLOSING-NEXT: retried during the close: yes
// CLOSING-REUSE: read: -1 EBADF
// CLOSING-REUSE-NEXT: retried during the close: yes
// CLOSING-REUSE-NEXT: read after reuse: 1 x
// CLOSE-IN-READ: read: -1 EBADF
// CLOSE-IN-READ-NEXT: write: -1 EBADF
// CLOSE-IN-READ-NEXT: read (no wait): -1 EBADF
// CLOSE-IN-READ-NEXT: wait_fd: -1 EBADF
// CLOSE-IN-READ-NEXT: the closed number is the pool's epoll instance: yes
// EPIPE: write: -1 EPIPE
// SHUTDOWN: destroy returned while waiting: no
// SHUTDOWN-NEXT: destroy returned after the hangups: yes eof=16

#include "Inputs/pio-engine.h"
#include "Inputs/ptest.h"
#include "cacs/io.h"
#include "cacs/pool.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { N = 16 };

// errno read on the worker that runs the caller now.
__attribute__((noinline)) static int err(void) { return errno; }

static const char *ename(int e) {
  return e == ECANCELED   ? "ECANCELED"
         : e == EPIPE     ? "EPIPE"
         : e == EBADF     ? "EBADF"
         : e == ETIMEDOUT ? "ETIMEDOUT"
         : e == EINVAL    ? "EINVAL"
                          : "other";
}

static void pause_ms(int ms) {
  struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
  nanosleep(&ts, NULL);
}

static int mine[N], peer[N];
static atomic_int eof, other;

// The sum of `count(f, arg)` over the /proc/self/fdinfo files of this
// process's descriptors of kind `link` (anon_inode:[eventpoll], ...).
static int sum_fdinfo(const char *link_to, int (*count)(FILE *, int), int arg) {
  DIR *d = opendir("/proc/self/fd");
  if (!d)
    return 0;
  int sum = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    char path[64], link[64];
    snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
    ssize_t n = readlink(path, link, sizeof link - 1);
    if (n < 0)
      continue;
    link[n] = 0;
    if (strcmp(link, link_to))
      continue;
    snprintf(path, sizeof path, "/proc/self/fdinfo/%s", e->d_name);
    FILE *f = fopen(path, "r");
    if (f) {
      sum += count(f, arg);
      fclose(f);
    }
  }
  closedir(d);
  return sum;
}

// An epoll descriptor's fdinfo lists the descriptors it watches: "tfd: N".
static int watches(FILE *f, int fd) {
  char line[256];
  int t;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "tfd: %d", &t) == 1 && t == fd)
      return 1;
  return 0;
}

// Whether `fd` is in an epoll set of this process.
static int in_epoll_set(int fd) {
  return sum_fdinfo("anon_inode:[eventpoll]", watches, fd) > 0;
}

// The pool's engine (cacs_io_engine in a pool coroutine: the test runs on
// both, test/io_engines.py). On io_uring a waiting call is a request armed
// in its worker's ring.
static int uring;
static void ask_engine(void *arg) {
  (void)arg;
  uring = cacs_io_engine() == CACS_IO_ENGINE_URING;
}

// A ring's fdinfo lists its armed requests after "PollList:" ("  op=N,
// ..."), and so its own watch of its eventfd, armed from its start: the
// others.
static int armed(FILE *f, int unused) {
  (void)unused;
  char line[256];
  int in_list = 0, n = -1;
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, "PollList:", 9))
      in_list = 1;
    else if (in_list && !strncmp(line, "  op=", 5))
      ++n;
    else
      in_list = 0;
  }
  return n;
}

// io_uring: the requests armed in the rings of this process.
static int ring_waits(void) {
  return sum_fdinfo("anon_inode:[io_uring]", armed, 0);
}

// Wait until the calls on fds[0..n) wait in the pool: each descriptor is
// in the pool's epoll set. The pool adds it at its first wait under the
// record's lock (pool_io.c), which the waiter holds until it has linked
// itself and parked, and which cacs_close and the poller take: an act seen
// after this finds the call waiting. From a pool coroutine (`in_pool`) or
// a thread. Gives up after 5 s (the test then fails, saying so).
static void await_parked(const int *fds, int n, int in_pool) {
  for (int tries = 0; tries < 5000; ++tries) {
    int i = 0;
    while (!uring && i < n && in_epoll_set(fds[i]))
      ++i;
    if (uring ? ring_waits() >= n : i == n)
      return;
    if (in_pool)
      cacs_pool_sleep(1000);
    else
      pause_ms(1);
  }
  printf("a call never waited\n");
  exit(1);
}

static void reader(void *arg) {
  char c;
  ssize_t n = cacs_read(mine[(long)arg], &c, 1, CACS_FOREVER);
  atomic_fetch_add(n == 0 ? &eof : &other, 1);
}

static void close_reader(void *arg) {
  (void)arg;
  char c;
  ssize_t n = cacs_read(mine[0], &c, 1, CACS_FOREVER);
  int e = err();
  printf("read: %zd %s\n", n, ename(e));
}

static void closer(void *arg) {
  (void)arg;
  await_parked(mine, 1, 1);
  cacs_close(mine[0]);
}

// Reads mine[0] with a timeout while a plain thread closes it with
// close(2) ("close2", "reuse"); then, in "reuse", reads the new socket
// that has its number.
static int64_t first_timeout = 300000;
static atomic_int first_done; // the first read returned
static void timed_reader(void *arg) {
  char c = 0;
  ssize_t n = cacs_read(mine[0], &c, 1, first_timeout);
  int e = err();
  printf("read: %zd %s\n", n, n < 0 ? ename(e) : "data");
  atomic_store(&first_done, 1);
  if (arg) {
    n = cacs_read(mine[0], &c, 1, 2000000);
    printf("read after reuse: %zd %c\n", n, n == 1 ? c : '?');
  }
}

// "closing": close() as libcacs calls it, which holds `hook_fd` open
// after `hooked` is set (the forget is done by then) until the reader's
// read(2) of it has failed with EAGAIN twice: its wait during the close
// returned to retry instead of parking. A wait that parks (registering
// the descriptor anew) is given 2 s to retry, then the close goes on.
static atomic_int hook_fd = -1, hooked, hook_eagain;
ssize_t read(int fd, void *buf, size_t n) {
  ssize_t r = syscall(SYS_read, fd, buf, n);
  if (r < 0 && errno == EAGAIN && atomic_load(&hooked) &&
      fd == atomic_load(&hook_fd))
    atomic_fetch_add(&hook_eagain, 1);
  return r;
}
int close(int fd) {
  if (fd == atomic_load(&hook_fd)) {
    atomic_store(&hooked, 1);
    for (int ms = 0; atomic_load(&hook_eagain) < 1 && ms < 5000; ++ms)
      pause_ms(1); // the reader begins
    for (int ms = 0; atomic_load(&hook_eagain) < 2 && ms < 2000; ++ms)
      pause_ms(1); // and retries
  }
  return (int)syscall(SYS_close, fd);
}

static void late_reader(void *arg) {
  (void)arg;
  while (!atomic_load(&hooked))
    cacs_pool_sleep(1000);
  char c;
  ssize_t n = cacs_read(mine[0], &c, 1, CACS_FOREVER);
  int e = err();
  printf("read: %zd %s\n", n, ename(e));
}

// "closingreuse": the read of the number's new (blocking) socket, and the
// write that ends it, from the same worker.
static int reuse_peer = -1;
static void reuse_reader(void *arg) {
  (void)arg;
  char c = 0;
  ssize_t n = cacs_read(mine[0], &c, 1, 2000000);
  printf("read after reuse: %zd %c\n", n, n == 1 ? c : '?');
}
static void reuse_writer(void *arg) {
  (void)arg;
  await_parked(mine, 1, 1); // the read waits in the pool
  if (cacs_write(reuse_peer, "x", 1, CACS_FOREVER) != 1)
    printf("write failed\n");
}

// A call that never waits: the pool makes its record of mine[0].
static void primer(void *arg) {
  (void)arg;
  char c;
  cacs_read(mine[0], &c, 1, 0);
}

static void *outside_closer(void *arg) {
  (void)arg;
  cacs_close(mine[0]);
  return NULL;
}

// "closeinread": the pool makes its poller in its first call of
// cacs/io.h, epoll instance first (pool_io.c); this program's
// epoll_create1, armed, has a plain thread cacs_close mine[0..2] there
// first, whose numbers are the lowest free ones then.
static atomic_int close_in_create;
static void *closer_of_three(void *arg) {
  (void)arg;
  for (int i = 0; i < 3; ++i)
    cacs_close(mine[i]);
  return NULL;
}
int epoll_create1(int flags) {
  if (atomic_exchange(&close_in_create, 0)) {
    pthread_t th;
    if (pthread_create(&th, NULL, closer_of_three, NULL) != 0)
      abort();
    pthread_join(th, NULL);
  }
  return (int)syscall(SYS_epoll_create1, flags);
}

static void print_result(const char *what, ssize_t n, int e) {
  if (n < 0)
    printf("%s: %zd %s\n", what, n, ename(e));
  else
    printf("%s: %zd\n", what, n);
}

static void first_caller(void *arg) {
  (void)arg;
  char c;
  ssize_t n = cacs_read(mine[0], &c, 1, CACS_FOREVER);
  print_result("read", n, err());
  uint64_t v = 1;
  n = cacs_write(mine[1], &v, sizeof v, CACS_FOREVER);
  print_result("write", n, err());
  n = cacs_read(mine[2], &v, sizeof v, 0);
  print_result("read (no wait)", n, err());
  n = cacs_wait_fd(mine[1], EPOLLOUT, 0);
  print_result("wait_fd", n, err());
}

static void filler(void *arg) {
  (void)arg;
  static char buf[65536];
  ssize_t n;
  while ((n = cacs_write(mine[0], buf, sizeof buf, CACS_FOREVER)) > 0) {
  }
  int e = err();
  printf("write: %zd %s\n", n, ename(e));
}


static atomic_int destroyed;
static void *destroyer(void *arg) {
  cacs_pool_destroy(arg);
  atomic_store(&destroyed, 1);
  return NULL;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "hangup";
  unsigned workers = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
  signal(SIGPIPE, SIG_IGN);
  h_watchdog(10);
  setvbuf(stdout, NULL, _IOLBF, 0);
  for (int i = 0; i < N; ++i) {
    int sv[2];
    if (!strcmp(mode, "shutdown") ? pipe(sv) != 0
                                  : socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
      return 1;
    mine[i] = sv[0];
    peer[i] = sv[1];
  }
  cacs_pool *p = cacs_pool_create(workers);
  pio_check_engine(p);
  cacs_pool_join(cacs_pool_spawn(p, ask_engine, NULL));
  if (!strcmp(mode, "hangup")) {
    cacs_pool_task *t[N];
    for (long i = 0; i < N; ++i)
      t[i] = cacs_pool_spawn(p, reader, (void *)i);
    await_parked(mine, N, 0);
    for (int i = 0; i < N; ++i)
      close(peer[i]);
    for (int i = 0; i < N; ++i)
      cacs_pool_join(t[i]);
    printf("eof=%d other=%d\n", atomic_load(&eof), atomic_load(&other));
  } else if (!strcmp(mode, "close")) {
    cacs_pool_task *r = cacs_pool_spawn(p, close_reader, NULL);
    cacs_pool_task *c = cacs_pool_spawn(p, closer, NULL);
    cacs_pool_join(r);
    cacs_pool_join(c);
  } else if (!strcmp(mode, "outside")) {
    cacs_pool_task *r = cacs_pool_spawn(p, close_reader, NULL);
    await_parked(mine, 1, 0);
    cacs_close(mine[0]);
    cacs_pool_join(r);
  } else if (!strcmp(mode, "closing") || !strcmp(mode, "closingreuse")) {
    cacs_pool_task *r = cacs_pool_spawn(p, late_reader, NULL);
    // The pool knows the descriptor before the close.
    cacs_pool_join(cacs_pool_spawn(p, primer, NULL));
    atomic_store(&hook_fd, mine[0]);
    pthread_t th;
    pthread_create(&th, NULL, outside_closer, NULL);
    cacs_pool_join(r);
    pthread_join(th, NULL);
    printf("retried during the close: %s\n",
           atomic_load(&hook_eagain) >= 2 ? "yes" : "no");
    if (!strcmp(mode, "closingreuse")) {
      int sv[2]; // blocking, as socketpair(2) makes them
      if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0 ||
          dup2(sv[0], mine[0]) != mine[0])
        return 1;
      reuse_peer = sv[1];
      cacs_pool_task *rr = cacs_pool_spawn(p, reuse_reader, NULL);
      cacs_pool_task *ww = cacs_pool_spawn(p, reuse_writer, NULL);
      cacs_pool_join(rr);
      cacs_pool_join(ww);
    }
  } else if (!strcmp(mode, "otherpool")) {
    cacs_pool_task *r = cacs_pool_spawn(p, close_reader, NULL);
    cacs_pool *q = cacs_pool_create(1);
    cacs_pool_task *c = cacs_pool_spawn(q, closer, NULL);
    cacs_pool_join(r);
    cacs_pool_join(c);
    cacs_pool_destroy(q);
  } else if (!strcmp(mode, "forever") || !strcmp(mode, "reuseforever")) {
    first_timeout = CACS_FOREVER;
    cacs_pool_task *r = cacs_pool_spawn(p, timed_reader, NULL);
    await_parked(mine, 1, 0);
    if (!strcmp(mode, "forever"))
      close(mine[0]);
    else if (dup2(mine[1], mine[0]) != mine[0])
      return 1;
    cacs_pool_join(r);
  } else if (!strcmp(mode, "close2") || !strcmp(mode, "reuse")) {
    int reuse = !strcmp(mode, "reuse");
    cacs_pool_task *r =
        cacs_pool_spawn(p, timed_reader, reuse ? (void *)1 : NULL);
    await_parked(mine, 1, 0);
    if (reuse) {
      // mine[1] now also answers to mine[0]'s number (its peer: peer[1]).
      if (dup2(mine[1], mine[0]) != mine[0])
        return 1;
      for (int ms = 0; !atomic_load(&first_done) && ms < 5000; ++ms)
        pause_ms(1); // past the timeout: the read failed with EBADF
      if (write(peer[1], "x", 1) != 1)
        return 1;
    } else {
      close(mine[0]);
    }
    cacs_pool_join(r);
  } else if (!strcmp(mode, "closeinread")) {
    atomic_store(&close_in_create, 1);
    cacs_pool_join(cacs_pool_spawn(p, first_caller, NULL));
    char path[64], link[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", mine[0]);
    ssize_t k = readlink(path, link, sizeof link - 1);
    link[k > 0 ? k : 0] = 0;
    printf("the closed number is the pool's epoll instance: %s\n",
           strcmp(link, "anon_inode:[eventpoll]") ? "no" : "yes");
  } else if (!strcmp(mode, "epipe")) {
    cacs_pool_task *f = cacs_pool_spawn(p, filler, NULL);
    await_parked(mine, 1, 0); // the socket is full
    close(peer[0]);
    cacs_pool_join(f);
  } else if (!strcmp(mode, "shutdown")) {
    for (long i = 0; i < N; ++i)
      cacs_pool_spawn(p, reader, (void *)i); // never joined: destroy waits
    await_parked(mine, N, 0);
    pthread_t th;
    pthread_create(&th, NULL, destroyer, p);
    pause_ms(100); // time to return, which it must not
    printf("destroy returned while waiting: %s\n",
           atomic_load(&destroyed) ? "yes" : "no");
    for (int i = 0; i < N; ++i)
      close(peer[i]);
    pthread_join(th, NULL);
    printf("destroy returned after the hangups: %s eof=%d\n",
           atomic_load(&destroyed) ? "yes" : "no", atomic_load(&eof));
    return 0;
  }
  cacs_pool_destroy(p);
  return 0;
}
