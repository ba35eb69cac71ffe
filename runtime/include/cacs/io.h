//===- cacs/io.h - Descriptor I/O for coroutines ----------------*- C -*-===//
//
// The I/O module, library cacs_io (libcacs_io.a, beside libcacs.a; link
// both: -lcacs_io -lcacs, which pkg-config cacs and CMake's cacs::cacs
// give). A coroutine calling these functions waits for its descriptor
// instead of blocking the thread: each call tries the system call first
// and, on EAGAIN, parks the coroutine until the thread's event loop
// reports the descriptor ready, then tries again.
//
// Errors: every call returns -1 with errno set (the convention of the whole
// runtime, runtime/README.md "Errors"). Besides the system call's own
// errors:
//   ETIMEDOUT  the timeout passed (it covers the whole call, retries
//              included: cacs_write_all and cacs_connect too);
//   EINTR      another coroutine called cacs_wake on the waiting one;
//   ECANCELED  the descriptor was closed with cacs_close while waiting.
// A read of 0 bytes is end of file (the peer closed). A peer that reset the
// connection gives ECONNRESET; writing to a closed peer gives EPIPE (on
// sockets the module sends with MSG_NOSIGNAL, so no SIGPIPE; on pipes the
// signal is raised as for write(2): ignore SIGPIPE in a program that
// writes to pipes). A signal interrupting a system call (EINTR from the
// kernel) is retried, never returned. A call on a descriptor that another
// thread closed (cacs_close or close(2)) before the call waits fails with
// EBADF, as read(2) on a closed descriptor does (unless the program opened
// a file that took the number meanwhile), also when the call is the first
// of its thread or pool and makes the module's own descriptors (see
// "Engines"), which take the lowest free numbers: the module never uses
// one of its own descriptors as the caller's.
//
// Timeouts are int64_t microseconds as in coro.h: < 0 (CACS_FOREVER)
// waits forever, 0 never waits (ETIMEDOUT instead of EAGAIN).
//
// Thread model: every thread has its own event loop, created on its first
// wait and closed when the thread exits. A descriptor belongs to the loop
// of the thread that first waits on it; use it from that thread's
// coroutines only. cacs_wake from another thread is not possible (see
// cacs/sync.h for cross-thread wakeups). In a pool coroutine (cacs/pool.h)
// the same calls wait through the pool's poller, shared by its workers;
// a descriptor then belongs to the pool (see pool.h, "I/O").
// After fork(), the child drops the inherited epoll instance (it would be
// shared with the parent) and makes its own at its next wait; coroutines
// that were waiting when the process forked keep waiting in the child.
//
// Descriptors: the module makes a descriptor O_NONBLOCK the first time a
// call here sees it (cacs_accept returns non-blocking descriptors). A
// thread's loop starts in poll mode: it sleeps in poll(2) on the
// descriptors that have waiters, which the kernel watches only while the
// thread sleeps. Once more than 1,024 descriptors (CACS_IO_POLL_MAX from
// the environment; 0: from the start) wait at a time, it switches for good
// to epoll mode: each descriptor is registered with epoll (edge-triggered,
// once) the first time a call waits on it. epoll scales to any number of
// descriptors, but a registered socket makes every sender to it pay for a
// callback into the epoll instance on each arrival, which costs a peer on
// the same machine more than the scan of a thousand descriptors costs the
// loop (echo over loopback, 100 connections, 16 messages in flight: 25 %
// more messages per second from a poll(2) loop than from epoll). The
// module remembers what it learnt per descriptor number until cacs_close.
// Close descriptors the module has seen with cacs_close; if something else
// closes one (close(2), fclose, a library), call cacs_io_forget first, or a
// new descriptor that reuses the number could be used in blocking mode.
// Coroutines waiting on a descriptor that something else closes: a
// thread's loop in poll mode sees the closed descriptor at its next poll
// (the call fails with EBADF); in epoll mode the close takes the
// descriptor out of the epoll set unseen, and a waiter waits until its
// timeout, or for ever without one (as a thread blocked in read(2) on it
// would). A pool coroutine's wait (cacs/pool.h) fails with EBADF, not
// ETIMEDOUT, at its timeout or within about a second, whichever comes
// first (the pool checks the descriptors that have waiters once a
// second), and the pool forgets the number.
//
// Engines: a thread's calls run on one of two engines, chosen at its
// first call of this module: io_uring (a ring per thread, lib/io_uring.c)
// or the epoll loop described above. io_uring unless CACS_IO_ENGINE=epoll
// in the environment or cacs_io_set_engine asks for epoll; epoll
// whenever io_uring cannot serve (the library built without liburing, a
// kernel before 5.11, io_uring disabled by sysctl kernel.io_uring_disabled
// or by a seccomp filter, as in many container runtimes' default profile,
// or the locked-memory limit of a kernel before 5.12). Under Valgrind the
// default is epoll, and a pool never makes rings: Valgrind holds its lock
// while a thread waits in io_uring_enter, so no other thread runs (a
// thread asked for io_uring by name still gets it). On io_uring a call is
// a request on the thread's ring:
// the requests of one round of the ready coroutines go to the kernel
// together, in one system call that also collects the completions, and a
// busy thread (one whose completions come faster than it waits for them)
// lets them gather for up to 20 microseconds before it wakes (Linux 6.12
// and later), which may hold a request (or a wake-up from another
// thread) back by that much (CACS_IO_BATCH_US in the environment sets the
// 20, up to 1,000; 0 turns the gathering off). The
// calls keep the contract above; what differs: a call that waits hands its
// buffer to the kernel until it completes (a timeout or cacs_wake cancels
// it and the call returns once the kernel is done with the buffer; if it
// completed meanwhile, its result is returned, not ETIMEDOUT or EINTR);
// descriptors closed behind the module's back keep their waiters until
// their timeout, as in epoll mode; cacs_close and cacs_io_forget cancel
// the descriptor's requests before the ring runs them again, so bytes that
// came since the thread's last poll stay in the descriptor (a process that
// shares it after fork() may read them); CACS_IO_POLL_MAX and
// cacs_io_set_spin do not apply; after fork() a child's waiters queue
// their call again on the child's own ring (a cacs_wait_fd may return
// early), or on the epoll loop if the child cannot make a ring (a seccomp
// filter, the locked-memory limit), where its thread then stays. Pool
// coroutines (cacs/pool.h) wait through the pool's epoll poller unless
// io_uring is asked for (CACS_IO_ENGINE=uring, or cacs_io_set_engine before
// the pool is created) and every worker can make a ring: then each worker
// has a ring (lib/io_pool_uring.c), a pool coroutine's call is a request on
// the ring of the worker it runs on, which submits and reaps its requests
// once per pass of its loop (a busy worker lets completions gather as a
// busy thread does, CACS_IO_BATCH_US included), and the coroutine runs
// again (where the pool lets it) only once that ring has the request's
// completion. The same differences apply, but for descriptors closed
// behind the pool's back: their calls fail with EBADF at their timeout or
// within about a second, as on the poller.
//
// Any number of coroutines may wait on one descriptor in one direction
// (several acceptors on one listening socket, a reader and a writer on one
// socket): readiness wakes them all and each retries its call.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_IO_H
#define CACS_IO_H

