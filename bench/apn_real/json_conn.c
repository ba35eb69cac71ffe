//===- bench/apn_real/json_conn.c - jansson parsing per connection --------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// APN on real code (issue 22, item 5): a real JSON library, jansson 2.14 from
// Debian's source package, compiled unmodified by the front door, parsing
// request bodies on NCONN connections, one libcacs coroutine per connection.
// The parser pulls its input through the callback of json_load_callback; when
// the (in-memory) transport has nothing, the callback waits for readability,
// i.e. yields from inside the parser's loop, at the bottom of the chain
//
//   json_load_callback -> parse_json -> parse_value -> parse_object
//     -> parse_value ... -> lex_scan -> lex_get / lex_scan_string
//     -> stream_get -> callback_get -> (*callback) = conn_read -> cacs_yield
//
// The transport hands out at most CHUNK bytes per call (copied, as recv does)
// and reports "would block" on every other call. One operation = one document
// parsed, walked by the application (sum of its integers, string lengths and
// `true`s) and freed; the checksum is computed independently while the
// documents are generated. -v CHUNK sets the chunk size (default 256).
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/coro.h"
#include <jansson.h>

#ifndef BENCH_VARIANT
#define BENCH_VARIANT "unnamed"
#endif

#define NCONN 8
#define NDOC 256
#define NOINLINE __attribute__((noinline))

// ---- documents and their checksum -----------------------------------------

static char *docs[NDOC];
static size_t doc_len[NDOC];
static uint64_t doc_sum[NDOC];

typedef struct gen {
  char *p, *end;
  uint32_t x;
  uint64_t sum;
} gen;

static uint32_t rnd(gen *g) {
  g->x = g->x * 1103515245u + 12345u;
  return g->x >> 8;
}

static void put(gen *g, const char *s) {
  size_t n = strlen(s);
  if (g->p + n >= g->end)
    abort();
  memcpy(g->p, s, n);
  g->p += n;
}

static void put_int(gen *g, long long v) {
  char b[32];
  snprintf(b, sizeof b, "%lld", v);
  put(g, b);
  g->sum += (uint64_t)v;
}

static void put_str(gen *g, unsigned len) {
  static const char alpha[] = "abcdefghijklmnopqrstuvwxyz_-0123456789 ";
  put(g, "\"");
  for (unsigned i = 0; i < len; ++i) {
    char c[2] = {alpha[rnd(g) % (sizeof alpha - 1)], 0};
    put(g, c);
  }
  put(g, "\"");
  g->sum += len;
}

/// A request body of the shape REST APIs exchange: an order with a customer,
/// tags, line items and metadata (300..1500 bytes).
static void gen_doc(gen *g, unsigned i) {
  put(g, "{\"id\": ");
  put_int(g, 100000 + i);
  put(g, ", \"customer\": {\"name\": ");
  put_str(g, 5 + rnd(g) % 20);
  put(g, ", \"email\": ");
  put_str(g, 10 + rnd(g) % 20);
  put(g, ", \"vip\": ");
  int vip = rnd(g) & 1;
  put(g, vip ? "true" : "false");
  g->sum += vip;
  put(g, "}, \"tags\": [");
  unsigned nt = rnd(g) % 5;
  for (unsigned t = 0; t < nt; ++t) {
    if (t)
      put(g, ", ");
    put_str(g, 3 + rnd(g) % 8);
  }
  put(g, "], \"items\": [");
  unsigned ni = 1 + rnd(g) % 8;
  for (unsigned k = 0; k < ni; ++k) {
    put(g, k ? ",\n  {\"sku\": " : "\n  {\"sku\": ");
    put_str(g, 8);
    put(g, ", \"qty\": ");
    put_int(g, 1 + rnd(g) % 10);
    put(g, ", \"price_cents\": ");
    put_int(g, rnd(g) % 100000);
    put(g, ", \"note\": null}");
  }
  put(g, "],\n \"meta\": {\"created\": ");
  put_int(g, 1700000000 + rnd(g) % 100000000);
  put(g, ", \"region\": ");
  put_str(g, 6);
  put(g, ", \"retries\": ");
  put_int(g, rnd(g) % 4);
  put(g, "}}\n");
}

