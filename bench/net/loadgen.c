//===- bench/net/loadgen.c - TCP echo and HTTP load generator ---*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
//   loadgen -p PORT [-c CONNS] [-d SECONDS] [-w WARMUP] [-s SIZE]
//           [-m pingpong|stream|http] [-D DEPTH] [-a ADDRS]
//           [-e epoll|uring|auto]
//
// Opens CONNS connections to 127.0.0.1:PORT and drives them from one thread:
//   pingpong  each connection sends one SIZE-byte message, waits for the
//             whole echo, sends the next;
//   stream    each connection keeps DEPTH messages in flight (default 16):
//             the server reads and writes in bulk, as in a streaming echo;
//   http      ping-pong with an HTTP/1.1 GET; the reply must be the fixed
//             response of net_common.h (for callgrind runs: wrk cannot stop
//             when a server exits).
// -e picks how (default epoll; auto: uring where the kernel serves it):
//   epoll  level-triggered epoll, a read(2) and a write(2) per ready
//          connection: about two system calls per request;
//   uring  one io_uring (liburing) for every connection: a multishot
//          receive per connection into a ring of provided buffers (armed
//          once, no poll to re-arm per reply), one send in flight per
//          connection, registered descriptors; each pass of the loop
//          submits every send it queued and waits for completions in one
//          io_uring_enter, so one system call serves many connections. On
//          2 CPUs the server and the load get one each: the load must cost
//          clearly less CPU per request than the server it measures
//          (bench/results/net/loadgen35).
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
//          errors=... closed=... engine=... conn_min=... conn_p1=...
//          conn_p50=... conn_max=... conn_idle=...
// conn_*: the messages each connection completed inside the window, sorted
// (the least, the 1st percentile, the median, the most); conn_idle: how
// many completed none. Latency percentiles count messages, so a server that
// starves most connections and serves a few fast looks good there; these
// count connections.
// Exit status 2 if an echo was wrong or a connection failed before the end.
//
//===----------------------------------------------------------------------===//

#include "net_common.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/epoll.h>
#include <time.h>

#ifdef NET_HAVE_URING
#include <liburing.h>
#include <sys/mman.h>
#endif

#define MAX_DEPTH 64
#define HIST_SUB 32
#define HIST_BUCKETS (64 * HIST_SUB)

typedef struct conn {
  int fd;
  int want_out;               // epoll: EPOLLOUT registered
  uint64_t sent;              // messages completely written
  uint64_t recvd;             // bytes echoed back (checked)
  size_t out_pos;             // bytes of message `sent` already written
  uint64_t t_sent[MAX_DEPTH]; // send time of message m at [m % depth]
  // uring: the send in flight is out[out_pos .. out_len) (messages
  // sent .. sent + out_len / msg_size); recv_on: the multishot receive is
  // armed; dead: closed once nothing is in flight.
  uint8_t *out;
  size_t out_len;
  int send_on, recv_on, dead;
  uint64_t in_window; // messages of this connection the window counted
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
static uint64_t t_from, t_to; // the measured window
static int open_conns, failed;

// Byte `off` of every message at off >= 8 (echo), or of the request (HTTP);
// and of every reply at off >= 8 (echo), or of the response (HTTP).
static uint8_t msg_tmpl[NET_BUF], reply_tmpl[NET_BUF];

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

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/// The templates: a message is its sequence number (echo: 8 bytes,
/// little-endian), then a fixed pattern; HTTP: the request, the response.
static void init_templates(void) {
  for (size_t i = 0; i < NET_BUF; ++i)
    msg_tmpl[i] = (uint8_t)(i * 7 + 1);
  if (http) {
    memcpy(msg_tmpl, http_request, msg_size);
    memcpy(reply_tmpl, net_http_response, reply_size);
  } else {
    memcpy(reply_tmpl, msg_tmpl, sizeof reply_tmpl);
  }
}

/// Write message `m` (msg_size bytes) to p.
static inline void fill_msg(uint8_t *p, uint64_t m) {
  memcpy(p, msg_tmpl, msg_size);
  if (!http)
    for (size_t i = 0; i < 8; ++i)
      p[i] = (uint8_t)(m >> (8 * i));
}

/// Check echoed bytes; record the latency of each message they complete.
static void take_in(conn *c, const uint8_t *p, size_t n, uint64_t now) {
  while (n) {
    uint64_t m = c->recvd / reply_size;
    size_t off = (size_t)(c->recvd % reply_size);
    size_t k = reply_size - off < n ? reply_size - off : n;
    size_t i = 0;
    int bad = 0;
    for (; i < k && off + i < 8 && !http; ++i) // the sequence number
      bad |= p[i] != (uint8_t)(m >> (8 * (off + i)));
    if (bad || memcmp(p + i, reply_tmpl + off + i, k - i))
      ++errors;
    c->recvd += k;
    p += k;
    n -= k;
    if (off + k == reply_size && now >= t_from && now < t_to) {
      uint64_t lat = now - c->t_sent[m % (uint64_t)depth];
      ++hist[bucket_of(lat)];
      ++measured;
      ++c->in_window;
      if (lat > max_ns)
        max_ns = lat;
    }
  }
}

/// Messages connection `c` may send now (fewer than `depth` in flight).
static inline uint64_t room(const conn *c) {
  return (uint64_t)depth - (c->sent - c->recvd / reply_size);
}

/// A connection ended (EOF, error): a server running with -x closes
/// everything at once, which is the normal end after the warm-up.
static void lost(uint64_t now) {
  if (now < t_from)
    ++failed;
  --open_conns;
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
  return fd;
}

// ---- epoll ------------------------------------------------------------------

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
  while (room(c)) {
    fill_msg(msg, c->sent);
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

static void run_epoll(conn *cs, int nconn) {
  int ep = epoll_create1(0);
  if (ep < 0)
    net_die("epoll_create1");
  uint64_t t0 = now_ns();
  for (int i = 0; i < nconn; ++i) {
    fcntl(cs[i].fd, F_SETFL, fcntl(cs[i].fd, F_GETFL) | O_NONBLOCK);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &cs[i]};
    epoll_ctl(ep, EPOLL_CTL_ADD, cs[i].fd, &ev);
  }
  for (int i = 0; i < nconn; ++i)
    if (pump_out(ep, &cs[i], t0) < 0)
      ++errors;
  static uint8_t rbuf[1 << 16];
  struct epoll_event evs[256];
  uint64_t now = now_ns();
  while (open_conns > 0 && now < t_to) {
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
          take_in(c, rbuf, (size_t)r, now);
        else if (r == 0 || errno != EAGAIN)
          dead = 1;
      }
      if (!dead && pump_out(ep, c, now) < 0)
        dead = 1;
      if (dead) {
        lost(now);
        close(c->fd);
        c->fd = -1;
      }
    }
  }
}

