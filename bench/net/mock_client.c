//===- bench/net/mock_client.c - HTTP and RPC clients, network mocked -----===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The paper's CPU-bound clients (section 5, "HTTP and RPC Clients"): client
// code as it is written for a real service, on one core, the network
// replaced by a mocked socket so that only the client's own work counts:
//
//   http  GET -> status line, headers (copied into a header block, names
//         matched case-insensitively), chunked body: chunk-size lines, the
//         data handed to the application zero-copy;
//   rpc   a binary call: 32-byte frame header (magic, ids, lengths, CRC of
//         the header), protobuf-style attributes (varints, byte strings),
//         then the payload as segments (16-byte segment header + data,
//         zero-copy), decoded through several layers of functions.
//
// Each response carries 1 MiB of payload. The mocked socket hands out at
// most SEG bytes per read (what one network event would deliver) and waits
// for readiness before every read: cacs_yield(), so every read switches to
// the next of NCORO client coroutines (the waiting layer's job on a real
// socket). Requests are sent without waiting (a real send rarely blocks).
//
// The same source is built three ways by the front door: the full-save
// switch (CACS_YIELD_FULL_SAVE=1: cacs_yield binds to the runtime's
// default-convention entry, which saves every callee-saved register, as a
// gcc caller gets), CACS (libcacs as is: preserve_none cacs_yield), and
// CACS + APN (-fauto-preserve-none). Every layer is a static noinline
// function, as if it lived in its own translation unit of a library.
//
//   net_mock_<full|cacs|apn> [-n REQUESTS] [-r REPS] -v KIND[:SEG[:NCORO]]
//
// KIND http or rpc; SEG bytes per socket read (default 4096); NCORO client
// coroutines (default 64). One operation = one request answered. The
// checksum adds, per response, what the application saw (status, headers,
// attributes, payload bytes and pieces); it must equal what the mocked
// server encoded (computed while building the response, not by the
// decoder), and every payload piece is checked at both ends against the
// payload's byte function.
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/coro.h"

#include <ctype.h>
#include <strings.h>

#ifndef BENCH_VARIANT
#define BENCH_VARIANT "unnamed"
#endif

#define NOINLINE __attribute__((noinline))
#define PAYLOAD (1u << 20)
#define READBUF 8192
#define HTTP_CHUNK 16384  // the server's chunked-encoding chunk size
#define RPC_SEGMENT 65536 // the server's payload segment size
#define MAX_HEADERS 32
#define STACK_SIZE 65536

/// Byte i of every response payload.
static inline uint8_t payload_byte(uint64_t i) {
  return (uint8_t)((i * 2654435761u) >> 13);
}

// ---- the mocked socket ------------------------------------------------------

typedef struct mock_sock {
  const uint8_t *rx; // the server's response to any request
  size_t rx_len, rx_pos;
  size_t seg; // at most this much per read
  uint64_t tx_bytes, tx_hash;
  // RPC: the server echoes the call id, so the first head_len bytes of the
  // response come from this per-connection copy.
  size_t head_len;
  uint8_t head[64];
} mock_sock;

static void rpc_mock_answer(mock_sock *s, const uint8_t *req, size_t n);

static NOINLINE void wait_readable(mock_sock *s) {
  (void)s;
  cacs_yield();
}

/// Zero-copy receive of up to n bytes; waits for the next segment first.
/// 0: the server has nothing more (end of stream).
static NOINLINE size_t sock_recv_zc(mock_sock *s, size_t n, const uint8_t **p) {
  wait_readable(s);
  int in_head = s->rx_pos < s->head_len;
  size_t left = (in_head ? s->head_len : s->rx_len) - s->rx_pos;
  n = n < s->seg ? n : s->seg;
  n = n < left ? n : left;
  *p = (in_head ? s->head : s->rx) + s->rx_pos;
  s->rx_pos += n;
  return n;
}

/// Send a request; the mocked server answers it with its response.
static NOINLINE void sock_send(mock_sock *s, const uint8_t *p, size_t n) {
  uint64_t h = s->tx_hash;
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001b3ull;
  s->tx_hash = h;
  s->tx_bytes += n;
  s->rx_pos = 0;
  if (s->head_len)
    rpc_mock_answer(s, p, n);
}

// ---- zero-copy reader (both protocols)
// -----------------------------------------

