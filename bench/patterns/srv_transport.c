//===- bench/patterns/srv_transport.c - server: in-memory sockets -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// A connection is two 256-byte pipes. Reading an empty pipe and writing a
// full one yield until the other side has moved, as a non-blocking socket
// read/write would park on EAGAIN in cacs/io.h.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

#include <string.h>

srv_conn srv_conns[SRV_CONNS];

long srv_read(srv_conn *c, void *buf, unsigned long cap) {
  srv_pipe *p = &c->in;
  while (!p->len) {
    if (p->closed)
      return 0;
    YIELD();
  }
  unsigned n = p->len < cap ? p->len : (unsigned)cap;
  unsigned first = sizeof p->buf - p->head;
  if (first > n)
    first = n;
  memcpy(buf, p->buf + p->head, first);
  memcpy((unsigned char *)buf + first, p->buf, n - first);
  p->head = (p->head + n) % sizeof p->buf;
  p->len -= n;
  return n;
}

long srv_write_all(srv_conn *c, const void *buf, unsigned long n) {
  srv_pipe *p = &c->out;
  const unsigned char *b = buf;
  unsigned long left = n;
  while (left) {
    while (p->len == sizeof p->buf)
      YIELD();
    unsigned room = sizeof p->buf - p->len;
    unsigned k = left < room ? (unsigned)left : room;
    for (unsigned i = 0; i < k; ++i)
      p->buf[(p->head + p->len + i) % sizeof p->buf] = b[i];
    p->len += k;
    b += k;
    left -= k;
  }
  return (long)n;
}

void srv_close(srv_conn *c) { c->out.closed = 1; }
