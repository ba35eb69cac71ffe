// A key-value server and its clients in one program, as a user of libcacs
// would write them: a line protocol (SET, SETEX, GET, DEL, INCR, QUIT) with
// pipelined requests, one detached coroutine per connection with an idle
// timeout, a store shared by the connections under a cacs_mutex (INCR holds
// it across a yield, as a replicated write would), a background expiry
// coroutine on a condition variable with a timeout, and a client driver
// that opens 31 connections: normal clients (one of them moves a 1 MiB
// value, so both sides' writes wait for the peer to read), clients killed
// mid-request (close, or reset), clients that go idle until the server
// drops them. It prints a deterministic summary: what the server counted,
// a checksum of every reply, the shared counters.
//
// The output of every build must equal the plain one: libcacs compiled from
// its sources with stock clang -O0, no cacs flags.
// RUN: %stock_clang -O0 -I%cacs_include %s $(%cacs_rt_objs --io %stock_clang -O0 -I%cacs_include) -lpthread -o %tref
// RUN: %tref > %t.ref && FileCheck %s < %t.ref
// RUN: %clang -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t0 && %t0 | diff %t.ref -
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t2 && %t2 | diff %t.ref -
// RUN: %clang -O3 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t3 && %t3 | diff %t.ref -
// RUN: %clang -O2 -flto -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %tl && %tl | diff %t.ref -
// RUN: printf 'fun:kv_*\nfun:srv_*\nfun:cli_*\n' > %t.list
// RUN: %clang -O2 -fpreserve-none-list=%t.list -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %tp && %tp | diff %t.ref -
// RUN: %clang -O0 -fpreserve-none-list=%t.list -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %tp0 && %tp0 | diff %t.ref -
// RUN: %if llvm-22 %{ %clang -O2 -fauto-preserve-none -fpreserve-none-callee-saved=none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %tn && %tn | diff %t.ref - %}
// RUN: %if gcc %{ gcc -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %tg && %tg | diff %t.ref - %}
// AArch64, ASan and valgrind: app-kv-aarch64.c, app-kv-tools.test.
//
// CHECK: server: 31 connections, 1040 requests (as many as sent), 2 closed idle, 8 dropped mid-request
// CHECK-NEXT: store: 20 keys expired, 127 left
// CHECK-NEXT: clients: 20 done, 1 MiB value round trip ok, 2 dropped when idle
// CHECK-NEXT: counters: ctr:0={{[0-9]+}} ctr:1={{[0-9]+}} ctr:2={{[0-9]+}} (sum 151)
// CHECK-NEXT: replies: checksum {{[0-9a-f]+}}
// CHECK-NEXT: PASS

#include "Inputs/io-test.h"
#include "cacs/sync.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum {
  IDLE_US = 2000 * 1000,    // the server drops a connection idle this long
  IO_US = 10 * 1000 * 1000, // no single call of a client may take longer
  NCLIENTS = 20,
  NKILLED = 8, // half close, half reset
  NIDLE = 2,
  NBUCKETS = 256,
  BIG = 1 << 20,
};

// --- the store ---------------------------------------------------------------

struct entry {
  struct entry *next;
  char *key, *val;
  uint64_t expires_ns; // CLOCK_MONOTONIC; 0: never
};

static struct {
  cacs_mutex lock;
  cacs_cond stop_cv; // the expiry coroutine waits on it with a timeout
  int stopping;
  struct entry *buckets[NBUCKETS];
  size_t keys, expired;
} store = {CACS_MUTEX_INIT, CACS_COND_INIT, 0, {0}, 0, 0};

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t fnv(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
  return h;
}

static struct entry **kv_slot(const char *key) {
  struct entry **p =
      &store.buckets[fnv(0xcbf29ce484222325ull, key, strlen(key)) % NBUCKETS];
  while (*p && strcmp((*p)->key, key) != 0)
    p = &(*p)->next;
  return p;
}

static void kv_unlink(struct entry **p) {
  struct entry *e = *p;
  *p = e->next;
  free(e->key);
  free(e->val);
  free(e);
  store.keys--;
}

static int kv_live(const struct entry *e) {
  return e && (e->expires_ns == 0 || e->expires_ns > now_ns());
}

