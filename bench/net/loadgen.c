//===- bench/net/loadgen.c - TCP echo load generator (epoll) ----*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
//   loadgen -p PORT [-c CONNS] [-d SECONDS] [-w WARMUP] [-s SIZE]
//           [-m pingpong|stream|http] [-D DEPTH] [-a ADDRS]
//
// Opens CONNS connections to 127.0.0.1:PORT and drives them from one thread
// with epoll (level-triggered):
//   pingpong  each connection sends one SIZE-byte message, waits for the
//             whole echo, sends the next;
//   stream    each connection keeps DEPTH messages in flight (default 16):
//             the server reads and writes in bulk, as in a streaming echo;
//   http      ping-pong with an HTTP/1.1 GET; the reply must be the fixed
//             response of net_common.h (for callgrind runs: wrk cannot stop
//             when a server exits).
// -a ADDRS: connect from source addresses 127.0.0.1 .. 127.0.0.ADDRS in
// turn: one address gives a destination about half of the ephemeral port
// range before connect() slows to a crawl (the kernel looks for a free
// port among ports of the other parity), so many thousands of connections
// need several.
// Every echoed byte is checked against what was sent (the first 8 bytes of a
// message are its sequence number). Latency = time from the send of a
// message to the arrival of its last byte, kept in a log-linear histogram
// (32 sub-buckets per power of two: about 3% resolution). Only messages that
// complete after the warm-up and before the end count.
//
// Stops after WARMUP + SECONDS, or when the server has closed every
// connection (servers run with -x for callgrind). Prints one line:
//   RESULT bench=echo mode=... conns=... size=... secs=... msgs=... rps=...
//          mbps=... p50_us=... p90_us=... p99_us=... p999_us=... max_us=...
//          errors=... closed=...
// Exit status 2 if an echo was wrong or a connection failed before the end.
//
//===----------------------------------------------------------------------===//

#include "net_common.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/epoll.h>
#include <time.h>

#define MAX_DEPTH 64
#define HIST_SUB 32
#define HIST_BUCKETS (64 * HIST_SUB)

typedef struct conn {
  int fd;
  int want_out;               // EPOLLOUT registered
  uint64_t sent;              // messages completely written
  uint64_t recvd;             // bytes echoed back (checked)
  size_t out_pos;             // bytes of message `sent` already written
  uint64_t t_sent[MAX_DEPTH]; // send time of message m at [m % depth]
} conn;

static size_t msg_size = NET_MSG;   // bytes sent per request
static size_t reply_size = NET_MSG; // bytes expected back
static int http;                    // -m http: requests and fixed replies

static const char http_request[] =
    "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: loadgen\r\n\r\n";
static int depth = 1;
static uint64_t hist[HIST_BUCKETS];
static uint64_t measured, errors;
static uint64_t max_ns;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static unsigned bucket_of(uint64_t v) {
  if (v < HIST_SUB)
    return (unsigned)v;
  unsigned e = 63u - (unsigned)__builtin_clzll(v); // >= 5
  unsigned mant = (unsigned)(v >> (e - 5)) & (HIST_SUB - 1);
  return (e - 4) * HIST_SUB + mant;
}

static uint64_t bucket_value(unsigned b) { // the middle of the bucket
  if (b < HIST_SUB)
    return b;
  unsigned e = b / HIST_SUB + 4, mant = b % HIST_SUB;
  uint64_t lo = ((uint64_t)(HIST_SUB + mant)) << (e - 5);
  return lo + ((1ull << (e - 5)) >> 1);
}

static double percentile_us(double q) {
  uint64_t rank = (uint64_t)(q * (double)measured), seen = 0;
  for (unsigned b = 0; b < HIST_BUCKETS; ++b) {
    seen += hist[b];
    if (seen > rank)
      return (double)(bucket_value(b) < max_ns ? bucket_value(b) : max_ns) /
             1000.0;
  }
  return (double)max_ns / 1000.0;
}

/// Byte `off` of message `m`: the sequence number, then a fixed pattern
/// (HTTP: the request).
static inline uint8_t msg_byte(uint64_t m, size_t off) {
  if (http)
    return (uint8_t)http_request[off];
  return off < 8 ? (uint8_t)(m >> (8 * off)) : (uint8_t)(off * 7 + 1);
}