/// Reads from the socket's segments in place (a zero-copy transport); only
/// a line or a field that straddles two segments is copied, into `carry`.
typedef struct reader {
  mock_sock *s;
  const uint8_t *seg; // the current segment: seg[pos..len) unread
  size_t pos, len;
  size_t carry_len;
  uint8_t carry[READBUF];
} reader;

/// The next segment from the socket; -1 at the end of the stream.
static NOINLINE int reader_next(reader *r) {
  size_t n = sock_recv_zc(r->s, (size_t)-1, &r->seg);
  r->pos = 0;
  r->len = n;
  return n ? 0 : -1;
}

/// The next line without its CRLF (valid until the next read).
static NOINLINE int read_line(reader *r, const char **line, size_t *len) {
  r->carry_len = 0;
  for (;;) {
    const uint8_t *b = r->seg + r->pos;
    size_t avail = r->len - r->pos;
    const uint8_t *nl = avail ? memchr(b, '\n', avail) : NULL;
    size_t take = nl ? (size_t)(nl - b) + 1 : avail;
    if (!nl && r->carry_len == 0 && take == 0) {
      if (reader_next(r) < 0)
        return -1;
      continue;
    }
    if (nl && r->carry_len == 0) { // the common case: inside one segment
      if (nl == b || nl[-1] != '\r')
        return -1;
      *line = (const char *)b;
      *len = take - 2;
      r->pos += take;
      return 0;
    }
    if (r->carry_len + take > sizeof r->carry)
      return -1;
    memcpy(r->carry + r->carry_len, b, take);
    r->carry_len += take;
    r->pos += take;
    if (nl) {
      if (r->carry_len < 2 || r->carry[r->carry_len - 2] != '\r')
        return -1;
      *line = (const char *)r->carry;
      *len = r->carry_len - 2;
      return 0;
    }
    if (reader_next(r) < 0)
      return -1;
  }
}

/// Exactly n bytes into dst (frame headers, attributes).
static NOINLINE int read_exact(reader *r, void *dst, size_t n) {
  uint8_t *d = dst;
  while (n) {
    if (r->pos == r->len && reader_next(r) < 0)
      return -1;
    size_t k = r->len - r->pos < n ? r->len - r->pos : n;
    memcpy(d, r->seg + r->pos, k);
    r->pos += k;
    d += k;
    n -= k;
  }
  return 0;
}

/// Up to n payload bytes, in place.
static NOINLINE size_t read_zc(reader *r, size_t n, const uint8_t **p) {
  if (r->pos == r->len && reader_next(r) < 0)
    return 0;
  size_t k = r->len - r->pos < n ? r->len - r->pos : n;
  *p = r->seg + r->pos;
  r->pos += k;
  return k;
}

// ---- the application
// ----------------------------------------------------------

typedef struct app {
  uint64_t sum;    // what the application saw
  uint64_t bad;    // payload pieces with wrong bytes
  uint64_t pieces; // payload pieces delivered
} app;

static NOINLINE void app_on_payload(app *a, uint64_t off, const uint8_t *p,
                                    size_t n) {
  if (p[0] != payload_byte(off) || p[n - 1] != payload_byte(off + n - 1))
    ++a->bad;
  a->sum += n;
  ++a->pieces;
}

/// Deliver `n` payload bytes starting at payload offset `off`.
static NOINLINE int deliver_payload(reader *r, app *a, uint64_t off, size_t n) {
  while (n) {
    const uint8_t *p;
    size_t k = read_zc(r, n, &p);
    if (k == 0)
      return -1;
    app_on_payload(a, off, p, k);
    off += k;
    n -= k;
  }
  return 0;
}

// ---- HTTP/1.1 client
// ----------------------------------------------------------

enum {
  H_OTHER,
  H_CONTENT_LENGTH,
  H_TRANSFER_ENCODING,
  H_CONNECTION,
  H_CONTENT_TYPE
};

typedef struct http_response {
  int status, chunked, keep_alive, nheaders;
  int64_t content_length;
  uint64_t header_sum;
  size_t store_len;
  struct {
    uint16_t name, name_len, value, value_len;
  } h[MAX_HEADERS];
  char store[4096]; // the header block (copied)
} http_response;

