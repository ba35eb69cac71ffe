//===- bench/apn_client/client.c - A multi-level client on a mock transport
//===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The shape of a real RPC client: NCONN connection coroutines, each sending a
// request and reading the response, layer by layer:
//
//   client_loop -> send_request -> transport_send      (may block: yield)
//               -> read_message -> read_frame -> read_exact -> recv_some
//                                                       (may block: yield)
//                               -> parse_header -> checksum_body
//               -> on_message (application callback)
//
// The mock transport hands out at most RX_CHUNK bytes per call, zero-copy
// (a pointer into a prepared response stream), and reports "would block" on
// every other call; every would-block point switches to the next connection
// (libcacs's cacs_yield; main joins the connections and takes part in the
// ring). The same source is built with and without -fauto-preserve-none,
// both by build/bin/clang.
// One operation = one response message handled; the checksum is the sum of
// what the application saw, computed independently from the stream.
// -v small: 4112-byte stacks instead of the runtime's default.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/coro.h"

#ifndef BENCH_VARIANT
#define BENCH_VARIANT "unnamed"
#endif

#define NCONN 4
#define SMALL_STACK 4112
#define RX_CHUNK 40
#define TX_CHUNK 24
#define NMSG_STREAM 512
#define HDR 16 // len:4 type:2 flags:2 seq:4 sum:4
#define MAX_FRAME 256

#define NOINLINE __attribute__((noinline))

typedef struct conn {
  const uint8_t *rx; // response stream (NMSG_STREAM messages)
  size_t rx_len, rx_pos;
  unsigned rx_calls, tx_calls;
  uint64_t tx_bytes;
  uint8_t frame[MAX_FRAME]; // reassembly buffer
} conn;

typedef struct msg {
  uint32_t type, flags, seq, sum;
  const uint8_t *body;
  uint32_t body_len;
} msg;

typedef struct app {
  uint64_t total, messages, bad;
} app;

static inline uint32_t rd32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline uint16_t rd16(const uint8_t *p) {
  uint16_t v;
  memcpy(&v, p, 2);
  return v;
}

// ---- the would-block points -------------------------------------------------

static NOINLINE void wait_readable(conn *c) {
  (void)c;
  cacs_yield();
}

static NOINLINE void wait_writable(conn *c) {
  (void)c;
  cacs_yield();
}

// ---- transport (mock)
// ---------------------------------------------------------

/// Non-blocking receive: up to `want` bytes (at most RX_CHUNK), zero-copy;
/// 0 means "would block".
static NOINLINE size_t transport_try_recv(conn *c, size_t want,
                                          const uint8_t **p) {
  if (++c->rx_calls & 1)
    return 0;
  size_t left = c->rx_len - c->rx_pos;
  if (left == 0) { // the server sends the same responses again
    c->rx_pos = 0;
    left = c->rx_len;
  }
  size_t n = want < RX_CHUNK ? want : RX_CHUNK;
  n = n < left ? n : left;
  *p = c->rx + c->rx_pos;
  c->rx_pos += n;
  return n;
}

static NOINLINE size_t transport_try_send(conn *c, const uint8_t *p,
                                          size_t len) {
  (void)p;
  if (++c->tx_calls & 1)
    return 0;
  size_t n = len < TX_CHUNK ? len : TX_CHUNK;
  c->tx_bytes += n;
  return n;
}

static NOINLINE size_t recv_some(conn *c, size_t want, const uint8_t **p) {
  size_t n;
  while ((n = transport_try_recv(c, want, p)) == 0)
    wait_readable(c);
  return n;
}

static NOINLINE void transport_send(conn *c, const uint8_t *p, size_t len) {
  while (len) {
    size_t n = transport_try_send(c, p, len);
    if (n == 0) {
      wait_writable(c);
      continue;
    }
    p += n;
    len -= n;
  }
}

// ---- framing ----------------------------------------------------------------

static NOINLINE void read_exact(conn *c, uint8_t *dst, size_t len) {
  while (len) {
    const uint8_t *p;
    size_t n = recv_some(c, len, &p);
    memcpy(dst, p, n);
    dst += n;
    len -= n;
  }
}

/// One frame into c->frame; returns its length (header included), 0 if bad.
static NOINLINE size_t read_frame(conn *c) {
  read_exact(c, c->frame, 4);
  uint32_t len = rd32(c->frame);
  if (len < HDR || len > MAX_FRAME)
    return 0;
  read_exact(c, c->frame + 4, len - 4);
  return len;
}

// ---- message parsing and checksum -------------------------------------------