/// Byte `off` of the reply to message `m`: the echo (HTTP: the response).
static inline uint8_t reply_byte(uint64_t m, size_t off) {
  return http ? (uint8_t)net_http_response[off] : msg_byte(m, off);
}

static void set_events(int ep, conn *c, int out) {
  if (c->want_out == out)
    return;
  struct epoll_event ev = {.events = EPOLLIN | (out ? EPOLLOUT : 0u),
                           .data.ptr = c};
  epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev);
  c->want_out = out;
}

/// Write messages while fewer than `depth` are in flight.
static int pump_out(int ep, conn *c, uint64_t now) {
  uint8_t msg[NET_BUF];
  while (c->sent - c->recvd / reply_size < (uint64_t)depth) {
    for (size_t i = 0; i < msg_size; ++i)
      msg[i] = msg_byte(c->sent, i);
    if (c->out_pos == 0)
      c->t_sent[c->sent % (uint64_t)depth] = now;
    ssize_t w = write(c->fd, msg + c->out_pos, msg_size - c->out_pos);
    if (w < 0) {
      if (errno == EAGAIN) {
        set_events(ep, c, 1);
        return 0;
      }
      return -1;
    }
    c->out_pos += (size_t)w;
    if (c->out_pos < msg_size) {
      set_events(ep, c, 1);
      return 0;
    }
    c->out_pos = 0;
    ++c->sent;
  }
  set_events(ep, c, 0);
  return 0;
}

/// Check echoed bytes; record the latency of each message they complete.
static void take_in(conn *c, const uint8_t *p, size_t n, uint64_t now,
                    uint64_t t_from, uint64_t t_to) {
  while (n) {
    uint64_t m = c->recvd / reply_size;
    size_t off = (size_t)(c->recvd % reply_size);
    size_t k = reply_size - off < n ? reply_size - off : n;
    for (size_t i = 0; i < k; ++i)
      if (p[i] != reply_byte(m, off + i)) {
        ++errors;
        break;
      }
    c->recvd += k;
    p += k;
    n -= k;
    if (off + k == reply_size && now >= t_from && now < t_to) {
      uint64_t lat = now - c->t_sent[m % (uint64_t)depth];
      ++hist[bucket_of(lat)];
      ++measured;
      if (lat > max_ns)
        max_ns = lat;
    }
  }
}

static int src_addrs = 1; // -a

// Bind `fd` to source address 127.0.0.(1 + i % src_addrs), its port left
// for connect() to choose (IP_BIND_ADDRESS_NO_PORT: per destination).
static void bind_source(int fd, int i) {
  if (src_addrs <= 1)
    return;
  int one = 1;
  setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof one);
  struct sockaddr_in s;
  memset(&s, 0, sizeof s);
  s.sin_family = AF_INET;
  s.sin_addr.s_addr = htonl(INADDR_LOOPBACK + (uint32_t)(i % src_addrs));
  if (bind(fd, (struct sockaddr *)&s, sizeof s) < 0)
    net_die("bind");
}

static int connect_one(int port, int i) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0)
    net_die("socket");
  bind_source(fd, i);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  for (int tries = 0; connect(fd, (struct sockaddr *)&a, sizeof a) < 0;
       ++tries) {
    if (tries == 200)
      net_die("connect");
    close(fd);
    usleep(10000);
    fd = socket(AF_INET, SOCK_STREAM, 0);
    bind_source(fd, i);
  }
  net_tune(fd);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  return fd;
}

