// Stress: pool coroutines on 3 workers do every kind of cacs/io.h wait at
// once, with random sizes, yields, sleeps and timeouts, so that waits end
// by readiness, by timeout and by a close, polled by any worker:
//   pipes   a writer streams numbered bytes into a pipe (cacs_write, random
//           sizes and timeouts, so the pipe fills and it waits to write), a
//           reader reads them (cacs_read, small random sizes, timeouts) and
//           checks each byte; the writer's cacs_close ends the stream;
//   pairs   a client and an echo coroutine on a socketpair (cacs_send,
//           cacs_wait_fd + cacs_recv, cacs_write_all, cacs_readv);
//   tcp     clients cacs_connect to a loopback listener, acceptors
//           cacs_accept with timeouts, and a coroutine per connection
//           echoes one message and cacs_closes it;
//   races   a reader waits on a socket (no timeout, or a short one) while
//           its driver, after a random delay, closes it (cacs_close),
//           forgets it (cacs_io_forget) then sends a byte, or just sends
//           one: the read must end with the byte, ECANCELED, EBADF (the
//           read came after the close) or ETIMEDOUT, never hang (alarm).
// Bounded in time: no new operation starts after the window (argv[1] ms).
// At the end every count balances (IO_STRESS_COUNTS=1 in the environment
// prints the counts); in the default (pinned) mode no started
// coroutine ever resumed on another worker, with CACS_POOL_MIGRATE_RUNNING
// some did.
//
// libcacs and its I/O module built with ThreadSanitizer (its fiber
// annotations follow the coroutines across workers): no report. One kind
// of race is the test's on purpose and is suppressed: TSan counts a
// descriptor's close(2) as a write to it, and a race's close may come
// while its reader is in read(2) (before its wait orders the two through
// the record's lock) -- what a close racing a wait is. (The pattern names
// TSan's interceptor of close(2), ___interceptor_close.)
// RUN: echo 'race:interceptor_close$' > %t.supp
// RUN: %clang -O1 -g -fsanitize=thread -fcoroutine-migration -I%cacs_include %s $(%cacs_rt_objs --io %clang -O1 -g -fsanitize=thread -fcoroutine-migration -I%cacs_include) -lpthread -o %t.tsan
// RUN: env TSAN_OPTIONS="halt_on_error=1 suppressions=%t.supp" %t.tsan 1500 pinned 2>&1 | FileCheck %s --check-prefix=PINNED
// RUN: env TSAN_OPTIONS="halt_on_error=1 suppressions=%t.supp" %t.tsan 1500 migrate 2>&1 | FileCheck %s --check-prefix=MIGRATE
// RUN: %clang -O2 -fcoroutine-migration -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 1000 pinned 2>&1 | FileCheck %s --check-prefix=PINNED
// RUN: %t 1000 migrate 2>&1 | FileCheck %s --check-prefix=MIGRATE
//
// PINNED-NOT: ThreadSanitizer
// PINNED: io-stress: ops > 0 1, pipes ok 1, pairs ok 1, tcp ok 1, races ok 1, cancelled > 0 1, migrated 0
// MIGRATE-NOT: ThreadSanitizer
// MIGRATE: io-stress: ops > 0 1, pipes ok 1, pairs ok 1, tcp ok 1, races ok 1, cancelled > 0 1, migrated 1

#define _GNU_SOURCE 1
#include "Inputs/pio-engine.h"
#include "Inputs/ptest.h"
#include "cacs/io.h"
#include "cacs/pool.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

enum {
  WORKERS = 3,
  PIPES = 3,
  PAIRS = 3,
  CLIENTS = 4,
  ACCEPTORS = 2,
  RACES = 4,
  // The races' descriptors live at fixed numbers far above any the kernel
  // hands out here (it takes the lowest free one), so that a read that
  // comes after its descriptor's close finds the number closed (EBADF),
  // never reused by another part of the test.
  RACE_FD0 = 900,
};

// errno read on the worker that runs the caller now.
__attribute__((noinline)) static int err(void) { return errno; }

static uint64_t end_ns;
static int over(void) { return h_now_ns() >= end_ns; }

static atomic_long ops, bad, migrated;
static cacs_pool *the_pool;