static NOINLINE size_t append(uint8_t *buf, size_t at, const char *s) {
  size_t n = strlen(s);
  memcpy(buf + at, s, n);
  return at + n;
}

static NOINLINE void http_send_request(mock_sock *s, const char *host,
                                       const char *path) {
  uint8_t req[512];
  size_t n = append(req, 0, "GET ");
  n = append(req, n, path);
  n = append(req, n, " HTTP/1.1\r\nHost: ");
  n = append(req, n, host);
  n = append(req, n,
             "\r\nUser-Agent: cacs-bench/1.0\r\nAccept: */*\r\n"
             "Accept-Encoding: identity\r\n"
             "Connection: keep-alive\r\n\r\n");
  sock_send(s, req, n);
}

static NOINLINE int header_kind(const char *name, size_t len) {
  static const struct {
    const char *name;
    int kind;
  } known[] = {{"content-length", H_CONTENT_LENGTH},
               {"transfer-encoding", H_TRANSFER_ENCODING},
               {"connection", H_CONNECTION},
               {"content-type", H_CONTENT_TYPE}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; ++i)
    if (strlen(known[i].name) == len && !strncasecmp(known[i].name, name, len))
      return known[i].kind;
  return H_OTHER;
}

static NOINLINE int parse_status_line(const char *l, size_t n,
                                      http_response *resp) {
  if (n < 12 || memcmp(l, "HTTP/1.", 7) || l[8] != ' ' ||
      !isdigit((unsigned char)l[9]) || !isdigit((unsigned char)l[10]) ||
      !isdigit((unsigned char)l[11]))
    return -1;
  resp->status = (l[9] - '0') * 100 + (l[10] - '0') * 10 + (l[11] - '0');
  resp->keep_alive = l[7] == '1';
  return 0;
}

static NOINLINE int parse_header_line(const char *l, size_t n,
                                      http_response *resp) {
  const char *colon = memchr(l, ':', n);
  if (!colon || colon == l || resp->nheaders == MAX_HEADERS ||
      resp->store_len + n > sizeof resp->store)
    return -1;
  size_t name_len = (size_t)(colon - l);
  const char *v = colon + 1, *end = l + n;
  while (v < end && (*v == ' ' || *v == '\t'))
    ++v;
  while (end > v && (end[-1] == ' ' || end[-1] == '\t'))
    --end;
  size_t value_len = (size_t)(end - v);
  // Copy into the header block.
  int i = resp->nheaders++;
  resp->h[i].name = (uint16_t)resp->store_len;
  resp->h[i].name_len = (uint16_t)name_len;
  memcpy(resp->store + resp->store_len, l, name_len);
  resp->store_len += name_len;
  resp->h[i].value = (uint16_t)resp->store_len;
  resp->h[i].value_len = (uint16_t)value_len;
  memcpy(resp->store + resp->store_len, v, value_len);
  resp->store_len += value_len;
  resp->header_sum += name_len + value_len;
  switch (header_kind(l, name_len)) {
  case H_CONTENT_LENGTH: {
    int64_t x = 0;
    for (size_t k = 0; k < value_len; ++k) {
      if (!isdigit((unsigned char)v[k]))
        return -1;
      x = x * 10 + (v[k] - '0');
    }
    resp->content_length = x;
    break;
  }
  case H_TRANSFER_ENCODING:
    resp->chunked = value_len >= 7 && !strncasecmp(end - 7, "chunked", 7);
    break;
  case H_CONNECTION:
    resp->keep_alive = !(value_len == 5 && !strncasecmp(v, "close", 5));
    break;
  default:
    break;
  }
  return 0;
}

static NOINLINE int read_headers(reader *r, http_response *resp) {
  const char *l;
  size_t n;
  if (read_line(r, &l, &n) < 0 || parse_status_line(l, n, resp) < 0)
    return -1;
  for (;;) {
    if (read_line(r, &l, &n) < 0)
      return -1;
    if (n == 0)
      return 0;
    if (parse_header_line(l, n, resp) < 0)
      return -1;
  }
}

/// "1a2b;ext=1" -> 0x1a2b; -1 if not hex.
static NOINLINE int64_t parse_chunk_size(const char *l, size_t n) {
  int64_t x = 0;
  size_t i = 0;
  for (; i < n && isxdigit((unsigned char)l[i]); ++i)
    x = x * 16 + (isdigit((unsigned char)l[i]) ? l[i] - '0'
                                               : (tolower(l[i]) - 'a' + 10));
  return i == 0 || (i < n && l[i] != ';' && l[i] != ' ') ? -1 : x;
}

