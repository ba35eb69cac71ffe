// Ping-pong of timed (or untimed) reads between two pool coroutines on one
// worker's io_uring ring: ns per round trip.
#define _GNU_SOURCE 1
#include "cacs/io.h"
#include "cacs/pool.h"
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
static int sv[2];
static long n;
static int64_t tmo;
static void side(void *arg) {
  int fd = sv[(long)arg];
  char c = 'x';
  if ((long)arg == 0 && write(fd, &c, 1) != 1) abort();
  for (long i = 0; i < n; ++i) {
    if (cacs_read(fd, &c, 1, tmo) != 1) { perror("read"); abort(); }
    if ((long)arg == 0 && i == n - 1) break;
    if (cacs_write(fd, &c, 1, CACS_FOREVER) != 1) abort();
  }
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e9 + t.tv_nsec; }
int main(int argc, char **argv) {
  n = atol(argv[1]);
  tmo = atoi(argv[2]) ? 1000000 : CACS_FOREVER;
  if (cacs_io_set_engine(CACS_IO_ENGINE_URING)) abort();
  socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv);
  cacs_pool *p = cacs_pool_create(1);
  double t0 = now();
  cacs_pool_task *a = cacs_pool_spawn(p, side, (void *)0);
  cacs_pool_task *b = cacs_pool_spawn(p, side, (void *)1);
  cacs_pool_join(a); cacs_pool_join(b);
  printf("%s %.1f ns/rt\n", tmo > 0 && tmo != CACS_FOREVER ? "timed" : "untimed", (now() - t0) / n);
  cacs_pool_destroy(p);
}