// ---- io_uring ---------------------------------------------------------------

#ifdef NET_HAVE_URING

static struct io_uring ring;
static struct io_uring_buf_ring *bufring;
static uint8_t *bufs;      // the provided buffers, buf_size each
static unsigned buf_count; // a power of two
static size_t buf_size;    // one receive's bytes at most
static unsigned bufs_back; // buffers given back since the last advance
static int fixed_files;    // descriptors registered: index = conn
enum { BGID = 1, OP_RECV = 0, OP_SEND = 1 };

static struct io_uring_sqe *sqe_get(void) {
  struct io_uring_sqe *s;
  while (!(s = io_uring_get_sqe(&ring)))
    io_uring_submit(&ring);
  return s;
}

static void sqe_target(struct io_uring_sqe *s, conn *cs, conn *c, int op) {
  if (fixed_files) {
    s->fd = (int)(c - cs);
    s->flags |= IOSQE_FIXED_FILE;
  }
  io_uring_sqe_set_data64(s, (uint64_t)(c - cs) << 1 | (uint64_t)op);
}

static void queue_recv(conn *cs, conn *c) {
  struct io_uring_sqe *s = sqe_get();
  io_uring_prep_recv_multishot(s, c->fd, NULL, 0, 0);
  s->flags |= IOSQE_BUFFER_SELECT;
  s->buf_group = BGID;
  sqe_target(s, cs, c, OP_RECV);
  c->recv_on = 1;
}

static void queue_send(conn *cs, conn *c) {
  struct io_uring_sqe *s = sqe_get();
  io_uring_prep_send(s, c->fd, c->out + c->out_pos, c->out_len - c->out_pos,
                     MSG_NOSIGNAL);
  sqe_target(s, cs, c, OP_SEND);
  c->send_on = 1;
}

/// Send every message `c` may send now, in one send (none in flight).
static void pump_uring(conn *cs, conn *c, uint64_t now) {
  uint64_t k = room(c);
  if (c->send_on || c->dead || !k)
    return;
  for (uint64_t j = 0; j < k; ++j) {
    c->t_sent[(c->sent + j) % (uint64_t)depth] = now;
    fill_msg(c->out + j * msg_size, c->sent + j);
  }
  c->out_pos = 0;
  c->out_len = (size_t)k * msg_size;
  queue_send(cs, c);
}

static void give_back(unsigned id) {
  io_uring_buf_ring_add(bufring, bufs + (size_t)id * buf_size,
                        (unsigned)buf_size, (unsigned short)id,
                        io_uring_buf_ring_mask(buf_count), (int)bufs_back);
  ++bufs_back;
}