static NOINLINE int read_chunked_body(reader *r, app *a) {
  uint64_t off = 0;
  for (;;) {
    const char *l;
    size_t n;
    if (read_line(r, &l, &n) < 0)
      return -1;
    int64_t size = parse_chunk_size(l, n);
    if (size < 0)
      return -1;
    if (size == 0)
      break;
    if (deliver_payload(r, a, off, (size_t)size) < 0)
      return -1;
    off += (uint64_t)size;
    if (read_line(r, &l, &n) < 0 || n != 0) // CRLF after the data
      return -1;
  }
  for (;;) { // trailer
    const char *l;
    size_t n;
    if (read_line(r, &l, &n) < 0)
      return -1;
    if (n == 0)
      return 0;
  }
}

static NOINLINE int http_get(reader *r, app *a, const char *host,
                             const char *path) {
  http_response resp;
  resp.status = resp.chunked = resp.keep_alive = resp.nheaders = 0;
  resp.content_length = -1;
  resp.header_sum = resp.store_len = 0;
  http_send_request(r->s, host, path);
  if (read_headers(r, &resp) < 0)
    return -1;
  int rc = resp.chunked ? read_chunked_body(r, a)
           : resp.content_length >= 0
               ? deliver_payload(r, a, 0, (size_t)resp.content_length)
               : -1;
  a->sum += (uint64_t)resp.status + resp.header_sum + (uint64_t)resp.nheaders;
  return rc;
}

/// The server's response; *expect gets what the application should see.
static uint8_t *http_make_response(size_t *len, uint64_t *expect) {
  static const char *headers[][2] = {
      {"Date", "Mon, 23 Nov 2026 22:00:00 GMT"},
      {"Server", "nginx/1.22.1"},
      {"Content-Type", "application/octet-stream"},
      {"Transfer-Encoding", "chunked"},
      {"Connection", "keep-alive"},
      {"Cache-Control", "private, max-age=0"},
      {"ETag", "\"5f8e-61a7c2d3b4e80\""},
      {"Last-Modified", "Sun, 22 Nov 2026 10:11:12 GMT"},
      {"Accept-Ranges", "bytes"},
      {"Vary", "Accept-Encoding"},
      {"X-Request-Id", "7d1c0e55-2a4b-4c1e-9f3e-0b8a6f1d2c3e"},
      {"X-Content-Type-Options", "nosniff"},
      {"Strict-Transport-Security", "max-age=31536000"},
      {"Set-Cookie", "sid=3b9f1e2a7c; Path=/; HttpOnly"},
  };
  size_t nh = sizeof headers / sizeof headers[0];
  size_t cap = PAYLOAD + PAYLOAD / HTTP_CHUNK * 16 + 4096;
  uint8_t *b = malloc(cap);
  size_t n = (size_t)sprintf((char *)b, "HTTP/1.1 200 OK\r\n");
  uint64_t hsum = 0;
  for (size_t i = 0; i < nh; ++i) {
    n += (size_t)sprintf((char *)b + n, "%s: %s\r\n", headers[i][0],
                         headers[i][1]);
    hsum += strlen(headers[i][0]) + strlen(headers[i][1]);
  }
  n += (size_t)sprintf((char *)b + n, "\r\n");
  for (uint64_t off = 0; off < PAYLOAD; off += HTTP_CHUNK) {
    n += (size_t)sprintf((char *)b + n, "%x\r\n", HTTP_CHUNK);
    for (uint64_t i = 0; i < HTTP_CHUNK; ++i)
      b[n++] = payload_byte(off + i);
    n += (size_t)sprintf((char *)b + n, "\r\n");
  }
  n += (size_t)sprintf((char *)b + n, "0\r\n\r\n");
  *len = n;
  *expect = 200 + hsum + nh + PAYLOAD;
  return b;
}

// ---- RPC client
// ---------------------------------------------------------------

#define RPC_MAGIC 0x43524331u // "1CRC"
#define RPC_HDR 32
#define SEG_HDR 16