static void kv_set(const char *key, const char *val, uint64_t ttl_ms) {
  struct entry **p = kv_slot(key);
  if (!*p) {
    *p = calloc(1, sizeof **p);
    (*p)->key = strdup(key);
    store.keys++;
  }
  free((*p)->val);
  (*p)->val = strdup(val);
  (*p)->expires_ns = ttl_ms ? now_ns() + ttl_ms * 1000000u : 0;
}

// Remove what has expired; under the lock.
static void kv_sweep(uint64_t now) {
  for (int b = 0; b < NBUCKETS; b++) {
    struct entry **p = &store.buckets[b];
    while (*p) {
      if ((*p)->expires_ns && (*p)->expires_ns <= now) {
        kv_unlink(p);
        store.expired++;
      } else {
        p = &(*p)->next;
      }
    }
  }
}

static void kv_expiry_main(void *arg) {
  (void)arg;
  cacs_mutex_lock(&store.lock, CACS_FOREVER);
  while (!store.stopping) {
    int r = err_of(cacs_cond_wait(&store.stop_cv, &store.lock, 20 * 1000));
    EXPECT(r == 0 || r == ETIMEDOUT);
    kv_sweep(now_ns());
  }
  cacs_mutex_unlock(&store.lock);
}

// --- the server --------------------------------------------------------------

static struct {
  cacs_waitgroup conns; // open connections
  size_t accepted, requests, idle_closed, dropped;
} srv = {CACS_WAITGROUP_INIT, 0, 0, 0, 0};

