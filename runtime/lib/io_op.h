//===- lib/io_op.h - What both I/O engines do with a call -------*- C -*-===//
//
// Private to the I/O module (io_wait.c and the io_uring engine,
// io_uring.c): the call as data and its deadline are io_internal.h's;
// here are the parts of a call both engines' record tables share: growing
// a table, the first sight of a descriptor, and the direction a call waits
// for.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_IO_OP_H
#define CACS_LIB_IO_OP_H

#include "fd_probe.h"
#include "io_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// Grow a table of per-descriptor records (`*n` records of `size` bytes at
// `*tab`; new ones zeroed) to hold `fd`. 0, or -1 with errno EBADF or
// ENOMEM. realloc runs on the thread's own stack (cacs__deep_call,
// internal.h): malloc's depth is glibc's, unbounded by the waits' stack
// budget (cacs/detail/contract.h) that a first wait on a higher descriptor
// number makes this inside.
struct fd_table_growth {
  void **tab;
  size_t *n, size;
  int fd, ret;
};
__attribute__((unused)) static void fd_table_grow_deep(void *arg) {
  struct fd_table_growth *g = (struct fd_table_growth *)arg;
  size_t k = *g->n ? *g->n : 64;
  while (k <= (size_t)g->fd)
    k *= 2;
  char *t = (char *)realloc(*g->tab, k * g->size);
  if (!t) {
    errno = ENOMEM;
    return;
  }
  memset(t + *g->n * g->size, 0, (k - *g->n) * g->size);
  *g->tab = t;
  *g->n = k;
  g->ret = 0;
}
__attribute__((noinline, cold, unused)) static int
fd_table_grow(void **tab, size_t *n, size_t size, int fd) {
  if (fd < 0) {
    errno = EBADF;
    return -1;
  }
  struct fd_table_growth g = {tab, n, size, fd, -1};
  cacs__deep_call(fd_table_grow_deep, &g);
  return g.ret;
}

struct fd_nonblocking {
  int fd, ret;
};
__attribute__((unused)) static void fd_nonblocking_deep(void *arg) {
  struct fd_nonblocking *m = (struct fd_nonblocking *)arg;
  struct stat st;
  m->ret = fd_probe(m->fd, &st);
}

// First sight of a descriptor: make it non-blocking. 1 if it is a socket
// (sends take MSG_NOSIGNAL), 0 if not, -1 (errno) if fcntl(2) fails. Its
// system calls and struct stat run on the thread's own stack
// (cacs__deep_call, internal.h), once per descriptor: the waits' stack
// budget (cacs/detail/contract.h) need not hold them.
__attribute__((noinline, cold, unused)) static int fd_make_nonblocking(int fd) {
  struct fd_nonblocking m = {fd, -1};
  cacs__deep_call(fd_nonblocking_deep, &m);
  return m.ret;
}

// An engine's first sight of a descriptor, both engines' rule: a number
// the engine holds itself (`engine_owns`: its epoll or ring descriptor, the
// caller's closed before the call and the number reused) is EBADF, as
// the closed descriptor's would be; else fd_make_nonblocking's result.
static inline __attribute__((always_inline, unused)) int
fd_first_sight(int fd, int engine_owns) {
  if (engine_owns) {
    errno = EBADF;
    return -1;
  }
  return fd_make_nonblocking(fd);
}

// The direction a call waits for: 0 (in) or 1 (out).
static inline __attribute__((always_inline)) int
op_dir(const struct io_op *op) {
  return op->kind == OP_WRITE || op->kind == OP_WRITEV || op->kind == OP_SEND;
}

#endif // CACS_LIB_IO_OP_H