static void kill_conn(conn *c, uint64_t now) {
  if (!c->dead) {
    c->dead = 1;
    lost(now);
    shutdown(c->fd, SHUT_RDWR); // ends the multishot receive
  }
}

static void on_cqe(conn *cs, const struct io_uring_cqe *e, uint64_t now,
                   conn **rearm, int *nrearm) {
  conn *c = &cs[e->user_data >> 1];
  if ((e->user_data & 1) == OP_SEND) {
    c->send_on = 0;
    if (e->res <= 0) {
      kill_conn(c, now);
      return;
    }
    c->out_pos += (size_t)e->res;
    if (c->out_pos < c->out_len) {
      if (!c->dead)
        queue_send(cs, c); // the rest
      return;
    }
    c->sent += c->out_len / msg_size;
    c->out_len = c->out_pos = 0;
    pump_uring(cs, c, now);
    return;
  }
  if (!(e->flags & IORING_CQE_F_MORE))
    c->recv_on = 0;
  if (e->res > 0) {
    unsigned id = e->flags >> IORING_CQE_BUFFER_SHIFT;
    take_in(c, bufs + (size_t)id * buf_size, (size_t)e->res, now);
    give_back(id);
    pump_uring(cs, c, now);
    if (!c->recv_on && !c->dead)
      rearm[(*nrearm)++] = c;
  } else if (e->res == -ENOBUFS) { // every buffer in use: armed again
    if (!c->dead)
      rearm[(*nrearm)++] = c;
  } else {
    kill_conn(c, now);
  }
}

/// -1: this kernel has no io_uring (or not the features used): use epoll.
static int uring_init(conn *cs, int nconn) {
  struct io_uring_params p;
  memset(&p, 0, sizeof p);
  // Completions (task work) run only in this thread's io_uring_enter.
  p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN |
            IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP;
  unsigned sq = 256;
  while (sq < 2u * (unsigned)nconn && sq < 32768)
    sq <<= 1;
  p.cq_entries = 4 * sq;
  if (io_uring_queue_init_params(sq, &ring, &p) < 0)
    return -1;
  if (!(p.features & IORING_FEAT_EXT_ARG)) {
    io_uring_queue_exit(&ring);
    return -1;
  }
  io_uring_register_ring_fd(&ring); // an optimization; fine if refused
  // Buffers: enough for every connection's echoes in flight, twice.
  buf_size = (size_t)depth * reply_size;
  if (buf_size < 2048)
    buf_size = 2048;
  if (buf_size > 65536)
    buf_size = 65536;
  buf_count = 64;
  while (buf_count < 2u * (unsigned)nconn && buf_count < 32768)
    buf_count <<= 1;
  size_t rsz = buf_count * sizeof(struct io_uring_buf);
  bufring = mmap(NULL, rsz, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE,
                 -1, 0);
  bufs = malloc(buf_count * buf_size);
  if (bufring == MAP_FAILED || !bufs)
    net_die("buffers");
  io_uring_buf_ring_init(bufring);
  struct io_uring_buf_reg reg;
  memset(&reg, 0, sizeof reg);
  reg.ring_addr = (uint64_t)(uintptr_t)bufring;
  reg.ring_entries = buf_count;
  reg.bgid = BGID;
  if (io_uring_register_buf_ring(&ring, &reg, 0) < 0) {
    io_uring_queue_exit(&ring);
    return -1;
  }
  for (unsigned i = 0; i < buf_count; ++i)
    give_back(i);
  io_uring_buf_ring_advance(bufring, (int)bufs_back);
  bufs_back = 0;
  int *fds = malloc((size_t)nconn * sizeof *fds);
  uint8_t *out = malloc((size_t)nconn * (size_t)depth * msg_size);
  if (!fds || !out)
    net_die("setup");
  for (int i = 0; i < nconn; ++i) {
    fds[i] = cs[i].fd;
    cs[i].out = out + (size_t)i * (size_t)depth * msg_size;
  }
  // Registered descriptors save a file lookup per operation.
  fixed_files = io_uring_register_files(&ring, fds, (unsigned)nconn) == 0;
  free(fds);
  return 0;
}

