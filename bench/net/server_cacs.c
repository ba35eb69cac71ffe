//===- bench/net/server_cacs.c - The server on libcacs -------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// One libcacs coroutine per connection, blocking-style cacs_read /
// cacs_write_all from the I/O module (cacs/io.h); the main coroutine
// accepts. Built by the front door twice: as is, and with
// -fauto-preserve-none. The work is net_common.h's.
//
// A finished connection coroutine must be joined (coro.h): it adds itself
// to a list as its last act, and the acceptor joins the list after each
// accept.
//
//===----------------------------------------------------------------------===//

#include "net_common.h"

#include "cacs/coro.h"
#include "cacs/io.h"

#include <stdint.h>

static cacs_coro **to_join; // finished connections, not yet joined
static size_t n_join, cap_join;

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
  if (n_join == cap_join) {
    cap_join = cap_join ? 2 * cap_join : 64;
    to_join = realloc(to_join, cap_join * sizeof *to_join);
    if (!to_join)
      net_die("realloc");
  }
  to_join[n_join++] = cacs_self();
}

static void join_finished(void) {
  while (n_join)
    cacs_join(to_join[--n_join]);
}

int main(int argc, char **argv) {
  net_opts o = net_parse(argc, argv);
  int lfd = net_listen(&o);
  for (;;) {
    int fd = cacs_accept(lfd, NULL, NULL, CACS_FOREVER);
    join_finished();
    if (fd < 0)
      continue;
    net_tune(fd);
    cacs_coro_attr attr = {.stack_size = NET_STACK, .name = "conn"};
    if (!cacs_create_ex(serve, (void *)(intptr_t)fd, &attr))
      cacs_close(fd);
  }
}
