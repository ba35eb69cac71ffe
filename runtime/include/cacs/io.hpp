//===- cacs/io.hpp - C++ helpers for the I/O module -------------*- C++ -*-===//
//
//   using namespace std::chrono_literals;
//   cacs::fd Conn = Listener.accept(nullptr, nullptr, 10s);
//   if (!Conn) ...                                 // errno: ETIMEDOUT, ...
//   char Buf[4096];
//   ssize_t N;
//   while ((N = Conn.read(Buf, sizeof Buf, 30s)) > 0)
//     if (Conn.write_all(Buf, N, 30s) < 0)
//       break;
//   // ~fd(): cacs_close
//
// cacs::fd owns a descriptor and closes it with cacs_close. Its calls are
// those of cacs/io.h with std::chrono timeouts, as for std:: timed waits
// (cacs::forever: no limit; zero or negative, a deadline already passed:
// do not wait; a positive timeout shorter than a microsecond counts as
// one) and the same results: -1 with errno on failure, no exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_IO_HPP
#define CACS_IO_HPP

#include "cacs/coro.hpp"
#include "cacs/io.h"

#include <chrono>

namespace cacs {

class fd {
public:
  using timeout = std::chrono::microseconds;

  fd() noexcept = default;
  /// Own descriptor `Fd` (-1: none); the destructor cacs_closes it.
  explicit fd(int Fd) noexcept : Fd(Fd) {}
  fd(fd &&Other) noexcept : Fd(Other.release()) {}
  fd &operator=(fd &&Other) noexcept {
    if (this != &Other)
      reset(Other.release());
    return *this;
  }
  fd(const fd &) = delete;
  fd &operator=(const fd &) = delete;
  ~fd() { reset(); }

  /// \return the owned descriptor, or -1 if none; ownership stays here.
  int get() const noexcept { return Fd; }
  explicit operator bool() const noexcept { return Fd >= 0; }
  /// Give up ownership without closing.
  int release() noexcept {
    int Old = Fd;
    Fd = -1;
    return Old;
  }
  /// cacs_close the owned descriptor (if any), then own `New`.
  int reset(int New = -1) noexcept {
    int Result = Fd >= 0 ? cacs_close(Fd) : 0;
    Fd = New;
    return Result;
  }

  /// cacs_read on the owned descriptor, with a std::chrono timeout.
  /// \return as cacs_read: the bytes read (0: end of file), or -1 with
  /// errno set.
  template <class D = timeout>
  ssize_t read(void *Buf, size_t N, D Timeout = forever) const {
    return cacs_read(Fd, Buf, N, detail::to_us(Timeout));
  }
  /// cacs_write on the owned descriptor, with a std::chrono timeout.
  /// \return as cacs_write: the bytes written, or -1 with errno set.
  template <class D = timeout>
  ssize_t write(const void *Buf, size_t N, D Timeout = forever) const {
    return cacs_write(Fd, Buf, N, detail::to_us(Timeout));
  }
  /// cacs_write_all on the owned descriptor, with a std::chrono timeout.
  /// \return as cacs_write_all: `N`, or -1 with errno set.
  template <class D = timeout>
  ssize_t write_all(const void *Buf, size_t N, D Timeout = forever) const {
    return cacs_write_all(Fd, Buf, N, detail::to_us(Timeout));
  }
  /// cacs_readv on the owned descriptor, with a std::chrono timeout.
  /// \return as cacs_readv: the bytes read, or -1 with errno set.
  template <class D = timeout>
  ssize_t readv(const struct iovec *Iov, int Count, D Timeout = forever) const {
    return cacs_readv(Fd, Iov, Count, detail::to_us(Timeout));
  }
  /// cacs_writev on the owned descriptor, with a std::chrono timeout.
  /// \return as cacs_writev: the bytes written, or -1 with errno set.
  template <class D = timeout>
  ssize_t writev(const struct iovec *Iov, int Count,
                 D Timeout = forever) const {
    return cacs_writev(Fd, Iov, Count, detail::to_us(Timeout));
  }
  /// cacs_recv on the owned descriptor, with a std::chrono timeout.
  /// \return as cacs_recv: the bytes received, or -1 with errno set.
  template <class D = timeout>
  ssize_t recv(void *Buf, size_t N, int Flags, D Timeout = forever) const {
    return cacs_recv(Fd, Buf, N, Flags, detail::to_us(Timeout));
  }
  /// cacs_send on the owned descriptor, with a std::chrono timeout.
  /// \return as cacs_send: the bytes sent, or -1 with errno set.
  template <class D = timeout>
  ssize_t send(const void *Buf, size_t N, int Flags,
               D Timeout = forever) const {
    return cacs_send(Fd, Buf, N, Flags, detail::to_us(Timeout));
  }
  /// 0 when ready for `Events` (EPOLLIN, EPOLLOUT), else -1 with errno.
  template <class D = timeout>
  int wait(uint32_t Events, D Timeout = forever) const {
    return cacs_wait_fd(Fd, Events, detail::to_us(Timeout));
  }
  /// The accepted connection; an empty fd (errno set) on failure.
  template <class D = timeout>
  fd accept(struct sockaddr *Addr = nullptr, socklen_t *Len = nullptr,
            D Timeout = forever) const {
    return fd(cacs_accept(Fd, Addr, Len, detail::to_us(Timeout)));
  }
  /// cacs_connect on the owned descriptor, with a std::chrono timeout.
  /// \return as cacs_connect: 0, or -1 with errno set.
  template <class D = timeout>
  int connect(const struct sockaddr *Addr, socklen_t Len,
              D Timeout = forever) const {
    return cacs_connect(Fd, Addr, Len, detail::to_us(Timeout));
  }

private:
  int Fd = -1;
};

} // namespace cacs

#endif // CACS_IO_HPP