// A random timeout in microseconds: none, zero, or 0.1 to 5 ms.
static int64_t rnd_timeout(uint64_t *s) {
  uint32_t k = h_rand(s) % 8;
  return k == 0 ? CACS_FOREVER : k == 1 ? 0 : 100 + h_rand(s) % 5000;
}

// Now and then a yield or a short sleep; notes a resumption elsewhere.
static void jitter(uint64_t *s) {
  uint32_t k = h_rand(s) % 16;
  int before = cacs_pool_worker_index();
  if (k == 0)
    cacs_pool_yield();
  else if (k == 1)
    cacs_pool_sleep(h_rand(s) % 300);
  if (cacs_pool_worker_index() != before)
    atomic_fetch_add(&migrated, 1);
}

// A wait of cacs/io.h ended: count a resumption on another worker.
static void after_wait(int before) {
  if (cacs_pool_worker_index() != before)
    atomic_fetch_add(&migrated, 1);
}

// --- pipes -------------------------------------------------------------------

static int pipe_fd[PIPES][2];
static atomic_long pipe_written[PIPES], pipe_read[PIPES];

static void pipe_writer(void *arg) {
  long i = (long)arg;
  uint64_t s = 0x9e3779b97f4a7c15u * (uint64_t)(i + 1);
  unsigned char buf[8192];
  long seq = 0;
  while (!over()) {
    size_t n = 1 + h_rand(&s) % sizeof buf;
    for (size_t k = 0; k < n; ++k)
      buf[k] = (unsigned char)((seq + (long)k) % 251);
    int w = cacs_pool_worker_index();
    ssize_t m = cacs_write(pipe_fd[i][1], buf, n, rnd_timeout(&s));
    after_wait(w);
    if (m > 0) {
      seq += m;
      atomic_fetch_add(&ops, 1);
    } else if (!(m < 0 && err() == ETIMEDOUT)) {
      atomic_fetch_add(&bad, 1);
      break;
    }
    jitter(&s);
  }
  atomic_store(&pipe_written[i], seq);
  H_CHECK(cacs_close(pipe_fd[i][1]) == 0); // the reader sees end of file
}

static void pipe_reader(void *arg) {
  long i = (long)arg;
  uint64_t s = 0xd1b54a32d192ed03u * (uint64_t)(i + 1);
  unsigned char buf[512];
  long seq = 0;
  for (;;) {
    size_t n = 1 + h_rand(&s) % sizeof buf;
    int w = cacs_pool_worker_index();
    // A timeout only while the writer may still write: past the window a
    // read waits for the end of file.
    ssize_t m = cacs_read(pipe_fd[i][0], buf, n,
                          over() ? CACS_FOREVER : rnd_timeout(&s));
    after_wait(w);
    if (m == 0)
      break;
    if (m < 0) {
      if (err() != ETIMEDOUT) {
        atomic_fetch_add(&bad, 1);
        break;
      }
      continue;
    }
    for (ssize_t k = 0; k < m; ++k)
      if (buf[k] != (unsigned char)((seq + k) % 251)) {
        atomic_fetch_add(&bad, 1);
        break;
      }
    seq += m;
    if (h_rand(&s) % 8 == 0) // let the pipe fill: the writer waits
      cacs_pool_sleep(h_rand(&s) % 500);
    jitter(&s);
  }
  atomic_store(&pipe_read[i], seq);
  H_CHECK(cacs_close(pipe_fd[i][0]) == 0);
}

// --- socketpairs -------------------------------------------------------------

static int pair_fd[PAIRS][2];
static atomic_long pair_sent[PAIRS], pair_echoed[PAIRS], pair_back[PAIRS];