#include "cacs/coro.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

#ifdef __cplusplus
extern "C" {
#endif

// The calls that may wait bind as coro.h's waiting calls do (see
// cacs_yield there): each name is declared with the default convention, so
// its address is the default-convention symbol under every compiler; where
// the compiler and the flags allow (CACS__WAIT_BIND), a function-like macro
// of the same name sends a call to cacs__call_<name>, labelled with the
// preserve_none entry cacs__<name>_pn (or _pn_bp), so that
// -fauto-preserve-none reaches the code calling them.

/// Wait until `fd` is ready for `events` (EPOLLIN, EPOLLOUT or both; ready
/// means a call would not block: data, end of file, an error or a hangup
/// count as ready). Level semantics: returns 0 at once if `fd` is ready now
/// (one poll(2) to find out), else parks.
/// \return 0, or -1 with errno set: EINVAL (`events` has neither EPOLLIN
/// nor EPOLLOUT), ETIMEDOUT, EINTR, ECANCELED (above), poll(2)'s errors.
int cacs_wait_fd(int fd, uint32_t events, int64_t timeout_us);

/// read(2), write(2), readv(2), writev(2), recv(2), send(2) that wait for
/// the descriptor instead of blocking the thread.
/// \return what the system call returns (a read of 0: end of file), or -1
/// with errno set: the system call's errors but EAGAIN and EINTR, and
/// ETIMEDOUT, EINTR (a cacs_wake), ECANCELED (a cacs_close) as above; also
/// EBADF or ENOMEM when the module first sees `fd` and cannot record it or
/// make it non-blocking (fcntl(2)'s errors).
ssize_t cacs_read(int fd, void *buf, size_t n, int64_t timeout_us);

/// write(2) that waits while `fd` is not writable; on a socket it is
/// send(2) with MSG_NOSIGNAL (no SIGPIPE: EPIPE instead). May write fewer
/// than `n` bytes, as write(2) does (cacs_write_all loops).
/// \return the bytes written, or -1 with errno set as for cacs_read.
ssize_t cacs_write(int fd, const void *buf, size_t n, int64_t timeout_us);

/// readv(2) that waits while `fd` has nothing to read.
/// \return the bytes read (0: end of file), or -1 with errno set as for
/// cacs_read.
ssize_t cacs_readv(int fd, const struct iovec *iov, int iovcnt,
                   int64_t timeout_us);

/// writev(2) that waits while `fd` is not writable; on a socket it is
/// sendmsg(2) with MSG_NOSIGNAL (no SIGPIPE: EPIPE instead). May write
/// fewer bytes than the vectors hold.
/// \return the bytes written, or -1 with errno set as for cacs_read.
ssize_t cacs_writev(int fd, const struct iovec *iov, int iovcnt,
                    int64_t timeout_us);

/// recv(2) with `flags` that waits while the socket has nothing to read
/// (MSG_DONTWAIT in `flags` does not stop the wait: give timeout_us 0).
/// \return the bytes received (0: the peer closed), or -1 with errno set as
/// for cacs_read.
ssize_t cacs_recv(int fd, void *buf, size_t n, int flags, int64_t timeout_us);

/// send(2) with `flags` and MSG_NOSIGNAL (no SIGPIPE: EPIPE instead) that
/// waits while the socket is not writable. May send fewer than `n` bytes.
/// \return the bytes sent, or -1 with errno set as for cacs_read.
ssize_t cacs_send(int fd, const void *buf, size_t n, int flags,
                  int64_t timeout_us);

/// Write all `n` bytes (looping over short writes).
/// \return n, or -1 with errno set as for cacs_write; on an error some of
/// the bytes may have been written.
ssize_t cacs_write_all(int fd, const void *buf, size_t n, int64_t timeout_us);

/// accept4(2) with SOCK_NONBLOCK | SOCK_CLOEXEC. A connection dropped
/// before it was taken (ECONNABORTED, EPROTO and the other network errors
/// accept(2) says to treat as EAGAIN) is skipped. With no descriptor or
/// memory for one more connection (EMFILE, ENFILE, ENOBUFS, ENOMEM) it
/// backs off instead of failing, as Go's net/http does: it sleeps 5 ms,
/// doubling up to 1 s, and tries again, while the connections wait in the
/// listener's queue; so a server loop that ends at accept's first error
/// survives a descriptor limit below its load (docs/runtime.md).
/// \return a non-blocking descriptor, or -1 with errno set: accept4's
/// other errors (EBADF, EINVAL, ...), ETIMEDOUT (also when the timeout
/// ends a back-off), EINTR (a cacs_wake, also during a back-off),
/// ECANCELED as above; with timeout 0, EMFILE, ENFILE, ENOBUFS or ENOMEM
/// themselves (it may not wait).
int cacs_accept(int lfd, struct sockaddr *addr, socklen_t *addrlen,
                int64_t timeout_us);

/// Connect a socket (made non-blocking): on EINPROGRESS waits until it is
/// writable and reports the outcome from SO_ERROR (ECONNREFUSED, ...).
/// After ETIMEDOUT or EINTR the attempt continues in the kernel: close
/// the socket.
/// \return 0, or -1 with errno set: connect(2)'s errors, the socket's
/// SO_ERROR, ETIMEDOUT, EINTR, ECANCELED as above.
int cacs_connect(int fd, const struct sockaddr *addr, socklen_t addrlen,
                 int64_t timeout_us);

/// Wake every coroutine waiting on `fd` (they return -1, ECANCELED), forget
/// the descriptor, then close(2) it. The waiters of the calling thread's
/// loop, and those of every pool (cacs/pool.h) that knows `fd`, whichever
/// thread or coroutine calls it.
/// \return close(2)'s result: 0, or -1 with its errno.
int cacs_close(int fd);

/// Forget what the module knows of `fd` (non-blocking mode set, epoll
/// registration), waking its waiters with ECANCELED, without closing it:
/// in the calling thread's loop and in every pool that knows `fd`.
/// Call it before a descriptor the module has seen is closed by other
/// means.
void cacs_io_forget(int fd);

/// The spin of the calling thread's loop, in microseconds, when no
/// environment variable CACS_IO_SPIN_US sets another: none.
#define CACS_IO_SPIN_DEFAULT_US 0

/// When no coroutine of the calling thread is ready, its loop polls for
/// events without sleeping for up to `usec` microseconds (never past the
/// next timer) before it sleeps. Waking a thread that sleeps costs the
/// thread that makes its descriptor ready: over loopback, the peer process
/// pays for an inter-processor interrupt (under virtualization, an exit to
/// the hypervisor) on each send that finds the loop asleep; a loop found
/// spinning costs it nothing, at the price of up to `usec` of CPU time each
/// time the thread runs out of work. It pays in epoll mode (see
/// "Descriptors" above: 5 % more echo messages per second over loopback
/// with 20 us), not in poll mode, where each spin of poll(2) looks at every
/// descriptor. 0 sleeps at once; < 0 restores the default (CACS_IO_SPIN_US
/// from the environment, read when the thread's loop starts, or
/// CACS_IO_SPIN_DEFAULT_US); values above a second are capped.
/// \return the previous setting (never fails).
int64_t cacs_io_set_spin(int64_t usec);

/// The engines of a thread's loop (see "Engines" above).
enum {
  CACS_IO_ENGINE_AUTO = 0,  ///< the module's choice: io_uring if it can
  CACS_IO_ENGINE_EPOLL = 1, ///< the epoll (and poll(2)) loop
  CACS_IO_ENGINE_URING = 2  ///< a ring per thread (io_uring)
};

/// Ask for an engine for every thread whose first call of this module
/// comes after this call (a thread's engine does not change, but in a
/// child after fork() that cannot make a ring: it moves to epoll): AUTO
/// leaves the choice to CACS_IO_ENGINE from the environment, then to the
/// module. A thread asked to use io_uring that cannot gets epoll.
/// \return the previous request, or -1 with errno EINVAL (no such engine).
int cacs_io_set_engine(int engine);

/// The calling thread's engine: CACS_IO_ENGINE_EPOLL or
/// CACS_IO_ENGINE_URING after its first call of this module, else
/// CACS_IO_ENGINE_AUTO (not chosen yet); in a pool coroutine, its pool's
/// (see "Engines" above). Never fails.
int cacs_io_engine(void);

#include "cacs/detail/io_bind.h"

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_IO_H
