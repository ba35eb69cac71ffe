//===- bench/net/server_epoll.c - Hand-written epoll callback server -----===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The ceiling: one thread, level-triggered epoll, a state machine per
// connection, no coroutines. Same options and work as every server in
// bench/net (net_common.h). On a short write the rest waits in the
// connection's output buffer and reading stops until it has drained.
//
//===----------------------------------------------------------------------===//

#include "net_common.h"

#include <fcntl.h>
#include <sys/epoll.h>

typedef struct conn {
  int fd;
  const char *out; // pending output (into io's buffers); reading stops
  size_t out_len;  // until it has drained
  net_conn io;
} conn;

static int ep;

static void set_nonblock(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static void watch(conn *c, uint32_t events, int op) {
  struct epoll_event ev = {.events = events, .data.ptr = c};
  epoll_ctl(ep, op, c->fd, &ev);
}

/// Send the pending output; 0 when all of it is gone or the socket is full
/// (then EPOLLOUT is watched instead of EPOLLIN), -1 on error.
static int flush_out(conn *c) {
  while (c->out_len) {
    ssize_t w = write(c->fd, c->out, c->out_len);
    if (w < 0) {
      if (errno != EAGAIN)
        return -1;
      watch(c, EPOLLOUT, EPOLL_CTL_MOD);
      return 0;
    }
    c->out += w;
    c->out_len -= (size_t)w;
  }
  return 0;
}

/// One event: finish a blocked write, or read once and answer.
static int on_event(conn *c) {
  if (c->out_len) {
    if (flush_out(c) < 0)
      return -1;
    if (!c->out_len)
      watch(c, EPOLLIN, EPOLL_CTL_MOD);
    return 0;
  }
  ssize_t r = read(c->fd, net_room_ptr(&c->io), net_room(&c->io));
  if (r <= 0)
    return r < 0 && errno == EAGAIN ? 0 : -1;
  if (net_input(&c->io, (size_t)r, &c->out, &c->out_len) < 0)
    return -1;
  return flush_out(c);
}

int main(int argc, char **argv) {
  net_opts o = net_parse(argc, argv);
  int lfd = net_listen(&o);
  set_nonblock(lfd);
  ep = epoll_create1(0);
  struct epoll_event ev = {.events = EPOLLIN, .data.ptr = NULL};
  epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
  struct epoll_event evs[256];
  for (;;) {
    int k = epoll_wait(ep, evs, 256, -1);
    for (int i = 0; i < k; ++i) {
      conn *c = evs[i].data.ptr;
      if (!c) { // the listener
        int fd;
        while ((fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
          net_tune(fd);
          conn *n = malloc(sizeof *n);
          if (!n)
            net_die("malloc");
          n->fd = fd;
          n->out_len = 0;
          n->io.in_len = 0;
          watch(n, EPOLLIN, EPOLL_CTL_ADD);
        }
        continue;
      }
      if (on_event(c) < 0) {
        close(c->fd);
        free(c);
      }
    }
  }
}
