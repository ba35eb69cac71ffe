// Soak: an M:N pool whose coroutines, all at once and for as long as asked,
//   streams  write random bytes over socketpairs to an echo coroutine and
//            read them back (cacs_write / cacs_read with random timeouts, a
//            writer and a reader on one descriptor);
//   tcp      connect to a loopback listener, send messages and read each
//            back (cacs_connect, cacs_accept, cacs_write_all), the echo of
//            each accepted connection a detached coroutine;
//   thread   coroutines of a plain thread (cacs/coro.h's scheduler, whose
//            I/O runs on the engine CACS_IO_ENGINE picks) talk to echo
//            coroutines of the pool;
//   sync     lock the pool's mutexes (both kinds), its reader-writer lock
//            and semaphore, pass values through a bounded queue on a
//            condition variable and through a channel, fan out children
//            and wait for them with a wait group, sleep and time out --
//            from pool coroutines and from a plain thread.
// Every byte of every connection is checksummed (FNV-1a) where it is
// written, where it is echoed and where it is read back; every lock counts
// its holders; every value sent through the queue and the channel is
// summed on both sides; every sleep and timeout is timed. At the end it
// prints the totals and exits 1 on any mismatch.
//
//   soak [-t SECONDS] [-s SEED] [-w WORKERS] [-m]
//     -t  how long to start new operations (default 2; fractions allowed)
//     -s  the seed of every coroutine's generator (default 1)
//     -w  worker threads (default 3)
//     -m  CACS_POOL_MIGRATE_RUNNING (build with -fcoroutine-migration)
//
// Faults, to see the checks fire (never in the suite's builds):
//   -DSOAK_FAULT=1  the first stream echo drops one byte once;
//   -DSOAK_FAULT=2  one channel receive forgets its value;
//   -DSOAK_FAULT=3  one mutex section runs without the lock.
// scripts/soak builds and runs it; test/pool/soak-slice.test runs a slice.

#define _GNU_SOURCE 1
#include "cacs/coro.h"
#include "cacs/io.h"
#include "cacs/pool.h"
#include "cacs/pool_sync.h"
#include "ptest.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SOAK_FAULT
#define SOAK_FAULT 0
#endif

enum {
  STREAMS = 6,
  CLIENTS = 4,
  ACCEPTORS = 2,
  THREAD_CONNS = 3,
  SYNC_TASKS = 16,
  SEM_UNITS = 3,
  QUEUE = 8,
  MAXMSG = 64 * 1024,
  TCPMSG = 16 * 1024,
};

// Counters are relaxed: an acquire-release here would order the coroutines
// for ThreadSanitizer and hide a missing lock.
#define ADD(p, v) atomic_fetch_add_explicit(p, v, memory_order_relaxed)
#define SUB(p, v) atomic_fetch_sub_explicit(p, v, memory_order_relaxed)
#define LOAD(p) atomic_load_explicit(p, memory_order_relaxed)

static uint64_t end_ns, seed0 = 1;
static int over(void) { return h_now_ns() >= end_ns; }

// errno of the worker that runs the caller now (it may have moved).
__attribute__((noinline)) static int err(void) { return errno; }

static atomic_long ops, bad, bytes;
static cacs_pool *the_pool;

#define BAD(what)                                                              \
  do {                                                                         \
    fprintf(stderr, "soak: %s (line %d, errno %d)\n", what, __LINE__, err());  \
    ADD(&bad, 1);                                                              \
  } while (0)

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}
#define FNV0 0xcbf29ce484222325ull

static uint64_t seed_of(uint64_t kind, uint64_t i) {
  uint64_t s =
      (seed0 + kind * 0x9e3779b97f4a7c15ull) ^ (i * 0xd1b54a32d192ed03ull);
  return s ? s : 1;
}

// A random timeout in microseconds: none, zero, or 0.1 to 3 ms.
static int64_t rnd_timeout(uint64_t *s) {
  uint32_t k = h_rand(s) % 8;
  return k == 0 ? CACS_FOREVER : k == 1 ? 0 : 100 + h_rand(s) % 3000;
}