typedef struct rpc_header {
  uint32_t magic;
  uint8_t version, type;
  uint16_t flags;
  uint64_t msg_id;
  uint32_t attr_len, payload_len, nseg, crc;
} rpc_header;

typedef struct rpc_attrs {
  uint64_t status, error, server_time_us, retry_after, compression;
  uint8_t trace_id[16];
  char server[64];
  size_t server_len;
} rpc_attrs;

typedef struct rpc_channel {
  reader *r;
  uint64_t next_id;
} rpc_channel;

static inline uint32_t get32(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline uint64_t get64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
}
static inline void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static inline void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/// The header's check: a multiplicative hash of its first 28 bytes.
static NOINLINE uint32_t header_crc(const uint8_t *h) {
  uint32_t c = 0x811c9dc5u;
  for (int i = 0; i < RPC_HDR - 4; ++i)
    c = (c ^ h[i]) * 0x01000193u;
  return c;
}

static size_t put_varint(uint8_t *p, uint64_t v) {
  size_t n = 0;
  while (v >= 0x80) {
    p[n++] = (uint8_t)(v | 0x80);
    v >>= 7;
  }
  p[n++] = (uint8_t)v;
  return n;
}

static NOINLINE int get_varint(const uint8_t **p, const uint8_t *end,
                               uint64_t *v) {
  uint64_t x = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*p == end)
      return -1;
    uint8_t b = *(*p)++;
    x |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *v = x;
      return 0;
    }
  }
  return -1;
}

static size_t encode_header(uint8_t *h, const rpc_header *x) {
  put32(h, x->magic);
  h[4] = x->version;
  h[5] = x->type;
  memcpy(h + 6, &x->flags, 2);
  put64(h + 8, x->msg_id);
  put32(h + 16, x->attr_len);
  put32(h + 20, x->payload_len);
  put32(h + 24, x->nseg);
  put32(h + 28, header_crc(h));
  return RPC_HDR;
}

static NOINLINE int decode_header(const uint8_t *h, rpc_header *x) {
  x->magic = get32(h);
  x->version = h[4];
  x->type = h[5];
  memcpy(&x->flags, h + 6, 2);
  x->msg_id = get64(h + 8);
  x->attr_len = get32(h + 16);
  x->payload_len = get32(h + 20);
  x->nseg = get32(h + 24);
  x->crc = get32(h + 28);
  if (x->magic != RPC_MAGIC || x->version != 1 || x->crc != header_crc(h) ||
      x->attr_len > 1024)
    return -1;
  return 0;
}

static NOINLINE int decode_attrs(const uint8_t *p, size_t n, rpc_attrs *a) {
  const uint8_t *end = p + n;
  while (p < end) {
    uint64_t tag, v;
    if (get_varint(&p, end, &tag) < 0)
      return -1;
    if ((tag & 7) == 2) { // length-delimited
      if (get_varint(&p, end, &v) < 0 || v > (uint64_t)(end - p))
        return -1;
      switch (tag >> 3) {
      case 4:
        if (v != sizeof a->trace_id)
          return -1;
        memcpy(a->trace_id, p, 16);
        break;
      case 5:
        a->server_len = v < sizeof a->server ? v : sizeof a->server;
        memcpy(a->server, p, a->server_len);
        break;
      default: // unknown field: skipped
        break;
      }
      p += v;
      continue;
    }
    if (get_varint(&p, end, &v) < 0)
      return -1;
    switch (tag >> 3) {
    case 1:
      a->status = v;
      break;
    case 2:
      a->error = v;
      break;
    case 3:
      a->server_time_us = v;
      break;
    case 6:
      a->retry_after = v;
      break;
    case 7:
      a->compression = v;
      break;
    default:
      break;
    }
  }
  return 0;
}

static NOINLINE int read_segment(rpc_channel *ch, app *a, uint64_t *off) {
  uint8_t h[SEG_HDR];
  if (read_exact(ch->r, h, SEG_HDR) < 0)
    return -1;
  uint16_t type;
  memcpy(&type, h, 2);
  uint32_t len = get32(h + 4);
  uint64_t seg_off = get64(h + 8);
  if (type != 1 || seg_off != *off)
    return -1;
  if (deliver_payload(ch->r, a, seg_off, len) < 0)
    return -1;
  *off += len;
  return 0;
}