static void run_uring(conn *cs, int nconn) {
  conn **rearm = malloc((size_t)nconn * sizeof *rearm);
  if (!rearm)
    net_die("setup");
  uint64_t now = now_ns();
  for (int i = 0; i < nconn; ++i) {
    queue_recv(cs, &cs[i]);
    pump_uring(cs, &cs[i], now);
  }
  while (open_conns > 0 && now < t_to) {
    struct __kernel_timespec ts = {
        .tv_sec = (long long)((t_to - now) / 1000000000u),
        .tv_nsec = (long long)((t_to - now) % 1000000000u)};
    struct io_uring_cqe *first;
    int r = io_uring_submit_and_wait_timeout(&ring, &first, 1, &ts, NULL);
    if (r < 0 && r != -ETIME && r != -EINTR && r != -EBUSY && r != -EAGAIN) {
      errno = -r;
      net_die("io_uring_submit_and_wait_timeout");
    }
    now = now_ns();
    struct io_uring_cqe *e;
    unsigned head, n = 0;
    int nrearm = 0;
    io_uring_for_each_cqe(&ring, head, e) {
      on_cqe(cs, e, now, rearm, &nrearm);
      ++n;
    }
    io_uring_cq_advance(&ring, n);
    if (bufs_back) {
      io_uring_buf_ring_advance(bufring, (int)bufs_back);
      bufs_back = 0;
    }
    for (int i = 0; i < nrearm; ++i)
      if (!rearm[i]->recv_on && !rearm[i]->dead)
        queue_recv(cs, rearm[i]);
  }
  free(rearm);
}

#endif // NET_HAVE_URING

int main(int argc, char **argv) {
  int port = 0, nconn = 100;
  double secs = 5, warm = 1;
  const char *mode = "pingpong", *engine = "epoll";
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
    else if (!strcmp(argv[i], "-e"))
      engine = v;
    else
      goto usage;
  }
  if (port <= 0 || nconn < 1 || msg_size < 8 || msg_size > NET_BUF ||
      src_addrs < 1 || src_addrs > 254)
    goto usage;
  int want_uring = !strcmp(engine, "uring"),
      auto_uring = !strcmp(engine, "auto");
  if (!want_uring && !auto_uring && strcmp(engine, "epoll"))
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
  init_templates();

  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  signal(SIGPIPE, SIG_IGN);
  conn *cs = calloc((size_t)nconn, sizeof *cs);
  if (!cs)
    net_die("setup");
  for (int i = 0; i < nconn; ++i)
    cs[i].fd = connect_one(port, i);
  open_conns = nconn;
  int uring = 0;
#ifdef NET_HAVE_URING
  if (want_uring || auto_uring) {
    uring = uring_init(cs, nconn) == 0;
    if (!uring && want_uring) {
      fprintf(stderr, "loadgen: io_uring unavailable (-e epoll works)\n");
      return 1;
    }
  }
#else
  if (want_uring) {
    fprintf(stderr, "loadgen: built without liburing (-e epoll works)\n");
    return 1;
  }
#endif
  t_from = now_ns() + (uint64_t)(warm * 1e9);
  t_to = t_from + (uint64_t)(secs * 1e9);
#ifdef NET_HAVE_URING
  if (uring)
    run_uring(cs, nconn);
  else
#endif
    run_epoll(cs, nconn);
  uint64_t now = now_ns();
  uint64_t t_end = now < t_to ? now : t_to;
  // Fairness: the window's messages per connection, sorted; a server that
  // serves some connections and starves others shows it here before it
  // shows in the percentiles (a starved connection completes no messages).
  uint64_t *per = malloc((size_t)nconn * sizeof *per);
  if (!per)
    net_die("malloc");
  for (int i = 0; i < nconn; ++i)
    per[i] = cs[i].in_window;
  qsort(per, (size_t)nconn, sizeof *per, cmp_u64);
  int idle = 0;
  while (idle < nconn && per[idle] == 0)
    ++idle;
  double span = t_end > t_from ? (double)(t_end - t_from) / 1e9 : 1e-9;
  double rps = (double)measured / span;
  printf("RESULT bench=%s mode=%s conns=%d size=%zu depth=%d secs=%.3f "
         "msgs=%" PRIu64 " rps=%.0f mbps=%.2f p50_us=%.1f p90_us=%.1f "
         "p99_us=%.1f p999_us=%.1f max_us=%.1f errors=%" PRIu64
         " closed=%d engine=%s conn_min=%" PRIu64 " conn_p1=%" PRIu64
         " conn_p50=%" PRIu64 " conn_max=%" PRIu64 " conn_idle=%d\n",
         http ? "http" : "echo", mode, nconn, msg_size, depth, span, measured,
         rps, rps * (double)msg_size / 1e6, percentile_us(0.50),
         percentile_us(0.90), percentile_us(0.99), percentile_us(0.999),
         (double)max_ns / 1000.0, errors, nconn - open_conns,
         uring ? "uring" : "epoll", per[0], per[nconn / 100], per[nconn / 2],
         per[nconn - 1], idle);
  free(per);
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
          "[-m pingpong|stream|http] [-D DEPTH] [-a ADDRS] "
          "[-e epoll|uring|auto]\n",
          argv[0]);
  return 64;
}