static void jitter(uint64_t *s) {
  uint32_t k = h_rand(s) % 32;
  if (!cacs_pool_current())
    return;
  if (k == 0)
    cacs_pool_yield();
  else if (k == 1)
    cacs_pool_sleep(h_rand(s) % 300);
}

// --- the echo: pool coroutines on streams, TCP and the thread's pairs -------

struct tally {
  atomic_ulong sum; // the sum of the connections' checksums
  atomic_long n;    // their bytes
};
static struct tally stream_echo, tcp_sent, tcp_echo, tcp_back, thr_sent,
    thr_echo, thr_back;

struct echo_arg {
  int fd;
  int tcp; // a detached TCP handler: closes and counts in `t` itself
  struct tally *t;
  uint64_t seed;
};

// Read up to MAXMSG bytes (a random count): on a stream with a random
// timeout, retried; on TCP with a long one, an error. \return > 0 bytes, 0
// at end of file, or -1 (counted bad) on an error.
static ssize_t read_some(int fd, unsigned char *buf, uint64_t *s, int tcp,
                         const char *who) {
  for (;;) {
    ssize_t m = cacs_read(fd, buf, 1 + h_rand(s) % MAXMSG,
                          tcp ? 10000000 : rnd_timeout(s));
    if (m >= 0)
      return m;
    if (tcp || err() != ETIMEDOUT) {
      BAD(who);
      return -1;
    }
  }
}

// Echo what comes until end of file, then shut the write side down.
static void echo(void *arg) {
  struct echo_arg *a = arg, own = *a;
  if (a->tcp)
    free(a);
  uint64_t s = own.seed, h = FNV0;
  long n = 0;
  unsigned char *buf = malloc(MAXMSG);
  H_CHECK(buf);
  ssize_t m;
  while ((m = read_some(own.fd, buf, &s, own.tcp, "echo: read")) > 0) {
    h = fnv(h, buf, (size_t)m);
    n += m;
    ssize_t w = m;
#if SOAK_FAULT == 1
    static atomic_int dropped;
    if (!own.tcp && own.t == &stream_echo && n > 100000 && m > 1 &&
        !atomic_exchange(&dropped, 1)) {
      w = m - 1; // one byte lost
      fprintf(stderr, "soak: fault 1: a byte dropped\n");
    }
#endif
    jitter(&s);
    if (cacs_write_all(own.fd, buf, (size_t)w, CACS_FOREVER) != w) {
      BAD("echo: write");
      break;
    }
  }
  free(buf);
  ADD(&own.t->sum, h);
  ADD(&own.t->n, n);
  if (shutdown(own.fd, SHUT_WR) != 0 && err() != ENOTCONN)
    BAD("echo: shutdown");
  if (own.tcp)
    H_CHECK(cacs_close(own.fd) == 0);
}

// --- streams: a writer and a reader on one end, the echo on the other -------

struct stream {
  int fd[2];
  struct echo_arg ea;
  uint64_t sum_sent, sum_back;
  long sent, back;
} streams[STREAMS];

static void stream_writer(void *arg) {
  struct stream *st = arg;
  uint64_t s = seed_of(1, (uint64_t)(st - streams)), h = FNV0;
  unsigned char *buf = malloc(MAXMSG);
  H_CHECK(buf);
  long sent = 0;
  while (!over()) {
    size_t n = 1 + h_rand(&s) % MAXMSG, off = 0;
    for (size_t k = 0; k < n; ++k)
      buf[k] = (unsigned char)h_rand(&s);
    while (off < n) {
      ssize_t m = cacs_write(st->fd[0], buf + off, n - off, rnd_timeout(&s));
      if (m < 0 && err() == ETIMEDOUT)
        continue;
      if (m <= 0) {
        BAD("stream: write");
        goto out;
      }
      h = fnv(h, buf + off, (size_t)m);
      off += (size_t)m;
    }
    sent += (long)n;
    ADD(&ops, 1);
    jitter(&s);
  }
out:
  free(buf);
  st->sum_sent = h;
  st->sent = sent;
  H_CHECK(shutdown(st->fd[0], SHUT_WR) == 0); // the echo sees end of file
}