static NOINLINE int rpc_recv_response(rpc_channel *ch, app *a,
                                      uint64_t msg_id) {
  uint8_t h[RPC_HDR], attr_buf[1024];
  rpc_header hdr;
  rpc_attrs attrs;
  memset(&attrs, 0, sizeof attrs);
  if (read_exact(ch->r, h, RPC_HDR) < 0 || decode_header(h, &hdr) < 0 ||
      hdr.msg_id != msg_id || read_exact(ch->r, attr_buf, hdr.attr_len) < 0 ||
      decode_attrs(attr_buf, hdr.attr_len, &attrs) < 0)
    return -1;
  uint64_t off = 0;
  for (uint32_t i = 0; i < hdr.nseg; ++i)
    if (read_segment(ch, a, &off) < 0)
      return -1;
  if (off != hdr.payload_len)
    return -1;
  a->sum += attrs.status + attrs.error + attrs.server_time_us +
            attrs.retry_after + attrs.server_len + attrs.trace_id[15] +
            hdr.nseg;
  return 0;
}

static NOINLINE void rpc_send_request(rpc_channel *ch, uint64_t msg_id,
                                      uint64_t key, uint32_t len) {
  uint8_t req[RPC_HDR + 64];
  size_t n = RPC_HDR;
  n += put_varint(req + n, 1 << 3); // field 1: volume id
  n += put_varint(req + n, 17);
  n += put_varint(req + n, 2 << 3); // field 2: offset
  n += put_varint(req + n, key);
  n += put_varint(req + n, 3 << 3); // field 3: length
  n += put_varint(req + n, len);
  rpc_header x = {RPC_MAGIC, 1, 1, 0, msg_id, (uint32_t)(n - RPC_HDR), 0, 0, 0};
  encode_header(req, &x);
  sock_send(ch->r->s, req, n);
}

/// The generated stub: read(volume, offset, length) -> payload.
static NOINLINE int rpc_read(rpc_channel *ch, app *a, uint64_t key) {
  uint64_t id = ch->next_id++;
  rpc_send_request(ch, id, key, PAYLOAD);
  return rpc_recv_response(ch, a, id);
}

/// The mocked server's answer to a call: its response with the call's id.
static void rpc_mock_answer(mock_sock *s, const uint8_t *req, size_t n) {
  if (n < RPC_HDR)
    return;
  memcpy(s->head, s->rx, RPC_HDR);
  memcpy(s->head + 8, req + 8, 8);
  put32(s->head + 28, header_crc(s->head));
}

/// The server's response (call id 0); *expect: what the application sees.
static uint8_t *rpc_make_response(size_t *len, uint64_t *expect) {
  uint32_t nseg = PAYLOAD / RPC_SEGMENT;
  uint8_t *b = malloc(RPC_HDR + 256 + PAYLOAD + nseg * SEG_HDR);
  uint8_t *at = b + RPC_HDR;
  at += put_varint(at, 1 << 3); // status
  at += put_varint(at, 0);
  at += put_varint(at, 2 << 3); // error
  at += put_varint(at, 0);
  at += put_varint(at, 3 << 3); // server time
  at += put_varint(at, 1234567);
  at += put_varint(at, 4 << 3 | 2); // trace id
  at += put_varint(at, 16);
  for (int i = 0; i < 16; ++i)
    *at++ = (uint8_t)(i * 17 + 3);
  const char server[] = "storage-node-042.zone-b";
  at += put_varint(at, 5 << 3 | 2);
  at += put_varint(at, sizeof server - 1);
  memcpy(at, server, sizeof server - 1);
  at += sizeof server - 1;
  at += put_varint(at, 9 << 3 | 2); // an unknown field, skipped
  at += put_varint(at, 3);
  memcpy(at, "xyz", 3);
  at += 3;
  at += put_varint(at, 6 << 3); // retry after
  at += put_varint(at, 0);
  at += put_varint(at, 7 << 3); // compression
  at += put_varint(at, 0);
  rpc_header x = {RPC_MAGIC, 1,    2, 0, 0, (uint32_t)(at - b - RPC_HDR),
                  PAYLOAD,   nseg, 0};
  encode_header(b, &x);
  for (uint32_t s = 0; s < nseg; ++s) {
    uint16_t type = 1, flags = 0;
    memcpy(at, &type, 2);
    memcpy(at + 2, &flags, 2);
    put32(at + 4, RPC_SEGMENT);
    put64(at + 8, (uint64_t)s * RPC_SEGMENT);
    at += SEG_HDR;
    for (uint32_t i = 0; i < RPC_SEGMENT; ++i)
      *at++ = payload_byte((uint64_t)s * RPC_SEGMENT + i);
  }
  *len = (size_t)(at - b);
  *expect = 0 + 0 + 1234567 + 0 + (sizeof server - 1) + (uint8_t)(15 * 17 + 3) +
            nseg + PAYLOAD;
  return b;
}