static void pair_client(void *arg) {
  long i = (long)arg;
  uint64_t s = 0xa0761d6478bd642fu * (uint64_t)(i + 1);
  int fd = pair_fd[i][0];
  long seq = 0, back = 0;
  while (!over()) {
    uint64_t msg[4] = {(uint64_t)seq, (uint64_t)seq * 3, (uint64_t)~seq,
                       (uint64_t)i};
    int w = cacs_pool_worker_index();
    if (cacs_send(fd, msg, sizeof msg, 0, CACS_FOREVER) != sizeof msg) {
      atomic_fetch_add(&bad, 1);
      break;
    }
    ++seq;
    uint64_t got[4];
    size_t have = 0;
    while (have < sizeof got) {
      // The rest of the message in two pieces (a short read may come).
      char *at = (char *)got + have;
      struct iovec iov[2] = {{at, have < 16 ? 16 - have : sizeof got - have},
                             {(char *)got + 16, 16}};
      // A short timeout retried: the echo answers within the window.
      ssize_t m = cacs_readv(fd, iov, have < 16 ? 2 : 1, rnd_timeout(&s));
      if (m < 0 && err() == ETIMEDOUT)
        continue;
      if (m <= 0) {
        atomic_fetch_add(&bad, 1);
        goto out;
      }
      have += (size_t)m;
    }
    after_wait(w);
    if (memcmp(got, msg, sizeof msg) != 0)
      atomic_fetch_add(&bad, 1);
    ++back;
    atomic_fetch_add(&ops, 1);
    jitter(&s);
  }
out:
  atomic_store(&pair_sent[i], seq);
  atomic_store(&pair_back[i], back);
  H_CHECK(cacs_close(fd) == 0); // the echo sees end of file
}

static void pair_echo(void *arg) {
  long i = (long)arg;
  uint64_t s = 0xe7037ed1a0b428dbu * (uint64_t)(i + 1);
  int fd = pair_fd[i][1];
  long echoed = 0;
  char buf[64];
  for (;;) {
    int w = cacs_pool_worker_index();
    if (cacs_wait_fd(fd, EPOLLIN, CACS_FOREVER) != 0) {
      atomic_fetch_add(&bad, 1);
      break;
    }
    after_wait(w);
    ssize_t m = cacs_recv(fd, buf, 1 + h_rand(&s) % sizeof buf, 0, 0);
    if (m == 0)
      break;
    if (m < 0) {
      if (err() != ETIMEDOUT) { // woken, then another event took it: 0
        atomic_fetch_add(&bad, 1);
        break;
      }
      continue;
    }
    jitter(&s);
    if (cacs_write_all(fd, buf, (size_t)m, CACS_FOREVER) != m) {
      atomic_fetch_add(&bad, 1);
      break;
    }
    echoed += m;
  }
  atomic_store(&pair_echoed[i], echoed);
  H_CHECK(cacs_close(fd) == 0);
}

// --- loopback TCP ------------------------------------------------------------

static int lfd;
static struct sockaddr_in laddr;
static atomic_long tcp_connected, tcp_accepted, tcp_handled, tcp_ok;
static atomic_int clients_left = CLIENTS;

static void tcp_handler(void *arg) {
  int c = (int)(long)arg;
  char buf[16];
  size_t have = 0;
  while (have < sizeof buf) {
    ssize_t m = cacs_read(c, buf + have, sizeof buf - have, 2000000);
    if (m <= 0)
      break;
    have += (size_t)m;
  }
  if (have == sizeof buf &&
      cacs_write_all(c, buf, sizeof buf, 2000000) == sizeof buf)
    atomic_fetch_add(&tcp_handled, 1);
  else
    atomic_fetch_add(&bad, 1);
  H_CHECK(cacs_close(c) == 0);
}

static void tcp_acceptor(void *arg) {
  uint64_t s = 0x8ebc6af09c88c6e3u * (uint64_t)((long)arg + 1);
  for (;;) {
    int w = cacs_pool_worker_index();
    int c = cacs_accept(lfd, NULL, NULL, 100 + h_rand(&s) % 3000);
    after_wait(w);
    if (c < 0) {
      if (err() != ETIMEDOUT) {
        atomic_fetch_add(&bad, 1);
        return;
      }
      if (atomic_load(&clients_left) == 0)
        return; // every client is done: nothing more will connect
      continue;
    }
    atomic_fetch_add(&tcp_accepted, 1);
    H_CHECK(cacs_pool_spawn_detached(the_pool, tcp_handler, (void *)(long)c) ==
          0);
  }
}