static void stream_reader(void *arg) {
  struct stream *st = arg;
  uint64_t s = seed_of(2, (uint64_t)(st - streams)), h = FNV0;
  unsigned char *buf = malloc(MAXMSG);
  H_CHECK(buf);
  long back = 0;
  ssize_t m;
  while ((m = read_some(st->fd[0], buf, &s, 0, "stream: read")) > 0) {
    h = fnv(h, buf, (size_t)m);
    back += m;
    if (h_rand(&s) % 8 == 0) // let the socket fill: the writers wait
      cacs_pool_sleep(h_rand(&s) % 1000);
  }
  free(buf);
  st->sum_back = h;
  st->back = back;
}

// --- loopback TCP -----------------------------------------------------------

static int lfd;
static struct sockaddr_in laddr;
static atomic_int clients_left = CLIENTS;
static atomic_long tcp_conns, tcp_accepted;

// A listener on a free port of 127.0.0.1, its address in `a`.
static int listen_loopback(struct sockaddr_in *a) {
  *a = (struct sockaddr_in){.sin_family = AF_INET,
                            .sin_addr = {htonl(INADDR_LOOPBACK)}};
  socklen_t len = sizeof *a;
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0 || bind(fd, (struct sockaddr *)a, len) != 0 ||
      listen(fd, 128) != 0 || getsockname(fd, (struct sockaddr *)a, &len) != 0)
    return -1;
  return fd;
}

static void acceptor(void *arg) {
  uint64_t s = seed_of(3, (uint64_t)(long)arg);
  for (;;) {
    int c = cacs_accept(lfd, NULL, NULL, 100 + h_rand(&s) % 5000);
    if (c < 0) {
      if (err() != ETIMEDOUT) {
        BAD("accept");
        return;
      }
      if (LOAD(&clients_left) == 0)
        return;
      continue;
    }
    ADD(&tcp_accepted, 1);
    struct echo_arg *a = malloc(sizeof *a);
    H_CHECK(a);
    *a = (struct echo_arg){c, 1, &tcp_echo, h_rand(&s) | 1};
    H_CHECK(cacs_pool_spawn_detached(the_pool, echo, a) == 0);
  }
}

// Send `n` random bytes and read them back on `fd`; add both checksums.
static int round_trip(int fd, unsigned char *buf, size_t n, uint64_t *s,
                      uint64_t *hs, uint64_t *hb, int64_t tmo) {
  for (size_t k = 0; k < n; ++k)
    buf[k] = (unsigned char)h_rand(s);
  if (cacs_write_all(fd, buf, n, tmo) != (ssize_t)n)
    return -1;
  *hs = fnv(*hs, buf, n);
  size_t have = 0;
  while (have < n) {
    ssize_t m = cacs_read(fd, buf + have, n - have, tmo);
    if (m <= 0)
      return -1;
    have += (size_t)m;
  }
  *hb = fnv(*hb, buf, n);
  return 0;
}

static void tcp_client(void *arg) {
  uint64_t s = seed_of(4, (uint64_t)(long)arg);
  unsigned char *buf = malloc(TCPMSG);
  H_CHECK(buf);
  while (!over()) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    H_CHECK(fd >= 0);
    if (cacs_connect(fd, (struct sockaddr *)&laddr, sizeof laddr, 10000000)) {
      BAD("tcp: connect");
      H_CHECK(cacs_close(fd) == 0);
      break;
    }
    ADD(&tcp_conns, 1);
    uint64_t hs = FNV0, hb = FNV0;
    long n = 0;
    for (uint32_t r = 1 + h_rand(&s) % 8; r > 0; --r) {
      size_t len = 1 + h_rand(&s) % TCPMSG;
      if (round_trip(fd, buf, len, &s, &hs, &hb, 10000000)) {
        BAD("tcp: round trip");
        break;
      }
      n += (long)len;
      ADD(&ops, 1);
      jitter(&s);
    }
    if (hs != hb)
      BAD("tcp: checksum");
    ADD(&tcp_sent.sum, hs);
    ADD(&tcp_sent.n, n);
    ADD(&tcp_back.sum, hb);
    ADD(&tcp_back.n, n);
    // End of file to the echo, then its end of file: it read everything.
    char c;
    if (shutdown(fd, SHUT_WR) != 0 || cacs_read(fd, &c, 1, 10000000) != 0)
      BAD("tcp: end");
    H_CHECK(cacs_close(fd) == 0);
  }
  free(buf);
  SUB(&clients_left, 1);
}

