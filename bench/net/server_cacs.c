//===- bench/net/server_cacs.c - The server on libcacs -------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// One libcacs coroutine per connection, blocking-style cacs_read /
// cacs_write_all from the I/O module (cacs/io.h); the main coroutine
// accepts. Built by the front door twice: as is, and with
// -fauto-preserve-none, on io_uring (where the kernel serves it; epoll
// otherwise), and once more on the epoll loop
// (-DNET_IO_ENGINE=CACS_IO_ENGINE_EPOLL: net_server_cacs_epoll). The work
// is net_common.h's.
// Connection coroutines are detached (cacs_detach): nobody joins them.
//
//===----------------------------------------------------------------------===//

#include "net_common.h"

#include "cacs/coro.h"
#include "cacs/io.h"

#include <stdint.h>

static void serve(void *arg) {
  int fd = (int)(intptr_t)arg;
  net_conn c;
  c.in_len = 0;
  for (;;) {
    ssize_t r = cacs_read(fd, net_room_ptr(&c), net_room(&c), CACS_FOREVER);
    const char *out;
    size_t len;
    if (r <= 0 || net_input(&c, (size_t)r, &out, &len) < 0)
      break;
    if (len && cacs_write_all(fd, out, len, CACS_FOREVER) != (ssize_t)len)
      break;
  }
  cacs_close(fd);
}

int main(int argc, char **argv) {
  net_opts o = net_parse(argc, argv);
#ifndef NET_IO_ENGINE
#define NET_IO_ENGINE CACS_IO_ENGINE_URING // the default, asked for all the same
#endif
  cacs_io_set_engine(NET_IO_ENGINE); // epoll: net_server_cacs_epoll
  int lfd = net_listen(&o);
  for (;;) {
    int fd = cacs_accept(lfd, NULL, NULL, CACS_FOREVER);
    if (fd < 0)
      continue;
    net_tune(fd);
    cacs_coro_attr attr = {.stack_size = NET_STACK, .name = "conn"};
    cacs_coro *c = cacs_create_ex(serve, (void *)(intptr_t)fd, &attr);
    if (c)
      cacs_detach(c); // a finished connection frees itself
    else
      cacs_close(fd);
  }
}
