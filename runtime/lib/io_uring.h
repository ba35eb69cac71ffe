//===- lib/io_uring.h - The io_uring engine of the I/O module ---*- C -*-===//
//
// Private to the I/O module. A thread's calls of cacs/io.h run on one of
// two engines, chosen when the thread makes its first call (io_uring.c):
// the epoll loop (io_epoll.c) or a ring of its own (io_uring.c). io.c's
// calls ask for the engine on their cold path (a descriptor its records do
// not know) and hand the call here when it is io_uring; io_wait.c's wait
// and io_internal.h's fd_forget do the same.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_IO_URING_H
#define CACS_LIB_IO_URING_H

#include "internal.h"
#include "cacs/io.h"

#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>

struct io_op;       // io_internal.h
struct io_deadline; // io_internal.h

/// The calling thread's engine: 0 until its first call, then
/// CACS_IO_ENGINE_EPOLL or CACS_IO_ENGINE_URING (cacs/io.h).
extern CACS_TLS int cacs__io_engine;

/// Choose the calling thread's engine (not a pool coroutine's: the pool
/// waits through its own poller): io_uring if it was asked for and a ring
/// can be made, else epoll.
/// \return the engine, now in cacs__io_engine.
int cacs__io_engine_pick(void);

/// Whether the calling thread's waits go to its ring: its engine, picked at
/// its first call (a thread on epoll does not call the pick again).
static inline int cacs__io_on_ring(void) {
  return cacs__io_engine != CACS_IO_ENGINE_EPOLL &&
         cacs__io_engine_pick() == CACS_IO_ENGINE_URING;
}

/// The calls of cacs/io.h on the calling thread's ring: as io.c's io_do,
/// io_wait.c's cacs__io_fd_wait (0 or an errno value), cacs_accept,
/// cacs_connect, io_internal.h's fd_forget. For an accept, cacs__uring_io
/// and cacs__uring_accept may also return CACS__URING_MOVED (below).
ssize_t cacs__uring_io(int fd, const struct io_op *op, struct io_deadline *d);
/// When the thread's ring is gone and none can be made (a child after
/// fork that io_uring refuses: io_uring.c's ring_ready), a call that has
/// moved no data yet starts over on the epoll loop, where the thread runs
/// now, with the ring's frames off the stack: its wait there lies where
/// the ring's would, not below the ring's frames, which the transfers'
/// stack budget (cacs/detail/contract.h) does not hold with it (x86-64: a
/// thread's first accept after such a fork used 752 bytes of its 608;
/// test/runtime/stack-budget-uring-fallback.c). cacs__uring_io jumps to
/// io.c's cacs__io_do_moved (a tail call, its prototype), but for an
/// accept: cacs__uring_io and cacs__uring_accept return CACS__URING_MOVED,
/// and io.c's accept_ring calls cacs_accept again, which keeps the epoll
/// loop's record of the new connection.
#define CACS__URING_MOVED (-2)
ssize_t cacs__io_do_moved(int fd, const struct io_op *op,
                          struct io_deadline *d);
CACS__IO_PN int cacs__uring_wait(int fd, unsigned dirs, struct io_deadline *d);
/// cacs_wait_fd's wait on the thread's ring (its poll found `fd` not
/// ready, outside a sync block): 0, or -1 with errno set; its caller's
/// call is a tail call, and its deadline lives in this frame. On a thread
/// that moves to the epoll loop (CACS__URING_MOVED's case) it ends in a
/// tail call of that loop's wait.
CACS__IO_PN int cacs__uring_wait_fd(int fd, unsigned dirs, int64_t timeout_us);
int cacs__uring_accept(int lfd, struct sockaddr *addr, socklen_t *addrlen,
                       int64_t timeout_us);
int cacs__uring_connect(int fd, const struct sockaddr *addr,
                        socklen_t addrlen, int64_t timeout_us);
void cacs__uring_forget(int fd);

/// The engine asked for: cacs_io_set_engine's, else CACS_IO_ENGINE's
/// ("epoll", "uring"), else CACS_IO_ENGINE_AUTO.
int cacs__io_engine_wanted(void);

struct io_uring_sqe;
struct msghdr;
/// Fill `s` with the request of `op` on `fd` (`socket`: sends take
/// MSG_NOSIGNAL); `m` holds sendmsg's header until the kernel takes it.
void cacs__uring_op_prep(struct io_uring_sqe *s, int fd, const struct io_op *op,
                         int socket, struct msghdr *m);
/// The call `op` completed with `n` (>= 0) bytes: what the kernel wrote
/// (for memcheck).
void cacs__uring_op_wrote(const struct io_op *op, size_t n);

struct io_uring;
/// Whether the kernel serves every request the engines make on `ring`.
int cacs__uring_serves(struct io_uring *ring);
/// Turn the entry with `user_data` into a no-op (same user data) if the
/// kernel has not taken it yet (a ring of the calling thread, no SQPOLL):
/// it never names its descriptor. 1 if so, 0 if the kernel has it.
int cacs__uring_unqueue(struct io_uring *ring, uint64_t user_data);

struct io_uring_params;
struct __kernel_timespec;
/// How long a busy ring's blocking wait lets completions gather, in
/// microseconds: CACS_IO_BATCH_US, else 20; 0: never (io_uring.c's
/// ur_wait_batch says why).
unsigned cacs__uring_batch_us(void);
/// Whether the kernel that made the ring (`p`, its parameters) has a
/// minimum wait (IORING_FEAT_MIN_TIMEOUT, Linux 6.12) and `min_us` asks
/// for one.
int cacs__uring_min_wait(const struct io_uring_params *p, unsigned min_us);
/// Whether a plain blocking wait that lasted `waited_ns` and ended with
/// `reaped_in` completions of receives (or waits to read) found the ring
/// busy: its next blocking wait gathers completions (cacs__uring_wait_min).
int cacs__uring_busy(unsigned reaped_in, uint64_t waited_ns);
/// One io_uring_enter on `ring` (`reg_ring`: through its registered
/// descriptor) that submits `submit` published entries and waits until
/// `inflight` completions are there (at least one), or `min_us` have
/// passed and one is, or `ts` (NULL: none). 0, or an errno value (EINVAL:
/// the kernel has no minimum wait after all).
int cacs__uring_wait_min(struct io_uring *ring, int reg_ring, unsigned submit,
                         unsigned inflight, unsigned min_us,
                         struct __kernel_timespec *ts);

#endif // CACS_LIB_IO_URING_H
