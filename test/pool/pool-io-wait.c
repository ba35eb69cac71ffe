// Waits of cacs/io.h in pool coroutines: timeouts, readiness racing a
// timeout, and an idle worker asleep in the pool's poller (epoll_wait)
// woken by a spawn from another thread.
//
// "timeout" (1 worker): a read of an empty pipe times out after its
// timeout, not before; timeout 0 fails at once; cacs_wait_fd times out,
// and returns 0 once the pipe has a byte.
// "race N": a plain thread writes one byte at a time at random moments
// while a pool coroutine reads each with a timeout about as long: readiness
// and the timeout race for the coroutine's one wake. Each read returns the
// byte or ETIMEDOUT (then it reads again without a timeout): no byte lost,
// none read twice, no other result.
// "pingpong N R": 4 pairs of coroutines send one byte back and forth over
// socketpairs R times: each side waits for the other's byte, so a
// readiness event lost between a call's EAGAIN and its wait (polled by
// another worker in between) hangs the pair for good; the watchdog fails
// the run.
// "tcp N": TCP over loopback: a pool coroutine accepts (cacs_accept) and
// spawns an echo coroutine per connection; 8 clients connect
// (cacs_connect) and send 200 messages of 1 to 3000 bytes each, reading
// each echo back in pieces of at most 1000 bytes: short reads mark the
// socket drained (the TCP readiness cache), and the next read then waits
// for the next event. Every byte must come back (the watchdog fails a
// lost wake-up).
// "kick": the only worker sleeps in epoll_wait (a coroutine waits on a
// pipe, no timer); another thread spawns a coroutine, which must run (the
// spawn kicks the poller's eventfd). A watchdog (alarm) fails the run if
// it does not.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t timeout | FileCheck %s --check-prefix=TIMEOUT
// RUN: %t race 1 300 | FileCheck %s --check-prefix=RACE
// RUN: %t race 2 300 | FileCheck %s --check-prefix=RACE
// RUN: %t pingpong 2 3000 | FileCheck %s --check-prefix=PINGPONG
// RUN: %t tcp 1 | FileCheck %s --check-prefix=TCP
// RUN: %t tcp 2 | FileCheck %s --check-prefix=TCP
// RUN: %t kick | FileCheck %s --check-prefix=KICK
// TIMEOUT: read: -1 ETIMEDOUT early=0
// TIMEOUT-NEXT: zero: -1 ETIMEDOUT
// TIMEOUT-NEXT: wait_fd: -1 ETIMEDOUT
// TIMEOUT-NEXT: ready: 0 read=1
// RACE: written=[[N:[0-9]+]] read=[[N]] bad=0
// PINGPONG: exchanged=[[N:[0-9]+]] expect=[[N]]
// TCP: clients=8 ok=8
// KICK: spawned ran: yes
// KICK-NEXT: waiter read: 1

#include "Inputs/pio-engine.h"
#include "cacs/io.h"
#include "cacs/pool.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

// errno read on the worker that runs the caller now (a pool coroutine
// may have moved since its last call).
__attribute__((noinline)) static int err(void) { return errno; }

static const char *ename(int e) {
  return e == ETIMEDOUT ? "ETIMEDOUT" : e == ECANCELED ? "ECANCELED" : "other";
}

static long long now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static int fds[2];

// --- timeout -------------------------------------------------------------

static void timeouts(void *arg) {
  (void)arg;
  char c;
  long long t0 = now_us();
  ssize_t n = cacs_read(fds[0], &c, 1, 20000);
  int e = err();
  printf("read: %zd %s early=%d\n", n, ename(e), now_us() - t0 < 20000);
  n = cacs_read(fds[0], &c, 1, 0);
  e = err();
  printf("zero: %zd %s\n", n, ename(e));
  int r = cacs_wait_fd(fds[0], EPOLLIN, 5000);
  e = err();
  printf("wait_fd: %d %s\n", r, ename(e));
  if (write(fds[1], "x", 1) != 1)
    return;
  r = cacs_wait_fd(fds[0], EPOLLIN, 5000);
  n = cacs_read(fds[0], &c, 1, 0);
  printf("ready: %d read=%zd\n", r, n);
}

// --- race ----------------------------------------------------------------

static int rounds;
static int nread, bad;

