//===- bench/common/wf.h - Shared bits of the write_fully workload -*- C
//-*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// WF_TASKS tasks each send `bytes` bytes of one shared read-only buffer
// through a mocked non-blocking socket: send_some() takes exactly WF_CHUNK
// bytes (less at the end) and folds the first and last byte it takes into
// the socket's checksum; it is always preceded by wait_for_ready(), which
// only switches to the other tasks (round-robin). One operation = one
// wait_for_ready() + send_some().
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_WF_H
#define CACS_BENCH_WF_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define WF_TASKS 10
#define WF_CHUNK 800

typedef struct wf_sock {
  uint64_t sent;
  uint64_t sum;
} wf_sock;

static __attribute__((noinline)) size_t
wf_send_some(wf_sock *s, const unsigned char *buf, size_t len) {
  size_t n = len < WF_CHUNK ? len : WF_CHUNK;
  s->sent += n;
  s->sum += buf[0] + buf[n - 1];
  return n;
}

static inline unsigned char *wf_make_buffer(size_t bytes) {
  unsigned char *b = (unsigned char *)malloc(bytes);
  for (size_t i = 0; i < bytes; ++i)
    b[i] = (unsigned char)(i * 7 + (i >> 12));
  return b;
}

/// The checksum all sockets together must show.
static inline uint64_t wf_expected(const unsigned char *b, size_t bytes) {
  uint64_t sum = 0;
  for (size_t off = 0; off < bytes; off += WF_CHUNK) {
    size_t n = bytes - off < WF_CHUNK ? bytes - off : WF_CHUNK;
    sum += b[off] + b[off + n - 1];
  }
  return sum * WF_TASKS + (uint64_t)bytes * WF_TASKS;
}

static inline uint64_t wf_ops(size_t bytes) {
  return (uint64_t)WF_TASKS * ((bytes + WF_CHUNK - 1) / WF_CHUNK);
}

#ifdef WF_YIELD
// The stackful client, shared by every stackful variant: the includer
// defines WF_YIELD() as its switch to the other tasks. It lives in the
// includer's translation unit, so -fauto-preserve-none can infect it.

static __attribute__((noinline)) void wait_for_ready(wf_sock *s) {
  (void)s;
  WF_YIELD(); // the mock is never ready before the others had a turn
}

static __attribute__((noinline)) size_t
write_fully(wf_sock *s, const unsigned char *buf, size_t len) {
  size_t left = len;
  while (left) {
    wait_for_ready(s);
    size_t n = wf_send_some(s, buf, left);
    buf += n;
    left -= n;
  }
  return len;
}

typedef struct task {
  wf_sock sock;
  const unsigned char *buf;
  size_t bytes;
} task;

static void task_body(void *arg) {
  task *t = (task *)arg;
  write_fully(&t->sock, t->buf, t->bytes);
}
#endif // WF_YIELD

#endif // CACS_BENCH_WF_H