static void make_docs(void) {
  static char store[NDOC * 2048];
  gen g = {store, store + sizeof store, 12345, 0};
  for (unsigned i = 0; i < NDOC; ++i) {
    char *start = g.p;
    g.sum = 0;
    gen_doc(&g, i);
    docs[i] = start;
    doc_len[i] = (size_t)(g.p - start);
    doc_sum[i] = g.sum;
  }
}

// ---- the connection: an in-memory transport that would block ---------------

typedef struct conn {
  unsigned doc, rx_calls;
  size_t pos, chunk;
  uint64_t total, bad, ndoc;
} conn;

static NOINLINE void wait_readable(conn *c) {
  (void)c;
  cacs_yield();
}

/// Non-blocking receive of the current document: up to `want` bytes, at most
/// c->chunk; 0 means "would block". -1 means the document is complete.
static NOINLINE long transport_try_recv(conn *c, char *dst, size_t want) {
  size_t left = doc_len[c->doc] - c->pos;
  if (left == 0)
    return -1;
  if (++c->rx_calls & 1)
    return 0;
  size_t n = want < c->chunk ? want : c->chunk;
  n = n < left ? n : left;
  memcpy(dst, docs[c->doc] + c->pos, n);
  c->pos += n;
  return (long)n;
}

/// jansson's input callback: blocks (yields) until data or end of document.
static size_t conn_read(void *buf, size_t buflen, void *arg) {
  conn *c = arg;
  long n;
  while ((n = transport_try_recv(c, buf, buflen)) == 0)
    wait_readable(c);
  return n < 0 ? 0 : (size_t)n;
}

// ---- the application ---------------------------------------------------------

static NOINLINE uint64_t walk(json_t *v) {
  uint64_t s = 0;
  switch (json_typeof(v)) {
  case JSON_OBJECT: {
    const char *k;
    json_t *e;
    json_object_foreach(v, k, e) s += walk(e);
    return s;
  }
  case JSON_ARRAY: {
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e) s += walk(e);
    return s;
  }
  case JSON_INTEGER:
    return (uint64_t)json_integer_value(v);
  case JSON_STRING:
    return json_string_length(v);
  case JSON_TRUE:
    return 1;
  default:
    return 0;
  }
}

static NOINLINE void conn_loop(conn *c) {
  for (uint64_t i = 0; i < c->ndoc; ++i) {
    json_error_t err;
    json_t *v = json_load_callback(conn_read, c, 0, &err);
    if (v) {
      c->total += walk(v);
      json_decref(v);
    } else {
      c->bad++;
    }
    c->doc = (c->doc + 1) % NDOC;
    c->pos = 0;
  }
}

static void conn_body(void *arg) { conn_loop((conn *)arg); }

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 200000);
  size_t chunk = a.variant ? (size_t)strtoul(a.variant, 0, 10) : 256;
  if (!chunk)
    chunk = 256;
  char name[128];
  snprintf(name, sizeof name, "%s+chunk%zu", BENCH_VARIANT, chunk);
  bench_run r = bench_begin("apn_json", name, a.n);
  json_object_seed(1); // the same hash table layout in every run
  make_docs();
  uint64_t per_conn = a.n / NCONN, total = per_conn * NCONN;
  static conn conns[NCONN];
  cacs_coro *cos[NCONN];
  uint64_t expected = 0;
  for (int i = 0; i < NCONN; ++i)
    for (uint64_t k = 0; k < per_conn; ++k)
      expected += doc_sum[(i * 31 + k) % NDOC];
  for (int rep = 0; rep < a.reps; ++rep) {
    for (int i = 0; i < NCONN; ++i) {
      memset(&conns[i], 0, sizeof conns[i]);
      conns[i].doc = (unsigned)(i * 31) % NDOC;
      conns[i].rx_calls = (unsigned)i;
      conns[i].chunk = chunk;
      conns[i].ndoc = per_conn;
      cos[i] = cacs_create(conn_body, &conns[i], 0);
    }
    uint64_t t0 = bench_cpu_ns();
    for (cacs_coro **co = cos; co < cos + NCONN; ++co)
      cacs_join(*co);
    uint64_t ns = bench_cpu_ns() - t0, got = 0, bad = 0;
    for (const conn *c = conns; c < conns + NCONN; ++c)
      got += c->total, bad += c->bad;
    bench_record(&r, ns, total, bad ? ~got : got, expected);
  }
  return bench_end(&r);
}
