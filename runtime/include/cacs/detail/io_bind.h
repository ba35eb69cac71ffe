//===- cacs/detail/io_bind.h - Bindings of cacs/io.h's calls -*- C -*-===//
//
// Internal: included by cacs/io.h only, after its declarations; do not
// include it directly (its contents are not API and may change between
// releases). The macros of detail/bind.h send calls of the waiting calls of
// cacs/io.h to their preserve_none entries.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DETAIL_IO_BIND_H
#define CACS_DETAIL_IO_BIND_H

#if CACS__WAIT_BIND
CACS__WAIT_DECL CACS__WAIT_FD_BUDGET CACS__SYNC_BLOCK_ALLOWS int
cacs__call_wait_fd(int fd, uint32_t events, int64_t timeout_us)
    CACS__WAIT_ENTRY(wait_fd);
#define cacs_wait_fd(...) cacs__call_wait_fd(__VA_ARGS__)
#endif

#if CACS__WAIT_BIND
CACS__WAIT_DECL CACS__WAIT_BUDGET CACS__SYNC_BLOCK_ALLOWS ssize_t
cacs__call_read(int fd, void *buf, size_t n, int64_t timeout_us)
    CACS__WAIT_ENTRY(read);
#define cacs_read(...) cacs__call_read(__VA_ARGS__)
#endif

#if CACS__WAIT_BIND
CACS__WAIT_DECL CACS__WAIT_BUDGET CACS__SYNC_BLOCK_ALLOWS ssize_t
cacs__call_write(int fd, const void *buf, size_t n, int64_t timeout_us)
    CACS__WAIT_ENTRY(write);
#define cacs_write(...) cacs__call_write(__VA_ARGS__)
#endif

#if CACS__WAIT_BIND
CACS__WAIT_DECL CACS__WAIT_BUDGET CACS__SYNC_BLOCK_ALLOWS ssize_t
cacs__call_readv(int fd, const struct iovec *iov, int iovcnt,
                 int64_t timeout_us) CACS__WAIT_ENTRY(readv);
#define cacs_readv(...) cacs__call_readv(__VA_ARGS__)
#endif

#if CACS__WAIT_BIND
CACS__WAIT_DECL CACS__WAIT_BUDGET CACS__SYNC_BLOCK_ALLOWS ssize_t
cacs__call_writev(int fd, const struct iovec *iov, int iovcnt,
                  int64_t timeout_us) CACS__WAIT_ENTRY(writev);
#define cacs_writev(...) cacs__call_writev(__VA_ARGS__)
#endif

#if CACS__WAIT_BIND
CACS__WAIT_DECL CACS__WAIT_BUDGET CACS__SYNC_BLOCK_ALLOWS ssize_t
cacs__call_recv(int fd, void *buf, size_t n, int flags, int64_t timeout_us)
    CACS__WAIT_ENTRY(recv);
#define cacs_recv(...) cacs__call_recv(__VA_ARGS__)
#endif

#if CACS__WAIT_BIND
CACS__WAIT_DECL CACS__WAIT_BUDGET CACS__SYNC_BLOCK_ALLOWS ssize_t
cacs__call_send(int fd, const void *buf, size_t n, int flags,
                int64_t timeout_us) CACS__WAIT_ENTRY(send);
#define cacs_send(...) cacs__call_send(__VA_ARGS__)
#endif

#if CACS__WAIT_BIND
CACS__WAIT_DECL CACS__WAIT_BUDGET CACS__SYNC_BLOCK_ALLOWS ssize_t
cacs__call_write_all(int fd, const void *buf, size_t n, int64_t timeout_us)
    CACS__WAIT_ENTRY(write_all);
#define cacs_write_all(...) cacs__call_write_all(__VA_ARGS__)
#endif

#if CACS__WAIT_BIND
CACS__WAIT_DECL CACS__WAIT_BUDGET CACS__SYNC_BLOCK_ALLOWS int
cacs__call_accept(int lfd, struct sockaddr *addr, socklen_t *addrlen,
                  int64_t timeout_us) CACS__WAIT_ENTRY(accept);
#define cacs_accept(...) cacs__call_accept(__VA_ARGS__)
#endif

#if CACS__WAIT_BIND
CACS__WAIT_DECL CACS__WAIT_BUDGET CACS__SYNC_BLOCK_ALLOWS int
cacs__call_connect(int fd, const struct sockaddr *addr, socklen_t addrlen,
                   int64_t timeout_us) CACS__WAIT_ENTRY(connect);
#define cacs_connect(...) cacs__call_connect(__VA_ARGS__)
#endif

#endif // CACS_DETAIL_IO_BIND_H
