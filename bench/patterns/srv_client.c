//===- bench/patterns/srv_client.c - server: the client (main) --*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
// Round after round, sends one request of 16..315 bytes on every connection,
// then reads every echo back. *expected sums the bytes sent (weighted by
// position), the result the bytes received, the same way.
//
// The pipes hold 256 bytes, so the waits are rare (the whole pattern makes
// about 3.5 switches per request of 16..315 bytes each way). The source is
// built twice (patterns.h: SRV_RARE): as a user writes it by default, and,
// as srv_client_hinted (srv_client_hinted.c), with the waits marked rare.
// Without the hint the compiler's static estimate takes each wait loop for
// the hottest block (it assumes any loop runs 32 times); a preserve_none
// yield it believed hot would make the cacs build keep the byte loops'
// values in memory. With the hint (or a profile) the yield is rare by the
// block frequencies, without it by the wait-loop heuristic (isRareWait:
// a wait loop in a byte loop that does not arm it), and either way it goes
// through a shield (shieldsColdCall) and the byte loops keep their
// registers. Every runtime compiles the same two sources.
//
//===----------------------------------------------------------------------===//

#include "patterns.h"

#ifndef SRV_RARE
#define SRV_RARE(cond) (cond)
#endif
#ifndef SRV_CLIENT
#define SRV_CLIENT srv_client
#endif

static unsigned req_len(uint64_t r) { return 16 + (unsigned)(r * 37 % 300); }
static unsigned char req_byte(uint64_t r, unsigned j) {
  return (unsigned char)(r * 7 + j);
}

static void send_request(srv_conn *c, uint64_t r) {
  srv_pipe *p = &c->in;
  unsigned len = req_len(r);
  for (unsigned j = 0; j < len; ++j) {
    while (SRV_RARE(p->len == sizeof p->buf))
      YIELD();
    p->buf[(p->head + p->len) % sizeof p->buf] = req_byte(r, j);
    ++p->len;
  }
}

static uint64_t recv_echo(srv_conn *c, unsigned len) {
  srv_pipe *p = &c->out;
  uint64_t sum = 0;
  for (unsigned j = 0; j < len; ++j) {
    while (SRV_RARE(!p->len))
      YIELD();
    sum += (uint64_t)p->buf[p->head] * (j + 1);
    p->head = (p->head + 1) % sizeof p->buf;
    --p->len;
  }
  return sum;
}

uint64_t SRV_CLIENT(uint64_t requests, uint64_t *expected) {
  uint64_t got = 0, want = 0;
  for (uint64_t r0 = 0; r0 < requests; r0 += SRV_CONNS) {
    for (unsigned k = 0; k < SRV_CONNS; ++k)
      send_request(&srv_conns[k], r0 + k);
    for (unsigned k = 0; k < SRV_CONNS; ++k) {
      unsigned len = req_len(r0 + k);
      for (unsigned j = 0; j < len; ++j)
        want += (uint64_t)req_byte(r0 + k, j) * (j + 1);
      got += recv_echo(&srv_conns[k], len);
    }
  }
  for (unsigned k = 0; k < SRV_CONNS; ++k)
    srv_conns[k].in.closed = 1;
  *expected = want;
  return got;
}
