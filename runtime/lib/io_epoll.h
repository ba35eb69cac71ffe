//===- lib/io_epoll.h - The poll(2)/epoll engine's state, hooks -*- C -*-===//
//
// The engine's part of the records and of the thread's loop
// (io_internal.h), and the hooks the wait path calls inline. Included by
// io_internal.h only; io_epoll.c is the rest of the engine.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_IO_EPOLL_H
#define CACS_LIB_IO_EPOLL_H

#include <poll.h>
#include <stddef.h>
#include <sys/epoll.h>

#include "internal.h"

// Of one descriptor's record.
struct io_fd_engine {
  unsigned char registered; // in the epoll set
  unsigned pidx;            // poll mode: 1 + its index in the poll set, or 0
};

// Of a thread's loop. Poll mode (io_epoll.c, "Two ways to wait"): the
// descriptors with waiters and the core's wake-up eventfd, as poll(2)
// takes them.
struct io_loop_engine {
  int epfd; // -1 until the thread's first wait
  int no_pwait2;
  int use_epoll;   // every wait registers with epoll from now on
  int wake_fd;     // the core's wake-up eventfd the loop watches, or -1
  int own_wake_fd; // that eventfd, watched or not (io_engine_owns), or -1
  size_t poll_max; // more descriptors than this: switch to epoll
  struct pollfd *pfds;
  size_t npfds, cap_pfds;
};

#define IO_LOOP_ENGINE_INIT                                                    \
  { .epfd = -1, .wake_fd = -1, .own_wake_fd = -1 }

struct io_fd;

/// Register `fd` with the epoll set (edge-triggered, both directions);
/// 0, or -1 with errno (EPERM: a file epoll cannot wait for).
CACS_HIDDEN int cacs__io_register(int fd, struct io_fd *r);

// The hooks io_internal.h names ("the engine"), given the loop's and the
// record's parts: this header comes before those types are complete.
static inline int io_engine_ready(const struct io_loop_engine *e) {
  return e->epfd >= 0;
}

// Whether `fd` is one of the loop's own descriptors (its epoll instance,
// the core's wake-up eventfd it watches), never a caller's: the loop makes
// them at the thread's first wait, and they take the lowest free numbers,
// so the number of a descriptor another thread closed since the call
// tried it may be one of them now (io_wait.c). Not before the loop is set
// up (in a child after fork, wake_fd is the parent's number until then).
// The eventfd is the loop's even when the loop could not watch it (no
// memory for it in the poll set): its number is not the caller's either.
static inline int io_engine_owns(const struct io_loop_engine *e, int fd) {
  return e->epfd >= 0 && (fd == e->epfd || fd == e->own_wake_fd);
}

/// cacs__io_register of the descriptor `fd` (the pointer's value) and its
/// record, for cacs__deep_call.
CACS_HIDDEN void cacs__io_register_deep(void *fd);

// Epoll mode's registration, inside a wait: on the thread's own stack
// (cacs__deep_call, the descriptor in the pointer, the answer in the
// record), as the poll set's growth is: a call of cacs__io_register would
// put its frame, its epoll_event and epoll_ctl's below the wait's (216
// bytes of cacs_wait_fd's budget of 248, x86-64, a thread's first wait).
static inline int io_engine_watch(const struct io_loop_engine *e,
                                  const struct io_fd_engine *fe, int fd,
                                  struct io_fd *r) {
  (void)r;
  if (!e->use_epoll || fe->registered)
    return 0;
  cacs__deep_call(cacs__io_register_deep, (void *)(intptr_t)fd);
  return fe->registered ? 0 : -1; // errno: epoll_ctl's, on this thread
}

#endif // CACS_LIB_IO_EPOLL_H