static NOINLINE int parse_header(const uint8_t *f, size_t len, msg *m) {
  m->type = rd16(f + 4);
  m->flags = rd16(f + 6);
  m->seq = rd32(f + 8);
  m->sum = rd32(f + 12);
  m->body = f + HDR;
  m->body_len = (uint32_t)(len - HDR);
  return m->type >= 1 && m->type <= 3 && (m->flags & 0x8000) == 0;
}

static NOINLINE uint32_t checksum_body(const uint8_t *p, size_t len) {
  uint32_t a = 1, b = 0;
  for (size_t i = 0; i < len; ++i) {
    a += p[i];
    b += a;
  }
  return (b << 16) ^ a;
}

static NOINLINE int read_message(conn *c, msg *m) {
  size_t len = read_frame(c);
  if (!len || !parse_header(c->frame, len, m))
    return 0;
  return checksum_body(m->body, m->body_len) == m->sum;
}

// ---- requests and the application -------------------------------------------

static NOINLINE void send_request(conn *c, uint32_t seq) {
  uint8_t req[48];
  memset(req, 0, sizeof req);
  uint32_t len = sizeof req;
  memcpy(req, &len, 4);
  memcpy(req + 8, &seq, 4);
  transport_send(c, req, sizeof req);
}

static NOINLINE void on_message(app *a, const msg *m) {
  a->messages++;
  a->total += m->seq + m->type + m->sum + m->body_len;
}

typedef struct client {
  conn c;
  app a;
  uint64_t nmsg;
} client;

static NOINLINE void client_loop(client *cl) {
  for (uint64_t i = 0; i < cl->nmsg; ++i) {
    send_request(&cl->c, (uint32_t)i);
    msg m;
    if (read_message(&cl->c, &m))
      on_message(&cl->a, &m);
    else
      cl->a.bad++;
  }
}

static void client_body(void *arg) { client_loop((client *)arg); }

// ---- the response stream and its expected checksum
// ---------------------------

static size_t make_stream(uint8_t *s, uint64_t *per_msg) {
  size_t pos = 0;
  uint32_t x = 12345;
  for (unsigned i = 0; i < NMSG_STREAM; ++i) {
    x = x * 1103515245u + 12345u;
    uint32_t body_len = 16 + (x >> 16) % 96;
    uint32_t len = HDR + body_len;
    uint16_t type = (uint16_t)(1 + i % 3), flags = 0;
    uint32_t seq = i;
    uint8_t *f = s + pos;
    for (uint32_t k = 0; k < body_len; ++k)
      f[HDR + k] = (uint8_t)(x >> (k % 24)) + (uint8_t)k;
    uint32_t sum = checksum_body(f + HDR, body_len);
    memcpy(f, &len, 4);
    memcpy(f + 4, &type, 2);
    memcpy(f + 6, &flags, 2);
    memcpy(f + 8, &seq, 4);
    memcpy(f + 12, &sum, 4);
    per_msg[i] = (uint64_t)seq + type + sum + body_len;
    pos += len;
  }
  return pos;
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 2000000);
  int small = a.variant && !strcmp(a.variant, "small");
  char name[128];
  snprintf(name, sizeof name, "%s%s", BENCH_VARIANT,
           small ? "+small-stack" : "");
  bench_run r = bench_begin("apn_client", name, a.n);
  static uint8_t stream[NMSG_STREAM * (HDR + 112)];
  static uint64_t per_msg[NMSG_STREAM];
  size_t stream_len = make_stream(stream, per_msg);
  uint64_t per_conn = a.n / NCONN, total = per_conn * NCONN;
  uint64_t expected = 0;
  for (uint64_t i = 0; i < per_conn; ++i)
    expected += per_msg[i % NMSG_STREAM];
  expected *= NCONN;
  static client clients[NCONN];
  cacs_coro *cos[NCONN];
  size_t stack_size = small ? SMALL_STACK : 0;
  for (int rep = 0; rep < a.reps; ++rep) {
    for (int i = 0; i < NCONN; ++i) {
      memset(&clients[i], 0, sizeof clients[i]);
      clients[i].c.rx = stream;
      clients[i].c.rx_len = stream_len;
      clients[i].c.rx_calls = (unsigned)i; // stagger the would-blocks
      clients[i].nmsg = per_conn;
      cos[i] = cacs_create(client_body, &clients[i], stack_size);
    }
    uint64_t t0 = bench_cpu_ns();
    for (int i = 0; i < NCONN; ++i)
      cacs_join(cos[i]);
    uint64_t t1 = bench_cpu_ns();
    uint64_t got = 0, bad = 0;
    for (int i = 0; i < NCONN; ++i) {
      got += clients[i].a.total;
      bad += clients[i].a.bad;
    }
    bench_record(&r, t1 - t0, total, bad ? ~got : got, expected);
  }
  return bench_end(&r);
}
