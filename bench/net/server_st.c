//===- bench/net/server_st.c - The server on State Threads ---------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// One State Threads thread per connection (Debian's libst, epoll event
// system), blocking-style st_read / st_write; the work is net_common.h's.
//
//===----------------------------------------------------------------------===//

#include "net_common.h"

#include <st.h>

static void *serve(void *arg) {
  st_netfd_t fd = arg;
  net_conn c = {0};
  for (;;) {
    ssize_t r =
        st_read(fd, net_room_ptr(&c), net_room(&c), ST_UTIME_NO_TIMEOUT);
    const char *out;
    size_t len;
    if (r <= 0 || net_input(&c, (size_t)r, &out, &len) < 0)
      break;
    if (len && st_write(fd, out, len, ST_UTIME_NO_TIMEOUT) != (ssize_t)len)
      break;
  }
  st_netfd_close(fd);
  return NULL;
}

int main(int argc, char **argv) {
  net_opts o = net_parse(argc, argv);
  // Asks for epoll (select() stops at descriptor 1024); Debian's libst
  // still waits in select(2) (pselect6 under strace): 1,000 connections
  // fit.
  if (st_set_eventsys(ST_EVENTSYS_ALT) < 0 || st_init() < 0)
    net_die("st_init");
  st_netfd_t lfd = st_netfd_open_socket(net_listen(&o));
  if (!lfd)
    net_die("st_netfd_open_socket");
  for (st_utime_t nap = 0;;) {
    st_netfd_t c = st_accept(lfd, NULL, NULL, ST_UTIME_NO_TIMEOUT);
    if (!c) {
      // Out of descriptors or memory: st_accept fails at once while the
      // queue holds connections, so retrying at once would never let the
      // sessions that free descriptors run. Back off as cacs_accept does.
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
          errno == ENOMEM) {
        nap = nap ? (nap < 500000 ? 2 * nap : 1000000) : 5000;
        st_usleep(nap);
      }
      continue;
    }
    nap = 0;
    net_tune(st_netfd_fileno(c));
    if (!st_thread_create(serve, c, 0, NET_STACK))
      st_netfd_close(c);
  }
}
