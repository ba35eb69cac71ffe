// cacs/io.h's calls in pool coroutines: a checksummed echo over socketpairs
// and pipes. Per connection a server coroutine echoes what it reads
// (cacs_read, cacs_write_all) and a client has two coroutines on its end,
// a writer (messages of random sizes, up to 48 KiB: bigger than a pipe's
// buffer, so writes wait for room) and a reader: a reader and a writer
// wait on one descriptor at once. 48 connections (half socketpairs, half
// pairs of pipes), 144 coroutines, on 1 and on 2 workers. Every byte must
// come back in order: the reader's checksum (FNV-1a over the stream) equals
// the writer's.
//
// RUN: %clang -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 1 | FileCheck %s
// RUN: %t 2 | FileCheck %s
// CHECK: bytes=[[B:[0-9]+]] echoed=[[B]] mismatched=0 errors=0

#include "Inputs/pio-engine.h"
#include "cacs/io.h"
#include "cacs/pool.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { CONNS = 48, MSGS = 16, MAXMSG = 48 * 1024 };

struct conn {
  int srv_in, srv_out; // the server reads srv_in, writes srv_out
  int cli_in, cli_out; // the client reads cli_in, writes cli_out
  uint64_t seed;
  size_t sent, got;
  uint64_t sum_sent, sum_got;
  int err;
};

static struct conn conns[CONNS];

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static uint64_t rnd(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static void server(void *arg) {
  struct conn *c = arg;
  char buf[16384];
  for (;;) {
    ssize_t n = cacs_read(c->srv_in, buf, sizeof buf, CACS_FOREVER);
    if (n <= 0) {
      c->err += n < 0;
      break;
    }
    if (cacs_write_all(c->srv_out, buf, (size_t)n, CACS_FOREVER) != n) {
      c->err++;
      break;
    }
  }
  cacs_close(c->srv_out);
  if (c->srv_out != c->srv_in)
    cacs_close(c->srv_in);
}

static void writer(void *arg) {
  struct conn *c = arg;
  unsigned char *buf = malloc(MAXMSG);
  uint64_t s = c->seed, h = 0xcbf29ce484222325ull;
  for (int m = 0; m < MSGS; ++m) {
    size_t n = 1 + rnd(&s) % MAXMSG;
    for (size_t i = 0; i < n; ++i)
      buf[i] = (unsigned char)rnd(&s);
    h = fnv(h, buf, n);
    if (cacs_write_all(c->cli_out, buf, n, CACS_FOREVER) != (ssize_t)n) {
      c->err++;
      break;
    }
    c->sent += n;
  }
  c->sum_sent = h;
  free(buf);
  // End of stream: the server sees end of file and closes its side.
  if (c->cli_out != c->cli_in)
    cacs_close(c->cli_out);
  else
    shutdown(c->cli_out, SHUT_WR);
}

static void reader(void *arg) {
  struct conn *c = arg;
  unsigned char buf[8192];
  uint64_t h = 0xcbf29ce484222325ull;
  for (;;) {
    ssize_t n = cacs_read(c->cli_in, buf, sizeof buf, CACS_FOREVER);
    if (n <= 0) {
      c->err += n < 0;
      break;
    }
    h = fnv(h, buf, (size_t)n);
    c->got += (size_t)n;
  }
  c->sum_got = h;
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  unsigned workers = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  for (int i = 0; i < CONNS; ++i) {
    struct conn *c = &conns[i];
    c->seed = 0x9E3779B97F4A7C15ull * (uint64_t)(i + 1);
    if (i % 2 == 0) {
      int sv[2];
      if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return 1;
      c->srv_in = c->srv_out = sv[0];
      c->cli_in = c->cli_out = sv[1];
    } else {
      int up[2], down[2];
      if (pipe(up) != 0 || pipe(down) != 0)
        return 1;
      c->cli_out = up[1];
      c->srv_in = up[0];
      c->srv_out = down[1];
      c->cli_in = down[0];
    }
  }
  cacs_pool *p = cacs_pool_create(workers);
  pio_check_engine(p);
  cacs_pool_task *t[3 * CONNS];
  for (int i = 0; i < CONNS; ++i) {
    t[3 * i] = cacs_pool_spawn(p, server, &conns[i]);
    t[3 * i + 1] = cacs_pool_spawn(p, reader, &conns[i]);
    t[3 * i + 2] = cacs_pool_spawn(p, writer, &conns[i]);
  }
  for (int i = 0; i < 3 * CONNS; ++i)
    cacs_pool_join(t[i]);
  cacs_pool_destroy(p);
  size_t bytes = 0, echoed = 0;
  int mismatched = 0, errors = 0;
  for (int i = 0; i < CONNS; ++i) {
    struct conn *c = &conns[i];
    bytes += c->sent;
    echoed += c->got;
    mismatched += c->sum_sent != c->sum_got;
    errors += c->err;
    close(c->cli_in);
  }
  printf("bytes=%zu echoed=%zu mismatched=%d errors=%d\n", bytes, echoed,
         mismatched, errors);
  return 0;
}
