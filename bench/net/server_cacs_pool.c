//===- bench/net/server_cacs_pool.c - The server on libcacs's pool -------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// server_cacs.c on the M:N pool (cacs/pool.h): one pool coroutine per
// connection, the same cacs_read / cacs_write_all / cacs_accept calls
// (cacs/io.h waits through the pool's poller in a pool coroutine), and a
// pool coroutine that accepts. NET_POOL_WORKERS worker threads (built as
// net_server_cacs_pool1 and net_server_cacs_pool2, on the pool's epoll
// poller, the default; with -DNET_IO_ENGINE=CACS_IO_ENGINE_URING, a ring per
// worker: net_server_cacs_pool1_uring, net_server_cacs_pool2_uring). The
// work is net_common.h's.
// Connection coroutines are detached (cacs_pool_spawn_detached).
//
//===----------------------------------------------------------------------===//

#include "net_common.h"

#include "cacs/io.h"
#include "cacs/pool.h"

#include <pthread.h>
#include <stdint.h>

#ifndef NET_POOL_WORKERS
#define NET_POOL_WORKERS 1
#endif

static cacs_pool *pool;
// net_common.h's request count is one plain counter: with -x (callgrind
// runs) the workers take it in turn.
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static void serve(void *arg) {
  int fd = (int)(intptr_t)arg;
  net_conn c;
  c.in_len = 0;
  for (;;) {
    ssize_t r = cacs_read(fd, net_room_ptr(&c), net_room(&c), CACS_FOREVER);
    const char *out;
    size_t len;
    if (r <= 0)
      break;
    int counted = net_opt.max_req != 0;
    if (counted)
      pthread_mutex_lock(&count_lock);
    int bad = net_input(&c, (size_t)r, &out, &len) < 0;
    if (counted)
      pthread_mutex_unlock(&count_lock);
    if (bad)
      break;
    if (len && cacs_write_all(fd, out, len, CACS_FOREVER) != (ssize_t)len)
      break;
  }
  cacs_close(fd);
}

static void acceptor(void *arg) {
  int lfd = (int)(intptr_t)arg;
  for (;;) {
    int fd = cacs_accept(lfd, NULL, NULL, CACS_FOREVER);
    if (fd < 0)
      continue;
    net_tune(fd);
    if (cacs_pool_spawn_detached(pool, serve, (void *)(intptr_t)fd) != 0)
      cacs_close(fd);
  }
}

int main(int argc, char **argv) {
  net_opts o = net_parse(argc, argv);
  int lfd = net_listen(&o);
  // Built with -fcoroutine-migration: its running coroutines may move.
#ifdef NET_IO_ENGINE
  cacs_io_set_engine(NET_IO_ENGINE); // before the pool: its workers' rings
#endif
  cacs_pool_attr attr = {NET_POOL_WORKERS, NET_STACK,
                         CACS_POOL_MIGRATE_RUNNING};
  pool = cacs_pool_create_ex(&attr);
  if (!pool)
    net_die("cacs_pool_create_ex");
  cacs_pool_join(cacs_pool_spawn(pool, acceptor, (void *)(intptr_t)lfd));
  return 0;
}