int main(int argc, char **argv) {
  int port = 0, nconn = 100;
  double secs = 5, warm = 1;
  const char *mode = "pingpong";
  for (int i = 1; i < argc; i += 2) {
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!v)
      goto usage;
    if (!strcmp(argv[i], "-p"))
      port = atoi(v);
    else if (!strcmp(argv[i], "-c"))
      nconn = atoi(v);
    else if (!strcmp(argv[i], "-d"))
      secs = atof(v);
    else if (!strcmp(argv[i], "-w"))
      warm = atof(v);
    else if (!strcmp(argv[i], "-s"))
      msg_size = (size_t)atoi(v);
    else if (!strcmp(argv[i], "-m"))
      mode = v;
    else if (!strcmp(argv[i], "-D"))
      depth = atoi(v);
    else if (!strcmp(argv[i], "-a"))
      src_addrs = atoi(v);
    else
      goto usage;
  }
  if (port <= 0 || nconn < 1 || msg_size < 8 || msg_size > NET_BUF ||
      src_addrs < 1 || src_addrs > 254)
    goto usage;
  if (!strcmp(mode, "stream")) {
    if (depth <= 1)
      depth = 16;
  } else if (!strcmp(mode, "pingpong")) {
    depth = 1;
  } else if (!strcmp(mode, "http")) {
    depth = 1;
    http = 1;
    msg_size = sizeof http_request - 1;
    reply_size = NET_HTTP_RESPONSE_LEN;
  } else {
    goto usage;
  }
  if (depth > MAX_DEPTH)
    depth = MAX_DEPTH;
  if (!http)
    reply_size = msg_size;

  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  signal(SIGPIPE, SIG_IGN);
  int ep = epoll_create1(0);
  conn *cs = calloc((size_t)nconn, sizeof *cs);
  if (!cs || ep < 0)
    net_die("setup");
  uint64_t t0 = now_ns();
  for (int i = 0; i < nconn; ++i) {
    cs[i].fd = connect_one(port, i);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &cs[i]};
    epoll_ctl(ep, EPOLL_CTL_ADD, cs[i].fd, &ev);
  }
  for (int i = 0; i < nconn; ++i)
    if (pump_out(ep, &cs[i], t0) < 0)
      ++errors;
  uint64_t t_from = now_ns() + (uint64_t)(warm * 1e9);
  uint64_t t_to = t_from + (uint64_t)(secs * 1e9);
  int open = nconn, failed = 0;
  static uint8_t rbuf[1 << 16];
  struct epoll_event evs[256];
  uint64_t now = now_ns();
  while (open > 0 && now < t_to) {
    int ms = (int)((t_to - now) / 1000000u) + 1;
    int k = epoll_wait(ep, evs, 256, ms);
    now = now_ns();
    for (int i = 0; i < k; ++i) {
      conn *c = evs[i].data.ptr;
      if (c->fd < 0)
        continue;
      int dead = 0;
      if (evs[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) {
        ssize_t r = read(c->fd, rbuf, sizeof rbuf);
        if (r > 0)
          take_in(c, rbuf, (size_t)r, now, t_from, t_to);
        else if (r == 0 || errno != EAGAIN)
          dead = 1;
      }
      if (!dead && pump_out(ep, c, now) < 0)
        dead = 1;
      if (dead) {
        // A server running with -x closes everything at once: normal end.
        if (now < t_from)
          ++failed;
        close(c->fd);
        c->fd = -1;
        --open;
      }
    }
  }
  uint64_t t_end = now < t_to ? now : t_to;
  double span = t_end > t_from ? (double)(t_end - t_from) / 1e9 : 1e-9;
  double rps = (double)measured / span;
  printf("RESULT bench=%s mode=%s conns=%d size=%zu depth=%d secs=%.3f "
         "msgs=%" PRIu64 " rps=%.0f mbps=%.2f p50_us=%.1f p90_us=%.1f "
         "p99_us=%.1f p999_us=%.1f max_us=%.1f errors=%" PRIu64 " closed=%d\n",
         http ? "http" : "echo", mode, nconn, msg_size, depth, span, measured,
         rps, rps * (double)msg_size / 1e6, percentile_us(0.50),
         percentile_us(0.90), percentile_us(0.99), percentile_us(0.999),
         (double)max_ns / 1000.0, errors, nconn - open);
  fflush(stdout);
  if (errors)
    fprintf(stderr, "loadgen: %" PRIu64 " wrong echoes\n", errors);
  if (failed)
    fprintf(stderr, "loadgen: %d connections failed during the warm-up\n",
            failed);
  return errors || failed ? 2 : 0;
usage:
  fprintf(stderr,
          "usage: %s -p PORT [-c CONNS] [-d SECONDS] [-w WARMUP] [-s SIZE] "
          "[-m pingpong|stream|http] [-D DEPTH] [-a ADDRS]\n",
          argv[0]);
  return 64;
}