// ---- the coroutines
// -------------------------------------------------------------

enum kind { HTTP, RPC };

typedef struct client {
  enum kind kind;
  uint64_t requests, failed;
  app a;
  mock_sock s;
  reader r;
} client;

static void client_main(void *arg) {
  client *c = arg;
  rpc_channel ch = {&c->r, 0};
  for (uint64_t i = 0; i < c->requests; ++i) {
    int rc;
    if (c->kind == HTTP)
      rc = http_get(&c->r, &c->a, "storage.example.com", "/objects/abc123");
    else
      rc = rpc_read(&ch, &c->a, i * PAYLOAD);
    if (rc < 0)
      ++c->failed;
  }
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 2000);
  const char *v = a.variant ? a.variant : "http";
  enum kind kind = !strncmp(v, "rpc", 3) ? RPC : HTTP;
  size_t seg = 4096, ncoro = 64;
  const char *colon = strchr(v, ':');
  if (colon) {
    seg = strtoull(colon + 1, NULL, 0);
    const char *c2 = strchr(colon + 1, ':');
    if (c2)
      ncoro = strtoull(c2 + 1, NULL, 0);
  }
  if (seg < 64 || ncoro < 1 || a.n < ncoro) {
    fprintf(stderr, "mock_client: bad -v %s or -n\n", v);
    return 64;
  }
  uint64_t expect_one;
  size_t resp_len;
  uint8_t *resp = kind == HTTP ? http_make_response(&resp_len, &expect_one)
                               : rpc_make_response(&resp_len, &expect_one);
  char workload[32];
  snprintf(workload, sizeof workload, "mock_%s", kind == HTTP ? "http" : "rpc");
  char variant[64];
  snprintf(variant, sizeof variant, "%s,seg=%zu,coros=%zu", BENCH_VARIANT, seg,
           ncoro);
  uint64_t per = a.n / ncoro, total = per * ncoro;
  bench_run run = bench_begin(workload, variant, total);
  client *cs = calloc(ncoro, sizeof *cs);
  cacs_coro **co = calloc(ncoro, sizeof *co);
  for (int rep = 0; rep < a.reps; ++rep) {
    for (size_t i = 0; i < ncoro; ++i) {
      // Field by field: clearing the 8 KiB line buffers would count.
      cs[i].failed = 0;
      memset(&cs[i].a, 0, sizeof cs[i].a);
      memset(&cs[i].s, 0, sizeof cs[i].s);
      cs[i].r.seg = NULL;
      cs[i].r.pos = cs[i].r.len = cs[i].r.carry_len = 0;
      cs[i].kind = kind;
      cs[i].requests = per;
      cs[i].s.rx = resp;
      cs[i].s.rx_len = resp_len;
      cs[i].s.seg = seg;
      cs[i].s.head_len = kind == RPC ? RPC_HDR : 0;
      cs[i].r.s = &cs[i].s;
    }
    uint64_t t0 = bench_now_ns();
    for (size_t i = 0; i < ncoro; ++i)
      co[i] = cacs_create(client_main, &cs[i], STACK_SIZE);
    for (size_t i = 0; i < ncoro; ++i)
      cacs_join(co[i]);
    uint64_t t1 = bench_now_ns();
    uint64_t got = 0, bad = 0;
    for (size_t i = 0; i < ncoro; ++i) {
      got += cs[i].a.sum;
      bad += cs[i].a.bad + cs[i].failed;
    }
    if (bad)
      fprintf(stderr, "%s: %" PRIu64 " failed requests or bad pieces\n",
              workload, bad);
    bench_record(&run, t1 - t0, total, bad ? 0 : got, total * expect_one);
  }
  return bench_end(&run);
}