static void tcp_client(void *arg) {
  uint64_t s = 0x589965cc75374cc3u * (uint64_t)((long)arg + 1);
  while (!over()) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    H_CHECK(fd >= 0);
    int w = cacs_pool_worker_index();
    if (cacs_connect(fd, (struct sockaddr *)&laddr, sizeof laddr, 2000000)) {
      atomic_fetch_add(&bad, 1);
      H_CHECK(cacs_close(fd) == 0);
      break;
    }
    after_wait(w);
    atomic_fetch_add(&tcp_connected, 1);
    uint64_t msg[2] = {h_rand(&s), (uint64_t)(long)arg};
    char got[16];
    size_t have = 0;
    if (cacs_write_all(fd, msg, sizeof msg, 2000000) != sizeof msg)
      atomic_fetch_add(&bad, 1);
    while (have < sizeof got) {
      ssize_t m = cacs_read(fd, got + have, sizeof got - have, 2000000);
      if (m <= 0)
        break;
      have += (size_t)m;
    }
    if (have == sizeof got && memcmp(got, msg, sizeof msg) == 0) {
      atomic_fetch_add(&tcp_ok, 1);
      atomic_fetch_add(&ops, 1);
    } else {
      atomic_fetch_add(&bad, 1);
    }
    H_CHECK(cacs_close(fd) == 0);
    jitter(&s);
  }
  atomic_fetch_sub(&clients_left, 1);
}

// --- close races -------------------------------------------------------------

static atomic_long race_rounds, race_data, race_cancelled, race_badf,
    race_timedout, race_other;

struct race {
  int fd; // RACE_FD0 + slot
  int64_t timeout;
  atomic_int started;
};

static void race_reader(void *arg) {
  struct race *r = arg;
  char c;
  atomic_store(&r->started, 1);
  ssize_t m = cacs_read(r->fd, &c, 1, r->timeout);
  int e = m < 0 ? err() : 0;
  if (m == 1 && c == 'x')
    atomic_fetch_add(&race_data, 1);
  else if (m < 0 && e == ECANCELED)
    atomic_fetch_add(&race_cancelled, 1);
  else if (m < 0 && e == EBADF)
    atomic_fetch_add(&race_badf, 1);
  else if (m < 0 && e == ETIMEDOUT)
    atomic_fetch_add(&race_timedout, 1);
  else
    atomic_fetch_add(&race_other, 1);
}

static void race_driver(void *arg) {
  long slot = (long)arg;
  uint64_t s = 0x2d358dccaa6c78a5u * (uint64_t)(slot + 1);
  cacs_pool *p = the_pool;
  while (!over()) {
    int sv[2];
    H_CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    struct race r = {RACE_FD0 + (int)slot, 0, 0};
    // sv[0] was never waited on: close(2) is enough for it.
    H_CHECK(dup2(sv[0], r.fd) == r.fd && close(sv[0]) == 0);
    r.timeout = h_rand(&s) % 2 ? CACS_FOREVER : 200 + h_rand(&s) % 2000;
    cacs_pool_task *t = cacs_pool_spawn(p, race_reader, &r);
    H_CHECK(t);
    while (!atomic_load(&r.started))
      cacs_pool_yield();
    if (h_rand(&s) % 2)
      cacs_pool_sleep(h_rand(&s) % 1500);
    else
      for (uint32_t k = h_rand(&s) % 4; k > 0; --k)
        cacs_pool_yield();
    int closed = 0;
    switch (h_rand(&s) % 3) {
    case 0: // close while it waits (or before it reads: EBADF)
      H_CHECK(cacs_close(r.fd) == 0);
      closed = 1;
      break;
    case 1: // forget: ECANCELED if it waited, else it goes on; then a byte
      cacs_io_forget(r.fd);
      H_CHECK(write(sv[1], "x", 1) == 1);
      break;
    default:
      H_CHECK(write(sv[1], "x", 1) == 1);
    }
    H_CHECK(cacs_pool_join(t) == 0);
    if (!closed)
      H_CHECK(cacs_close(r.fd) == 0);
    H_CHECK(close(sv[1]) == 0);
    atomic_fetch_add(&race_rounds, 1);
    atomic_fetch_add(&ops, 1);
  }
}

// --- main --------------------------------------------------------------------