static void racer(void *arg) {
  (void)arg;
  for (int i = 0; i < rounds; ++i) {
    char c;
    ssize_t n = cacs_read(fds[0], &c, 1, 20 + i % 7 * 30);
    if (n < 0 && err() == ETIMEDOUT)
      n = cacs_read(fds[0], &c, 1, CACS_FOREVER);
    if (n != 1)
      bad++;
    else
      nread++;
  }
  // Nothing more may be waiting.
  char c;
  if (cacs_read(fds[0], &c, 1, 0) != -1 || err() != ETIMEDOUT)
    bad++;
}

static void *race_writer(void *arg) {
  (void)arg;
  unsigned s = 12345;
  for (int i = 0; i < rounds; ++i) {
    s = s * 1103515245u + 12345u;
    struct timespec ts = {0, (long)(s >> 8) % 250 * 1000};
    nanosleep(&ts, NULL);
    if (write(fds[1], "y", 1) != 1)
      abort();
  }
  return NULL;
}

// --- pingpong -------------------------------------------------------------

enum { PAIRS = 4 };
static int pairs[PAIRS][2];
static atomic_long exchanged;

static void ping(void *arg) {
  int fd = ((int *)arg)[0];
  char c = 'p';
  for (int i = 0; i < rounds; ++i)
    if (cacs_write(fd, &c, 1, CACS_FOREVER) != 1 ||
        cacs_read(fd, &c, 1, CACS_FOREVER) != 1)
      return;
    else
      atomic_fetch_add(&exchanged, 1);
}

static void pong(void *arg) {
  int fd = ((int *)arg)[1];
  char c;
  for (int i = 0; i < rounds; ++i)
    if (cacs_read(fd, &c, 1, CACS_FOREVER) != 1 ||
        cacs_write(fd, &c, 1, CACS_FOREVER) != 1)
      return;
}

// --- tcp --------------------------------------------------------------------

enum { CLIENTS = 8, MESSAGES = 200 };
static cacs_pool *tcp_pool;
static struct sockaddr_in tcp_addr;
static int tcp_lfd;
static atomic_int tcp_ok;

static void tcp_echo(void *arg) {
  int fd = (int)(long)arg;
  char buf[4096];
  ssize_t n;
  while ((n = cacs_read(fd, buf, sizeof buf, CACS_FOREVER)) > 0)
    if (cacs_write_all(fd, buf, (size_t)n, CACS_FOREVER) != n)
      break;
  cacs_close(fd);
}

static void tcp_acceptor(void *arg) {
  (void)arg;
  cacs_pool_task *t[CLIENTS];
  for (int i = 0; i < CLIENTS; ++i) {
    int fd = cacs_accept(tcp_lfd, NULL, NULL, CACS_FOREVER);
    t[i] = fd >= 0 ? cacs_pool_spawn(tcp_pool, tcp_echo, (void *)(long)fd) : 0;
  }
  for (int i = 0; i < CLIENTS; ++i)
    if (t[i])
      cacs_pool_join(t[i]);
}

static void tcp_client(void *arg) {
  unsigned s = 77u * (unsigned)(long)arg + 1;
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0 || cacs_connect(fd, (struct sockaddr *)&tcp_addr,
                             sizeof tcp_addr, 5000000) != 0)
    return;
  char out[3000], in[1000];
  int good = 1;
  for (int m = 0; m < MESSAGES && good; ++m) {
    s = s * 1103515245u + 12345u;
    size_t n = 1 + (s >> 8) % sizeof out;
    for (size_t i = 0; i < n; ++i)
      out[i] = (char)(s + i * 7);
    if (cacs_write_all(fd, out, n, CACS_FOREVER) != (ssize_t)n)
      good = 0;
    for (size_t got = 0; good && got < n;) {
      size_t want = n - got < sizeof in ? n - got : sizeof in;
      ssize_t k = cacs_read(fd, in, want, CACS_FOREVER);
      if (k <= 0 || memcmp(in, out + got, (size_t)k) != 0)
        good = 0;
      else
        got += (size_t)k;
    }
  }
  cacs_close(fd);
  if (good)
    atomic_fetch_add(&tcp_ok, 1);
}

// --- kick ----------------------------------------------------------------

static atomic_int ran;
static ssize_t waiter_got;

static void waiter(void *arg) {
  (void)arg;
  char c;
  waiter_got = cacs_read(fds[0], &c, 1, CACS_FOREVER);
}

