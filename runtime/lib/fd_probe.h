//===- lib/fd_probe.h - The first sight of a descriptor ---------*- C -*-===//
//
// What every I/O engine does the first time it sees a descriptor (io_wait.c
// and io_uring.c through io_op.h, the pool's pool_io.c): make it
// non-blocking and stat it. One copy, so the engines cannot disagree on
// what a socket is or on a descriptor whose fstat(2) fails.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_FD_PROBE_H
#define CACS_LIB_FD_PROBE_H

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

// 1 if `fd` is a socket, 0 if not, -1 (errno) if fcntl(2) fails; `st` is
// zeroed where fstat(2) fails. Runs where the caller put it: its struct
// stat is too big for a wait's stack budget, so callers run it on the
// thread's own stack (cacs__deep_call).
__attribute__((unused)) static int fd_probe(int fd, struct stat *st) {
  int fl = fcntl(fd, F_GETFL);
  if (fl < 0 || (!(fl & O_NONBLOCK) && fcntl(fd, F_SETFL, fl | O_NONBLOCK)))
    return -1;
  if (fstat(fd, st) != 0) {
    memset(st, 0, sizeof *st);
    return 0;
  }
  return S_ISSOCK(st->st_mode) != 0;
}

#endif // CACS_LIB_FD_PROBE_H