// --- a plain thread's coroutines, on its own I/O engine ---------------------

static int thr_fd[THREAD_CONNS][2];
static struct echo_arg thr_ea[THREAD_CONNS];
static int thr_engine;

static void thr_client(void *arg) {
  long i = (long)arg;
  uint64_t s = seed_of(5, (uint64_t)i), hs = FNV0, hb = FNV0;
  unsigned char *buf = malloc(TCPMSG);
  H_CHECK(buf);
  long n = 0;
  while (!over()) {
    size_t len = 1 + h_rand(&s) % TCPMSG;
    if (round_trip(thr_fd[i][0], buf, len, &s, &hs, &hb, 10000000)) {
      BAD("thread: round trip");
      break;
    }
    n += (long)len;
    ADD(&ops, 1);
    if (h_rand(&s) % 16 == 0)
      cacs_sleep(h_rand(&s) % 500);
    else if (h_rand(&s) % 4 == 0)
      cacs_yield();
  }
  free(buf);
  ADD(&thr_sent.sum, hs);
  ADD(&thr_sent.n, n);
  ADD(&thr_back.sum, hb);
  ADD(&thr_back.n, n);
  char c;
  if (shutdown(thr_fd[i][0], SHUT_WR) != 0 ||
      cacs_read(thr_fd[i][0], &c, 1, 10000000) != 0)
    BAD("thread: end");
  H_CHECK(cacs_close(thr_fd[i][0]) == 0);
}

static void *thr_main(void *arg) {
  (void)arg;
  cacs_coro *c[THREAD_CONNS];
  for (long i = 0; i < THREAD_CONNS; ++i)
    H_CHECK(c[i] = cacs_create(thr_client, (void *)i, 0));
  for (int i = 0; i < THREAD_CONNS; ++i)
    H_CHECK(cacs_join(c[i]) == 0);
  thr_engine = cacs_io_engine(); // what CACS_IO_ENGINE got
  return NULL;
}

// --- every sync object ------------------------------------------------------

static cacs_pool_mutex mu_ces = CACS_POOL_MUTEX_INIT, mu_disp;
static cacs_pool_rwlock rw = CACS_POOL_RWLOCK_INIT;
static cacs_pool_mutex qmu = CACS_POOL_MUTEX_INIT;
static cacs_pool_cond not_empty = CACS_POOL_COND_INIT,
                      not_full = CACS_POOL_COND_INIT;
static cacs_pool_sem sem = CACS_POOL_SEM_INIT(SEM_UNITS);
static cacs_pool_sem never = CACS_POOL_SEM_INIT(0);
static cacs_pool_chan *ch;

// Guarded by their locks: a count and its holders.
static long c_ces, c_disp, c_rw, h_ces, h_disp;
static atomic_int rw_readers, rw_writers, sem_in;
static long queue[QUEUE], qlen;
static atomic_long mutex_bad, rw_bad, sem_bad, timer_bad, wg_bad;

struct sync_tally {
  long ces, disp, rw, produced, consumed, sent, received, fanned, timers, ops;
} sync_t[SYNC_TASKS + 1];

static int64_t tmo(uint64_t *s) {
  return h_rand(s) % 4 == 0 ? (int64_t)(h_rand(s) % 300) : CACS_FOREVER;
}