static void spawned(void *arg) {
  (void)arg;
  atomic_store(&ran, 1);
}

static void on_alarm(int sig) {
  (void)sig;
  static const char m[] = "watchdog: a coroutine did not run\n";
  if (write(1, m, sizeof m - 1) < 0)
    _exit(2);
  _exit(1);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "timeout";
  if (pipe(fds) != 0)
    return 1;
  setvbuf(stdout, NULL, _IOLBF, 0);
  signal(SIGALRM, on_alarm);
  alarm(60);
  if (!strcmp(mode, "timeout")) {
    cacs_pool *p = cacs_pool_create(1);
    pio_check_engine(p);
    cacs_pool_join(cacs_pool_spawn(p, timeouts, NULL));
    cacs_pool_destroy(p);
  } else if (!strcmp(mode, "race")) {
    unsigned workers = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
    rounds = argc > 3 ? atoi(argv[3]) : 300;
    cacs_pool *p = cacs_pool_create(workers);
    pio_check_engine(p);
    cacs_pool_task *t = cacs_pool_spawn(p, racer, NULL);
    pthread_t th;
    pthread_create(&th, NULL, race_writer, NULL);
    pthread_join(th, NULL);
    cacs_pool_join(t);
    cacs_pool_destroy(p);
    printf("written=%d read=%d bad=%d\n", rounds, nread, bad);
  } else if (!strcmp(mode, "pingpong")) {
    unsigned workers = argc > 2 ? (unsigned)atoi(argv[2]) : 2;
    rounds = argc > 3 ? atoi(argv[3]) : 3000;
    cacs_pool *p = cacs_pool_create(workers);
    pio_check_engine(p);
    cacs_pool_task *t[2 * PAIRS];
    for (int i = 0; i < PAIRS; ++i) {
      if (socketpair(AF_UNIX, SOCK_STREAM, 0, pairs[i]) != 0)
        return 1;
      t[2 * i] = cacs_pool_spawn(p, ping, pairs[i]);
      t[2 * i + 1] = cacs_pool_spawn(p, pong, pairs[i]);
    }
    for (int i = 0; i < 2 * PAIRS; ++i)
      cacs_pool_join(t[i]);
    cacs_pool_destroy(p);
    printf("exchanged=%ld expect=%d\n", atomic_load(&exchanged),
           PAIRS * rounds);
  } else if (!strcmp(mode, "tcp")) {
    unsigned workers = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
    tcp_lfd = socket(AF_INET, SOCK_STREAM, 0);
    tcp_addr.sin_family = AF_INET;
    tcp_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof tcp_addr;
    if (tcp_lfd < 0 ||
        bind(tcp_lfd, (struct sockaddr *)&tcp_addr, sizeof tcp_addr) != 0 ||
        listen(tcp_lfd, CLIENTS) != 0 ||
        getsockname(tcp_lfd, (struct sockaddr *)&tcp_addr, &len) != 0)
      return 1;
    tcp_pool = cacs_pool_create(workers);
    pio_check_engine(tcp_pool);
    cacs_pool_task *a = cacs_pool_spawn(tcp_pool, tcp_acceptor, NULL);
    cacs_pool_task *c[CLIENTS];
    for (long i = 0; i < CLIENTS; ++i)
      c[i] = cacs_pool_spawn(tcp_pool, tcp_client, (void *)i);
    for (int i = 0; i < CLIENTS; ++i)
      cacs_pool_join(c[i]);
    cacs_pool_join(a);
    cacs_pool_destroy(tcp_pool);
    printf("clients=%d ok=%d\n", CLIENTS, atomic_load(&tcp_ok));
  } else if (!strcmp(mode, "kick")) {
    cacs_pool *p = cacs_pool_create(1);
    pio_check_engine(p);
    cacs_pool_task *w = cacs_pool_spawn(p, waiter, NULL);
    // Let the worker run out of work and sleep in epoll_wait.
    struct timespec ts = {0, 100 * 1000 * 1000};
    nanosleep(&ts, NULL);
    cacs_pool_join(cacs_pool_spawn(p, spawned, NULL));
    printf("spawned ran: %s\n", atomic_load(&ran) ? "yes" : "no");
    if (write(fds[1], "z", 1) != 1)
      return 1;
    cacs_pool_join(w);
    cacs_pool_destroy(p);
    printf("waiter read: %zd\n", waiter_got);
  }
  return 0;
}