int main(int argc, char **argv) {
  int window_ms = argc > 1 ? atoi(argv[1]) : 1000;
  int migrate = argc > 2 && !strcmp(argv[2], "migrate");
  signal(SIGPIPE, SIG_IGN);
  h_watchdog(60);
  setvbuf(stdout, NULL, _IOLBF, 0);

  for (int i = 0; i < PIPES; ++i)
    H_CHECK(pipe2(pipe_fd[i], O_CLOEXEC) == 0);
  for (int i = 0; i < PAIRS; ++i)
    H_CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair_fd[i]) == 0);
  lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  H_CHECK(lfd >= 0);
  laddr.sin_family = AF_INET;
  laddr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof laddr;
  H_CHECK(bind(lfd, (struct sockaddr *)&laddr, sizeof laddr) == 0 &&
        listen(lfd, 128) == 0 &&
        getsockname(lfd, (struct sockaddr *)&laddr, &len) == 0);

  cacs_pool_attr attr = {WORKERS, 0,
                         migrate ? CACS_POOL_MIGRATE_RUNNING
                                 : CACS_POOL_MIGRATE_UNSTARTED};
  the_pool = cacs_pool_create_ex(&attr);
  H_CHECK(the_pool);
  pio_check_engine(the_pool);
  end_ns = h_now_ns() + (uint64_t)window_ms * 1000000u;
  cacs_pool_task *t[64];
  int nt = 0;
  for (long i = 0; i < PIPES; ++i) {
    t[nt++] = cacs_pool_spawn(the_pool, pipe_reader, (void *)i);
    t[nt++] = cacs_pool_spawn(the_pool, pipe_writer, (void *)i);
  }
  for (long i = 0; i < PAIRS; ++i) {
    t[nt++] = cacs_pool_spawn(the_pool, pair_echo, (void *)i);
    t[nt++] = cacs_pool_spawn(the_pool, pair_client, (void *)i);
  }
  for (long i = 0; i < ACCEPTORS; ++i)
    t[nt++] = cacs_pool_spawn(the_pool, tcp_acceptor, (void *)i);
  for (long i = 0; i < CLIENTS; ++i)
    t[nt++] = cacs_pool_spawn(the_pool, tcp_client, (void *)i);
  for (long i = 0; i < RACES; ++i)
    t[nt++] = cacs_pool_spawn(the_pool, race_driver, (void *)i);
  for (int i = 0; i < nt; ++i)
    H_CHECK(t[i] && cacs_pool_join(t[i]) == 0);
  H_CHECK(cacs_pool_destroy(the_pool) == 0); // the detached handlers too
  close(lfd);

  int pipes_ok = 1, pairs_ok = 1;
  for (int i = 0; i < PIPES; ++i)
    pipes_ok &= atomic_load(&pipe_written[i]) == atomic_load(&pipe_read[i]) &&
                atomic_load(&pipe_written[i]) > 0;
  for (int i = 0; i < PAIRS; ++i)
    pairs_ok &=
        atomic_load(&pair_back[i]) == atomic_load(&pair_sent[i]) &&
        atomic_load(&pair_echoed[i]) == 32 * atomic_load(&pair_sent[i]) &&
        atomic_load(&pair_sent[i]) > 0;
  long conn = atomic_load(&tcp_connected);
  int tcp_ok_ = conn > 0 && conn == atomic_load(&tcp_accepted) &&
                conn == atomic_load(&tcp_handled) &&
                conn == atomic_load(&tcp_ok);
  long rounds = atomic_load(&race_rounds);
  int races_ok =
      rounds > 0 && atomic_load(&race_other) == 0 &&
      rounds == atomic_load(&race_data) + atomic_load(&race_cancelled) +
                    atomic_load(&race_badf) + atomic_load(&race_timedout);
  if (atomic_load(&bad) || !pipes_ok || !pairs_ok || !tcp_ok_ || !races_ok ||
      getenv("IO_STRESS_COUNTS"))
    fprintf(stderr,
            "ops=%ld bad=%ld conn=%ld acc=%ld handled=%ld ok=%ld rounds=%ld "
            "data=%ld "
            "cancelled=%ld badf=%ld timedout=%ld other=%ld\n",
            atomic_load(&ops), atomic_load(&bad), conn,
            atomic_load(&tcp_accepted), atomic_load(&tcp_handled),
            atomic_load(&tcp_ok), rounds, atomic_load(&race_data),
            atomic_load(&race_cancelled), atomic_load(&race_badf),
            atomic_load(&race_timedout), atomic_load(&race_other));
  printf("io-stress: ops > 0 %d, pipes ok %d, pairs ok %d, tcp ok %d, races "
         "ok %d, cancelled > 0 %d, migrated %d\n",
         atomic_load(&ops) > 0 && atomic_load(&bad) == 0, pipes_ok, pairs_ok,
         tcp_ok_, races_ok, atomic_load(&race_cancelled) > 0,
         atomic_load(&migrated) > 0);
  return 0;
}