static void locked_inc(cacs_pool_mutex *m, long *c, long *holders, long *mine,
                       uint64_t *s) {
#if SOAK_FAULT == 3
  static atomic_int skipped;
  // In a pool coroutine, whose sleeps below let the others in.
  int skip = m == &mu_ces && *mine > 2 && cacs_pool_current() &&
             !atomic_exchange(&skipped, 1);
  if (skip)
    fprintf(stderr,
            "soak: fault 3: a section without the lock, %.2f s "
            "before the end\n",
            ((double)end_ns - (double)h_now_ns()) / 1e9);
#else
  int skip = 0;
#endif
  if (!skip && cacs_pool_mutex_lock(m, tmo(s)) != 0) {
    if (err() != ETIMEDOUT)
      BAD("mutex: lock");
    return;
  }
  if (++*holders != 1)
    ADD(&mutex_bad, 1);
  long v = *c;
  jitter(s);
  *c = v + 1;
  for (int k = 0; skip && k < 20; ++k) // long enough for others to come in
    cacs_pool_sleep(10000);
  if (*holders != 1)
    ADD(&mutex_bad, 1);
  --*holders;
  ++*mine;
  if (!skip && cacs_pool_mutex_unlock(m) != 0)
    BAD("mutex: unlock");
}

static atomic_long fan_done;
struct fan {
  cacs_pool_waitgroup *wg;
  atomic_long *count;
  uint32_t sleep_us;
};
static void fan_child(void *arg) {
  struct fan f = *(struct fan *)arg;
  free(arg);
  if (f.sleep_us)
    cacs_pool_sleep(f.sleep_us);
  ADD(f.count, 1);
  cacs_pool_waitgroup_done(f.wg);
}

static void sync_body(void *arg) {
  long id = (long)arg;
  struct sync_tally *t = &sync_t[id];
  uint64_t s = seed_of(6, (uint64_t)id);
  int pool = cacs_pool_current() != NULL;
  while (!over()) {
    switch (h_rand(&s) % (pool ? 9 : 7)) {
    case 0:
      locked_inc(&mu_ces, &c_ces, &h_ces, &t->ces, &s);
      break;
    case 1:
      locked_inc(&mu_disp, &c_disp, &h_disp, &t->disp, &s);
      break;
    case 2:
      if (h_rand(&s) % 4 == 0) {
        if (cacs_pool_rwlock_wrlock(&rw, tmo(&s)) != 0)
          break;
        if (ADD(&rw_writers, 1) != 0 || LOAD(&rw_readers))
          ADD(&rw_bad, 1);
        long v = c_rw;
        jitter(&s);
        c_rw = v + 1;
        t->rw++;
        SUB(&rw_writers, 1);
        if (cacs_pool_rwlock_wrunlock(&rw) != 0)
          BAD("rwlock: wrunlock");
      } else {
        if (cacs_pool_rwlock_rdlock(&rw, tmo(&s)) != 0)
          break;
        ADD(&rw_readers, 1);
        if (LOAD(&rw_writers))
          ADD(&rw_bad, 1);
        jitter(&s);
        SUB(&rw_readers, 1);
        if (cacs_pool_rwlock_rdunlock(&rw) != 0)
          BAD("rwlock: rdunlock");
      }
      break;
    case 3:
      if (cacs_pool_sem_wait(&sem, tmo(&s)) != 0)
        break;
      if (ADD(&sem_in, 1) >= SEM_UNITS)
        ADD(&sem_bad, 1);
      jitter(&s);
      SUB(&sem_in, 1);
      cacs_pool_sem_post(&sem);
      break;
    case 4: { // a bounded queue on two condition variables
      if (cacs_pool_mutex_lock(&qmu, CACS_FOREVER) != 0) {
        BAD("queue: lock");
        break;
      }
      int r = 0;
      if (h_rand(&s) % 2) {
        while (qlen == QUEUE && r == 0)
          r = cacs_pool_cond_wait(&not_full, &qmu, 200 + h_rand(&s) % 2000);
        if (qlen < QUEUE) {
          long v = (long)(h_rand(&s) % 1000);
          queue[qlen++] = v;
          t->produced += v;
          cacs_pool_cond_signal(&not_empty);
        }
      } else {
        while (qlen == 0 && r == 0)
          r = cacs_pool_cond_wait(&not_empty, &qmu, 200 + h_rand(&s) % 2000);
        if (qlen > 0) {
          t->consumed += queue[--qlen];
          if (h_rand(&s) % 2)
            cacs_pool_cond_signal(&not_full);
          else
            cacs_pool_cond_broadcast(&not_full);
        }
      }
      if (r != 0 && err() != ETIMEDOUT)
        BAD("queue: cond_wait");
      if (cacs_pool_mutex_unlock(&qmu) != 0)
        BAD("queue: unlock");
      break;
    }
    case 5: {
      long v = (long)(h_rand(&s) % 1000) + 1;
      if (h_rand(&s) % 2) {
        if (cacs_pool_chan_send(ch, &v, h_rand(&s) % 500) == 0)
          t->sent += v;
      } else if (cacs_pool_chan_recv(ch, &v, h_rand(&s) % 500) == 0) {
#if SOAK_FAULT == 2
        static atomic_int lost;
        if (t->received > 1000 && !atomic_exchange(&lost, 1)) {
          v = 0;
          fprintf(stderr, "soak: fault 2: a value forgotten\n");
        }
#endif
        t->received += v;
      }
      break;
    }
    case 6: { // a sleep and a timeout, timed
      int64_t d = (int64_t)(h_rand(&s) % 2000);
      uint64_t t0 = h_now_ns();
      int r;
      if (h_rand(&s) % 2 && pool)
        r = cacs_pool_sleep(d);
      else
        r = cacs_pool_sem_wait(&never, d) == -1 && err() == ETIMEDOUT ? 0 : -1;
      if (r != 0 || h_now_ns() - t0 < (uint64_t)d * 1000)
        ADD(&timer_bad, 1);
      t->timers++;
      break;
    }
    default: { // fan out children, wait for them with a wait group
      cacs_pool_waitgroup wg = CACS_POOL_WAITGROUP_INIT;
      atomic_long count = 0;
      long k = 1 + h_rand(&s) % 4;
      cacs_pool_waitgroup_add(&wg, k);
      for (long j = 0; j < k; ++j) {
        struct fan *f = malloc(sizeof *f);
        H_CHECK(f);
        *f = (struct fan){&wg, &count, h_rand(&s) % 2 ? 0 : h_rand(&s) % 500};
        H_CHECK(cacs_pool_spawn_detached(the_pool, fan_child, f) == 0);
      }
      if (cacs_pool_waitgroup_wait(&wg, 30000000) != 0 || LOAD(&count) != k)
        ADD(&wg_bad, 1);
      t->fanned += k;
      ADD(&fan_done, k);
      break;
    }
    }
    t->ops++;
    ADD(&ops, 1);
  }
}