struct buf {
  char *p;
  size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n) {
  if (b->len + n > b->cap) {
    while (b->len + n > b->cap)
      b->cap = b->cap ? 2 * b->cap : 4096;
    b->p = realloc(b->p, b->cap);
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
}

static void buf_str(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

// Run one request (a line without its '\n'); 0 for QUIT.
static int srv_request(char *line, struct buf *out) {
  char *save = NULL, *cmd = strtok_r(line, " ", &save);
  char *key = strtok_r(NULL, " ", &save);
  char *arg = strtok_r(NULL, " ", &save);
  char *arg2 = strtok_r(NULL, " ", &save);
  srv.requests++;
  if (cmd && strcmp(cmd, "QUIT") == 0) {
    buf_str(out, "+BYE\n");
    return 0;
  }
  if (!cmd || !key) {
    buf_str(out, "-ERR syntax\n");
    return 1;
  }
  if (cacs_mutex_lock(&store.lock, IO_US) != 0) {
    buf_str(out, "-ERR busy\n");
    return 1;
  }
  struct entry **p = kv_slot(key);
  char num[32];
  if (strcmp(cmd, "GET") == 0) {
    if (kv_live(*p)) {
      buf_str(out, "$");
      buf_str(out, (*p)->val);
      buf_str(out, "\n");
    } else {
      buf_str(out, "-NIL\n");
    }
  } else if (strcmp(cmd, "SET") == 0 && arg) {
    kv_set(key, arg, 0);
    buf_str(out, "+OK\n");
  } else if (strcmp(cmd, "SETEX") == 0 && arg && arg2) {
    kv_set(key, arg2, strtoull(arg, NULL, 10));
    buf_str(out, "+OK\n");
  } else if (strcmp(cmd, "DEL") == 0) {
    int had = kv_live(*p);
    if (*p)
      kv_unlink(p);
    buf_str(out, had ? ":1\n" : ":0\n");
  } else if (strcmp(cmd, "INCR") == 0) {
    long long v = kv_live(*p) ? strtoll((*p)->val, NULL, 10) : 0;
    // A replicated write: other connections run meanwhile, and only the
    // lock keeps them from reading the old value.
    cacs_yield();
    snprintf(num, sizeof num, "%lld", v + 1);
    kv_set(key, num, 0);
    buf_str(out, ":");
    buf_str(out, num);
    buf_str(out, "\n");
  } else {
    buf_str(out, "-ERR unknown command\n");
  }
  cacs_mutex_unlock(&store.lock);
  return 1;
}

static void srv_conn_main(void *arg) {
  int fd = (int)(intptr_t)arg;
  struct buf in = {0}, out = {0};
  size_t used = 0; // bytes of `in` already run
  size_t scan = 0; // bytes of `in` known to hold no newline
  for (int open = 1; open;) {
    if (in.cap - in.len < 4096) {
      in.cap = 2 * in.cap + 4096;
      in.p = realloc(in.p, in.cap);
    }
    ssize_t n = cacs_read(fd, in.p + in.len, in.cap - in.len, IDLE_US);
    if (n < 0 && errno == ETIMEDOUT) {
      srv.idle_closed++;
      break;
    }
    if (n <= 0) { // end of file or reset: did it stop inside a request?
      if (n < 0 || in.len > used)
        srv.dropped++;
      else
        EXPECT(0); // every client ends with QUIT or mid-request
      break;
    }
    in.len += (size_t)n;
    char *nl;
    while (open && (nl = memchr(in.p + scan, '\n', in.len - scan))) {
      *nl = '\0';
      open = srv_request(in.p + used, &out);
      used = scan = (size_t)(nl + 1 - in.p);
    }
    memmove(in.p, in.p + used, in.len - used); // keep the partial line
    in.len -= used;
    used = 0;
    scan = in.len;
    // Pipelining: the replies of every complete request read so far leave
    // in one write.
    if (out.len && cacs_write_all(fd, out.p, out.len, IO_US) < 0) {
      srv.dropped++;
      break;
    }
    out.len = 0;
  }
  free(in.p);
  free(out.p);
  cacs_close(fd);
  cacs_waitgroup_done(&srv.conns);
}

static void srv_accept_main(void *arg) {
  int lfd = (int)(intptr_t)arg;
  for (;;) {
    int fd = cacs_accept(lfd, NULL, NULL, CACS_FOREVER);
    if (fd < 0) {
      EXPECT(errno == ECANCELED); // the listener was closed: shut down
      return;
    }
    srv.accepted++;
    cacs_waitgroup_add(&srv.conns, 1);
    cacs_coro *c = cacs_create(srv_conn_main, (void *)(intptr_t)fd, 0);
    EXPECT(c && cacs_detach(c) == 0);
  }
}

// --- the clients -------------------------------------------------------------

static struct sockaddr_in server_addr;
static cacs_waitgroup clients = CACS_WAITGROUP_INIT;
static uint64_t client_hash[NCLIENTS];
static size_t clients_done, idle_dropped, counter_incrs;
static size_t requests_sent; // complete requests, as the server must count
static int big_ok;

static int cli_connect(void) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  EXPECT(fd >= 0);
  int r = cacs_connect(fd, (struct sockaddr *)&server_addr, sizeof server_addr,
                       IO_US);
  EXPECT(r == 0);
  return fd;
}

// Read one reply line into `line` (grown as needed); its length.
static size_t cli_reply(int fd, struct buf *rx, struct buf *line) {
  for (size_t from = 0;;) {
    char *nl =
        rx->len > from ? memchr(rx->p + from, '\n', rx->len - from) : NULL;
    if (nl) {
      size_t n = (size_t)(nl - rx->p) + 1;
      line->len = 0;
      buf_add(line, rx->p, n);
      memmove(rx->p, rx->p + n, rx->len - n);
      rx->len -= n;
      return n;
    }
    char tmp[8192];
    // Read in small pieces when a big reply comes: the server's write waits.
    ssize_t k = cacs_read(fd, tmp, sizeof tmp, IO_US);
    EXPECT(k > 0);
    if (k <= 0) {
      line->len = 0;
      return 0;
    }
    from = rx->len; // the bytes before hold no newline
    buf_add(rx, tmp, (size_t)k);
  }
}

static uint32_t cli_rand(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

// The request stream of client `id`: batches of 1-8 pipelined requests on
// its own keys and on three shared counters.
static void cli_normal_main(void *arg) {
  int id = (int)(intptr_t)arg;
  int fd = cli_connect();
  uint32_t seed = (uint32_t)id * 2654435761u + 1;
  uint64_t h = 0xcbf29ce484222325ull;
  struct buf tx = {0}, rx = {0}, line = {0};
  int shared[8];
  char req[128];
  for (int batch = 0; batch < 10; batch++) {
    int n = 1 + (int)(cli_rand(&seed) % 8);
    tx.len = 0;
    for (int i = 0; i < n; i++) {
      uint32_t r = cli_rand(&seed), k = r % 6;
      shared[i] = 0;
      switch ((r >> 4) % 6) {
      case 0:
      case 1:
        snprintf(req, sizeof req, "SET c%d:k%u v%u\n", id, k, r % 1000);
        break;
      case 2:
        snprintf(req, sizeof req, "GET c%d:k%u\n", id, k);
        break;
      case 3:
        snprintf(req, sizeof req, "DEL c%d:k%u\n", id, k);
        break;
      case 4:
        snprintf(req, sizeof req, "INCR c%d:n\n", id);
        break;
      default:
        snprintf(req, sizeof req, "INCR ctr:%u\n", k % 3);
        shared[i] = 1; // its value depends on the other clients
        counter_incrs++;
      }
      buf_str(&tx, req);
    }
    EXPECT(cacs_write_all(fd, tx.p, tx.len, IO_US) == (ssize_t)tx.len);
    requests_sent += (size_t)n;
    for (int i = 0; i < n; i++) {
      size_t len = cli_reply(fd, &rx, &line);
      if (!shared[i])
        h = fnv(h, line.p, len);
    }
  }
  // A key that expires, and one that does not.
  snprintf(req, sizeof req, "SETEX c%d:t 50 short\nSETEX c%d:u 600000 long\n",
           id, id);
  EXPECT(cacs_write_all(fd, req, strlen(req), IO_US) > 0);
  for (int i = 0; i < 2; i++)
    h = fnv(h, line.p, cli_reply(fd, &rx, &line));
  requests_sent += 2;
  cacs_sleep(150 * 1000);
  snprintf(req, sizeof req, "GET c%d:t\nGET c%d:u\n", id, id);
  EXPECT(cacs_write_all(fd, req, strlen(req), IO_US) > 0);
  for (int i = 0; i < 2; i++)
    h = fnv(h, line.p, cli_reply(fd, &rx, &line));
  requests_sent += 2;
  if (id == 7) { // a big value: each side's write waits for the other
    char *big = malloc(BIG + 32);
    int off = snprintf(big, 32, "SET c%d:big ", id);
    for (int i = 0; i < BIG; i++)
      big[off + i] = (char)('a' + i % 26);
    memcpy(big + off + BIG, "\nGET c7:big\n", 12);
    EXPECT(cacs_write_all(fd, big, (size_t)off + BIG + 12, IO_US) > 0);
    requests_sent += 2;
    h = fnv(h, line.p, cli_reply(fd, &rx, &line));
    size_t len = cli_reply(fd, &rx, &line);
    big_ok = len == BIG + 2 && line.p[0] == '$' &&
             memcmp(line.p + 1, big + off, BIG) == 0;
    h = fnv(h, line.p, len);
    free(big);
  }
  EXPECT(cacs_write_all(fd, "QUIT\n", 5, IO_US) == 5);
  requests_sent++;
  h = fnv(h, line.p, cli_reply(fd, &rx, &line));
  EXPECT(line.len == 5 && memcmp(line.p, "+BYE\n", 5) == 0);
  char c;
  EXPECT(cacs_read(fd, &c, 1, IO_US) == 0); // the server closed
  cacs_close(fd);
  free(tx.p);
  free(rx.p);
  free(line.p);
  client_hash[id] = h;
  clients_done++;
  cacs_waitgroup_done(&clients);
}

// Two complete requests and half of a third, then close (even id: the
// server reads end of file inside a request) or reset (odd id).
static void cli_killed_main(void *arg) {
  int id = (int)(intptr_t)arg;
  int fd = cli_connect();
  char req[128];
  if (id % 2 == 0) {
    snprintf(req, sizeof req, "SET x%d:a 1\nINCR x%d:n\nSET x%d:b ", id, id,
             id);
    requests_sent += 2;
  } else {
    struct linger lg = {1, 0}; // close sends a reset
    EXPECT(setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg) == 0);
    snprintf(req, sizeof req, "SET x%d:b ", id);
  }
  EXPECT(cacs_write_all(fd, req, strlen(req), IO_US) > 0);
  cacs_sleep(20 * 1000); // the server reads the request's start
  cacs_close(fd);
  cacs_waitgroup_done(&clients);
}

// One request, then silence longer than the server's idle timeout.
static void cli_idle_main(void *arg) {
  int id = (int)(intptr_t)arg;
  int fd = cli_connect();
  char req[64];
  snprintf(req, sizeof req, "SET idle%d 1\n", id);
  requests_sent++;
  EXPECT(cacs_write_all(fd, req, strlen(req), IO_US) > 0);
  char rep[16];
  EXPECT(cacs_read(fd, rep, 4, IO_US) == 4 && memcmp(rep, "+OK\n", 4) == 0);
  ssize_t n = cacs_read(fd, rep, sizeof rep, IDLE_US * 3);
  EXPECT(n == 0);
  idle_dropped += n == 0;
  cacs_close(fd);
  cacs_waitgroup_done(&clients);
}

// --- main --------------------------------------------------------------------

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  watchdog(120);
  int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  server_addr.sin_family = AF_INET;
  server_addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t alen = sizeof server_addr;
  EXPECT(bind(lfd, (struct sockaddr *)&server_addr, sizeof server_addr) == 0 &&
         listen(lfd, 64) == 0 &&
         getsockname(lfd, (struct sockaddr *)&server_addr, &alen) == 0);
  cacs_coro *acceptor = cacs_create(srv_accept_main, (void *)(intptr_t)lfd, 0);
  cacs_coro *expiry = cacs_create(kv_expiry_main, NULL, 0);

  for (int i = 0; i < NCLIENTS + NKILLED + NIDLE; i++) {
    cacs_entry_fn fn = i < NCLIENTS             ? cli_normal_main
                       : i < NCLIENTS + NKILLED ? cli_killed_main
                                                : cli_idle_main;
    cacs_waitgroup_add(&clients, 1);
    cacs_coro *c = cacs_create(fn, (void *)(intptr_t)i, 0);
    EXPECT(c && cacs_detach(c) == 0);
  }
  EXPECT(cacs_waitgroup_wait(&clients, 60 * 1000 * 1000) == 0);

  // The shared counters, through one more connection.
  int fd = cli_connect();
  const char *q = "GET ctr:0\nGET ctr:1\nGET ctr:2\nQUIT\n";
  EXPECT(cacs_write_all(fd, q, strlen(q), IO_US) == (ssize_t)strlen(q));
  requests_sent += 4;
  struct buf rx = {0}, line = {0};
  long long ctr[3], sum = 0;
  for (int i = 0; i < 3; i++) {
    cli_reply(fd, &rx, &line);
    ctr[i] = line.len > 1 && line.p[0] == '$' ? atoll(line.p + 1) : -1;
    sum += ctr[i];
  }
  cli_reply(fd, &rx, &line);
  cacs_close(fd);
  free(rx.p);
  free(line.p);

  // Shut down: closing the listener wakes the acceptor (ECANCELED); then
  // the connections drain and the expiry coroutine is told to stop.
  cacs_close(lfd);
  cacs_join(acceptor);
  EXPECT(cacs_waitgroup_wait(&srv.conns, 60 * 1000 * 1000) == 0);
  cacs_mutex_lock(&store.lock, CACS_FOREVER);
  store.stopping = 1;
  cacs_cond_signal(&store.stop_cv);
  cacs_mutex_unlock(&store.lock);
  cacs_join(expiry);
  kv_sweep(now_ns());
  EXPECT(cacs_count() == 0);

  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < NCLIENTS; i++)
    h = (h ^ client_hash[i]) * 0x100000001b3ull;
  printf("server: %zu connections, %zu requests (%s), %zu closed idle, %zu "
         "dropped mid-request\n",
         srv.accepted, srv.requests,
         srv.requests == requests_sent ? "as many as sent" : "NOT as sent",
         srv.idle_closed, srv.dropped);
  EXPECT(srv.requests == requests_sent);
  printf("store: %zu keys expired, %zu left\n", store.expired, store.keys);
  printf("clients: %zu done, 1 MiB value round trip %s, %zu dropped when "
         "idle\n",
         clients_done, big_ok ? "ok" : "FAILED", idle_dropped);
  printf("counters: ctr:0=%lld ctr:1=%lld ctr:2=%lld (sum %lld)\n", ctr[0],
         ctr[1], ctr[2], sum);
  EXPECT(sum == (long long)counter_incrs);
  printf("replies: checksum %016llx\n", (unsigned long long)h);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return failures != 0;
}
