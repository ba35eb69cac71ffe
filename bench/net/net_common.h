//===- bench/net/net_common.h - What every network server shares -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The servers of bench/net differ only in their runtime (epoll callbacks,
// State Threads, Boost.Asio, libcacs, ...). What they compute is shared here,
// so that every server does exactly the same work per request:
//
//   <server> -p PORT [-m echo|http] [-x MAXREQ] [-c BACKLOG]
//
//   echo  every byte read is written back (the load generator sends 512-byte
//         messages; a request is 512 bytes echoed);
//   http  HTTP/1.1 keep-alive: each complete request (up to the blank line;
//         no body) gets the same small fixed response;
//   -x    exit(0) once MAXREQ requests were served (callgrind runs measure
//         the instructions of N and of 2N requests and take the difference).
//
// Accounting: net_served() counts bytes (echo) or requests (http) and exits
// when the limit is reached; the runtime-specific code calls it after each
// write of a response.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_NET_COMMON_H
#define CACS_BENCH_NET_COMMON_H

// memmem; include this header first.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NET_MSG 512     // echo message size of the load generator
#define NET_BUF 16384   // per-connection read buffer
#define NET_STACK 65536 // stack of a connection coroutine / thread

enum net_mode { NET_ECHO, NET_HTTP };

typedef struct net_opts {
  int port;
  enum net_mode mode;
  uint64_t max_req; // 0: serve forever
  int backlog;
} net_opts;

static net_opts net_opt;
static uint64_t net_count; // echo: bytes; http: requests

static inline void net_die(const char *what) {
  perror(what);
  exit(1);
}

static inline net_opts net_parse(int argc, char **argv) {
  net_opts o = {0, NET_ECHO, 0, 4096};
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-p") && i + 1 < argc)
      o.port = atoi(argv[++i]);
    else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
      ++i;
      o.mode = !strcmp(argv[i], "http") ? NET_HTTP : NET_ECHO;
    } else if (!strcmp(argv[i], "-x") && i + 1 < argc)
      o.max_req = strtoull(argv[++i], NULL, 0);
    else if (!strcmp(argv[i], "-c") && i + 1 < argc)
      o.backlog = atoi(argv[++i]);
    else {
      fprintf(stderr, "usage: %s -p PORT [-m echo|http] [-x MAXREQ]\n",
              argv[0]);
      exit(64);
    }
  }
  if (o.port <= 0) {
    fprintf(stderr, "%s: -p PORT is required\n", argv[0]);
    exit(64);
  }
  // 1,000 connections and more: lift the descriptor limit to its maximum.
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
  signal(SIGPIPE, SIG_IGN);
  net_opt = o;
  return o;
}

/// A listening TCP socket on 127.0.0.1:port (blocking; the runtime makes it
/// non-blocking if it wants).
static inline int net_listen(const net_opts *o) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0)
    net_die("socket");
  int one = 1;
  setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)o->port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(fd, (struct sockaddr *)&a, sizeof a) < 0)
    net_die("bind");
  if (listen(fd, o->backlog) < 0)
    net_die("listen");
  return fd;
}

/// Per-connection socket options every server sets on an accepted socket.
static inline void net_tune(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

static const char net_http_response[] = "HTTP/1.1 200 OK\r\n"
                                        "Server: cacs-bench\r\n"
                                        "Content-Type: text/plain\r\n"
                                        "Content-Length: 13\r\n"
                                        "\r\n"
                                        "Hello, world!";
#define NET_HTTP_RESPONSE_LEN (sizeof net_http_response - 1)

/// Count what was served; exit once the limit (-x) is reached.
static inline void net_served(uint64_t units) {
  net_count += units;
  if (net_opt.max_req) {
    uint64_t reqs = net_opt.mode == NET_ECHO ? net_count / NET_MSG : net_count;
    if (reqs >= net_opt.max_req) {
      // For the system-call counts (scripts/bench-net --only syscalls).
      struct rusage ru;
      if (getrusage(RUSAGE_SELF, &ru) == 0)
        fprintf(stderr, "RUSAGE nvcsw=%ld nivcsw=%ld\n", ru.ru_nvcsw,
                ru.ru_nivcsw);
      fflush(stdout);
      exit(0);
    }
  }
}

/// HTTP: parse the complete requests at the start of buf[0..len), at most
/// `max` of them (each ends with an empty line; the request line is
/// "METHOD SP target SP HTTP/1.x"). Returns how many, with the bytes they
/// take in *used; -1 on a malformed request.
static inline int net_http_requests(const char *buf, size_t len, int max,
                                    size_t *used) {
  int n = 0;
  size_t pos = 0;
  while (n < max) {
    const char *p = buf + pos;
    const char *end = (const char *)memmem(p, len - pos, "\r\n\r\n", 4);
    if (!end)
      break;
    const char *eol = (const char *)memmem(p, (size_t)(end - p) + 2, "\r\n", 2);
    const char *sp = (const char *)memchr(p, ' ', (size_t)(eol - p));
    if (!sp || sp == p || eol - p < 14 || memcmp(eol - 8, "HTTP/1.", 7))
      return -1;
    pos = (size_t)(end - buf) + 4;
    ++n;
  }
  *used = pos;
  return n;
}

/// HTTP: consume the complete requests in buf[0..*len) (the rest moves to
/// the front) and write one fixed response per request into out (capacity
/// out_cap). Returns the bytes to send (0: no complete request yet), -1 on
/// a malformed request; *nreq gets the number of requests answered.
/// Pipelined requests get their responses in order.
static inline long net_http_step(char *buf, size_t *len, char *out,
                                 size_t out_cap, int *nreq) {
  size_t used;
  int n = net_http_requests(buf, *len, (int)(out_cap / NET_HTTP_RESPONSE_LEN),
                            &used);
  *nreq = n < 0 ? 0 : n;
  if (n < 0)
    return -1;
  for (int i = 0; i < n; ++i)
    memcpy(out + (size_t)i * NET_HTTP_RESPONSE_LEN, net_http_response,
           NET_HTTP_RESPONSE_LEN);
  memmove(buf, buf + used, *len - used);
  *len -= used;
  return (long)((size_t)n * NET_HTTP_RESPONSE_LEN);
}

/// The per-connection buffers of a server that reads, then writes.
typedef struct net_conn {
  size_t in_len; // http: bytes of an incomplete request kept in `in`
  char in[NET_BUF];
  char out[NET_BUF];
} net_conn;

/// `r` more bytes were read into c->in + c->in_len (read at most
/// net_room(c) bytes there). Sets what to write back (possibly nothing) and
/// counts it as served; -1: close the connection (malformed request, or one
/// longer than the buffer).
static inline int net_input(net_conn *c, size_t r, const char **out,
                            size_t *len) {
  if (net_opt.mode == NET_ECHO) {
    *out = c->in;
    *len = r;
    net_served(r);
    return 0;
  }
  c->in_len += r;
  int nreq;
  long n = net_http_step(c->in, &c->in_len, c->out, sizeof c->out, &nreq);
  if (n < 0 || c->in_len == sizeof c->in)
    return -1;
  *out = c->out;
  *len = (size_t)n;
  net_served((uint64_t)nreq);
  return 0;
}

static inline char *net_room_ptr(net_conn *c) { return c->in + c->in_len; }
static inline size_t net_room(const net_conn *c) {
  return sizeof c->in - c->in_len;
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_BENCH_NET_COMMON_H
