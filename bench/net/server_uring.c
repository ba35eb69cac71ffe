//===- bench/net/server_uring.c - Hand-written io_uring server -----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The io_uring ceiling: one thread, one ring (liburing), a state machine
// per connection, no coroutines. A multishot accept; per connection one
// receive in flight, and after it the answer's send (a short send sends
// the rest before the next receive, as server_epoll.c stops reading until
// its output has drained). Each pass of the loop submits every queued
// request and waits for at least one completion in one io_uring_enter,
// then handles every completion there is. Same options and work as every
// server in bench/net (net_common.h).
//
//===----------------------------------------------------------------------===//

#include "net_common.h"

#include <liburing.h>

typedef struct conn {
  int fd;
  const char *out; // output not yet sent (into io's buffers)
  size_t out_len;
  net_conn io;
} conn;

// user_data: a connection, or this tag for the listener's accepts.
#define ACCEPT_TAG 1u

static struct io_uring ring;

// The next free submission slot; a full queue is submitted first.
static struct io_uring_sqe *sqe_get(void) {
  struct io_uring_sqe *s;
  while (!(s = io_uring_get_sqe(&ring)))
    io_uring_submit(&ring);
  return s;
}

static void queue_accept(int lfd) {
  struct io_uring_sqe *s = sqe_get();
  io_uring_prep_multishot_accept(s, lfd, NULL, NULL, SOCK_CLOEXEC);
  io_uring_sqe_set_data64(s, ACCEPT_TAG);
}

static void queue_recv(conn *c) {
  struct io_uring_sqe *s = sqe_get();
  io_uring_prep_recv(s, c->fd, net_room_ptr(&c->io), net_room(&c->io), 0);
  io_uring_sqe_set_data(s, c);
}

static void queue_send(conn *c) {
  struct io_uring_sqe *s = sqe_get();
  io_uring_prep_send(s, c->fd, c->out, c->out_len, MSG_NOSIGNAL);
  io_uring_sqe_set_data(s, c);
}

// A completion for `c` (the send's while output is pending, else the
// receive's): queue the connection's next request; -1 closes it.
static int on_done(conn *c, int res) {
  if (res <= 0)
    return -1;
  if (c->out_len) {
    c->out += res;
    c->out_len -= (size_t)res;
  } else if (net_input(&c->io, (size_t)res, &c->out, &c->out_len) < 0) {
    return -1;
  }
  if (c->out_len)
    queue_send(c);
  else
    queue_recv(c);
  return 0;
}

int main(int argc, char **argv) {
  net_opts o = net_parse(argc, argv);
  int lfd = net_listen(&o);
  // Completions run only in this thread's io_uring_enter (6.1 and later);
  // older kernels take the plain ring.
  struct io_uring_params p = {0};
  p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
  p.flags |= IORING_SETUP_CQSIZE;
  p.cq_entries = 8192;
  if (io_uring_queue_init_params(1024, &ring, &p) < 0) {
    memset(&p, 0, sizeof p);
    int e = io_uring_queue_init_params(1024, &ring, &p);
    if (e < 0) {
      errno = -e;
      net_die("io_uring_queue_init");
    }
  }
  queue_accept(lfd);
  for (;;) {
    io_uring_submit_and_wait(&ring, 1);
    struct io_uring_cqe *cqe;
    unsigned head, seen = 0;
    io_uring_for_each_cqe(&ring, head, cqe) {
      ++seen;
      if (cqe->user_data == ACCEPT_TAG) {
        if (!(cqe->flags & IORING_CQE_F_MORE))
          queue_accept(lfd); // the multishot ended: arm it again
        if (cqe->res < 0)
          continue;
        net_tune(cqe->res);
        conn *c = malloc(sizeof *c);
        if (!c)
          net_die("malloc");
        c->fd = cqe->res;
        c->out_len = 0;
        c->io.in_len = 0;
        queue_recv(c);
        continue;
      }
      conn *c = io_uring_cqe_get_data(cqe);
      if (on_done(c, cqe->res) < 0) {
        close(c->fd);
        free(c);
      }
    }
    io_uring_cq_advance(&ring, seen);
  }
}