static void *sync_plain(void *arg) {
  sync_body(arg);
  return NULL;
}

// --- main -------------------------------------------------------------------

static int same(const char *what, long a, long b, uint64_t ha, uint64_t hb) {
  if (a == b && ha == hb)
    return 1;
  fprintf(stderr, "soak: %s differ: %ld bytes (%016llx) vs %ld (%016llx)\n",
          what, a, (unsigned long long)ha, b, (unsigned long long)hb);
  return 0;
}

int main(int argc, char **argv) {
  double seconds = 2;
  unsigned workers = 3;
  int migrate = 0, opt;
  while ((opt = getopt(argc, argv, "t:s:w:m")) != -1) {
    switch (opt) {
    case 't':
      seconds = atof(optarg);
      break;
    case 's':
      seed0 = strtoull(optarg, NULL, 0);
      break;
    case 'w':
      workers = (unsigned)atoi(optarg);
      break;
    case 'm':
      migrate = 1;
      break;
    default:
      fprintf(stderr, "usage: %s [-t SECONDS] [-s SEED] [-w WORKERS] [-m]\n",
              argv[0]);
      return 2;
    }
  }
  signal(SIGPIPE, SIG_IGN);
  h_watchdog((unsigned)seconds + 300); // every wait ends well before
  setvbuf(stdout, NULL, _IOLBF, 0);

  H_CHECK(cacs_pool_mutex_init(&mu_disp, CACS_POOL_LOCK_DISPATCH) == 0);
  H_CHECK(ch = cacs_pool_chan_create(sizeof(long), 4));
  for (int i = 0; i < STREAMS; ++i)
    H_CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, streams[i].fd) ==
            0);
  for (int i = 0; i < THREAD_CONNS; ++i)
    H_CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, thr_fd[i]) == 0);
  H_CHECK((lfd = listen_loopback(&laddr)) >= 0);

  cacs_pool_attr attr = {.workers = workers};
  if (migrate)
    attr.migrate = CACS_POOL_MIGRATE_RUNNING;
  H_CHECK(the_pool = cacs_pool_create_ex(&attr));
  uint64_t t0 = h_now_ns();
  end_ns = t0 + (uint64_t)(seconds * 1e9);
  cacs_pool_task *t[64];
  int nt = 0;
  for (long i = 0; i < STREAMS; ++i) {
    struct stream *st = &streams[i];
    st->ea = (struct echo_arg){st->fd[1], 0, &stream_echo, seed_of(7, i)};
    t[nt++] = cacs_pool_spawn(the_pool, echo, &st->ea);
    t[nt++] = cacs_pool_spawn(the_pool, stream_reader, st);
    t[nt++] = cacs_pool_spawn(the_pool, stream_writer, st);
  }
  for (long i = 0; i < THREAD_CONNS; ++i) {
    thr_ea[i] = (struct echo_arg){thr_fd[i][1], 0, &thr_echo, seed_of(8, i)};
    t[nt++] = cacs_pool_spawn(the_pool, echo, &thr_ea[i]);
  }
  for (long i = 0; i < ACCEPTORS; ++i)
    t[nt++] = cacs_pool_spawn(the_pool, acceptor, (void *)i);
  for (long i = 0; i < CLIENTS; ++i)
    t[nt++] = cacs_pool_spawn(the_pool, tcp_client, (void *)i);
  for (long i = 0; i < SYNC_TASKS; ++i)
    t[nt++] = cacs_pool_spawn(the_pool, sync_body, (void *)i);
  pthread_t thr, plain;
  H_CHECK(pthread_create(&thr, NULL, thr_main, NULL) == 0);
  H_CHECK(pthread_create(&plain, NULL, sync_plain, (void *)(long)SYNC_TASKS) ==
          0);
  for (int i = 0; i < nt; ++i)
    H_CHECK(t[i] && cacs_pool_join(t[i]) == 0);
  H_CHECK(pthread_join(thr, NULL) == 0 && pthread_join(plain, NULL) == 0);
  H_CHECK(cacs_pool_destroy(the_pool) == 0); // the detached coroutines too
  double secs = (double)(h_now_ns() - t0) / 1e9;
  for (int i = 0; i < STREAMS; ++i)
    H_CHECK(cacs_close(streams[i].fd[0]) == 0 &&
            cacs_close(streams[i].fd[1]) == 0);
  for (int i = 0; i < THREAD_CONNS; ++i)
    H_CHECK(cacs_close(thr_fd[i][1]) == 0);
  close(lfd);

  // Streams: per connection, and the echoes' sum of checksums.
  int io_ok = 1;
  long s_sent = 0, s_back = 0;
  uint64_t s_sum = 0;
  char what[64];
  for (int i = 0; i < STREAMS; ++i) {
    snprintf(what, sizeof what, "stream %d sent and read back", i);
    io_ok &= same(what, streams[i].sent, streams[i].back, streams[i].sum_sent,
                  streams[i].sum_back);
    io_ok &= streams[i].sent > 0;
    s_sent += streams[i].sent;
    s_back += streams[i].back;
    s_sum += streams[i].sum_sent;
  }
  io_ok &= same("streams sent and echoed", s_sent, LOAD(&stream_echo.n), s_sum,
                LOAD(&stream_echo.sum));
  long conns = LOAD(&tcp_conns);
  int tcp_ok =
      conns > 0 && conns == LOAD(&tcp_accepted) &&
      same("tcp sent and echoed", LOAD(&tcp_sent.n), LOAD(&tcp_echo.n),
           LOAD(&tcp_sent.sum), LOAD(&tcp_echo.sum)) &&
      same("tcp sent and read back", LOAD(&tcp_sent.n), LOAD(&tcp_back.n),
           LOAD(&tcp_sent.sum), LOAD(&tcp_back.sum));
  int thr_ok =
      LOAD(&thr_sent.n) > 0 &&
      same("thread sent and echoed", LOAD(&thr_sent.n), LOAD(&thr_echo.n),
           LOAD(&thr_sent.sum), LOAD(&thr_echo.sum)) &&
      same("thread sent and read back", LOAD(&thr_sent.n), LOAD(&thr_back.n),
           LOAD(&thr_sent.sum), LOAD(&thr_back.sum));
  long total = s_sent + s_back + LOAD(&stream_echo.n) + LOAD(&tcp_sent.n) +
               LOAD(&tcp_echo.n) + LOAD(&tcp_back.n) + LOAD(&thr_sent.n) +
               LOAD(&thr_echo.n) + LOAD(&thr_back.n);

  struct sync_tally z = {0};
  for (int i = 0; i <= SYNC_TASKS; ++i) {
    z.ces += sync_t[i].ces;
    z.disp += sync_t[i].disp;
    z.rw += sync_t[i].rw;
    z.produced += sync_t[i].produced;
    z.consumed += sync_t[i].consumed;
    z.sent += sync_t[i].sent;
    z.received += sync_t[i].received;
    z.fanned += sync_t[i].fanned;
    z.timers += sync_t[i].timers;
    z.ops += sync_t[i].ops;
  }
  long left = 0, v, queued = 0;
  while (cacs_pool_chan_recv(ch, &v, 0) == 0)
    left += v;
  H_CHECK(cacs_pool_chan_close(ch) == 0 && cacs_pool_chan_destroy(ch) == 0);
  for (long i = 0; i < qlen; ++i)
    queued += queue[i];
  int mutex_ok = LOAD(&mutex_bad) == 0 && c_ces == z.ces && c_disp == z.disp &&
                 z.ces > 0 && z.disp > 0;
  int rw_ok = LOAD(&rw_bad) == 0 && c_rw == z.rw && z.rw > 0;
  int sem_ok =
      LOAD(&sem_bad) == 0 && sem.count == SEM_UNITS && never.count == 0;
  int cond_ok = z.produced == z.consumed + queued && z.produced > 0;
  int chan_ok = z.sent == z.received + left && z.sent > 0;
  int wg_ok = LOAD(&wg_bad) == 0 && z.fanned > 0 && z.fanned == LOAD(&fan_done);
  int timers_ok = LOAD(&timer_bad) == 0 && z.timers > 0;
  int ok = LOAD(&bad) == 0 && io_ok && tcp_ok && thr_ok && mutex_ok && rw_ok &&
           sem_ok && cond_ok && chan_ok && wg_ok && timers_ok;

  printf("soak: seconds %.1f ops %ld bytes %ld workers %u seed %llu "
         "migrate %d thread engine %s\n",
         secs, LOAD(&ops), total, workers, (unsigned long long)seed0, migrate,
         thr_engine == CACS_IO_ENGINE_URING   ? "uring"
         : thr_engine == CACS_IO_ENGINE_EPOLL ? "epoll"
                                              : "none");
  printf("soak: streams %ld/%ld/%ld tcp %ld/%ld/%ld in %ld conns thread "
         "%ld/%ld/%ld\n",
         s_sent, LOAD(&stream_echo.n), s_back, LOAD(&tcp_sent.n),
         LOAD(&tcp_echo.n), LOAD(&tcp_back.n), conns, LOAD(&thr_sent.n),
         LOAD(&thr_echo.n), LOAD(&thr_back.n));
  printf("soak: mutex %ld+%ld rwlock %ld queue %ld-%ld=%ld chan %ld-%ld=%ld "
         "fanned %ld timers %ld\n",
         z.ces, z.disp, z.rw, z.produced, z.consumed, queued, z.sent,
         z.received, left, z.fanned, z.timers);
  printf("soak: errors %ld, streams ok %d, tcp ok %d, thread ok %d, mutex ok "
         "%d, rwlock ok %d, sem ok %d, cond ok %d, chan ok %d, wg ok %d, "
         "timers ok %d\n",
         LOAD(&bad), io_ok, tcp_ok, thr_ok, mutex_ok, rw_ok, sem_ok, cond_ok,
         chan_ok, wg_ok, timers_ok);
  printf("soak: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
