//===- cacs/coro.hpp - C++ helpers for symmetric coroutines -----*- C++ -*-===//
//
//   cacs_coro *c = cacs::spawn([&] { ...; cacs_yield(); ... }, "worker");
//   cacs_join(c);
//
// The entry trampoline catches any exception escaping the callable, prints
// "cacs: uncaught exception in coroutine '<name>': <what()>" and aborts (an
// exception cannot cross into the coroutine's creator: they do not share a
// stack).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_CORO_HPP
#define CACS_CORO_HPP

#include "cacs/coro.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace cacs {

/// A timeout that never passes (for the timed calls of cacs/io.hpp and
/// cacs/sync.hpp).
constexpr std::chrono::microseconds forever = std::chrono::microseconds::max();

namespace detail {
/// A std::chrono timeout in the whole microseconds of the C API: rounded
/// up, so that a positive timeout never becomes 0 (do not wait); zero or
/// negative (a deadline already passed) is 0, as for std:: timed waits;
/// cacs::forever, and anything as long, is CACS_FOREVER.
template <class Rep, class Period>
int64_t to_us(const std::chrono::duration<Rep, Period> &D) {
  using namespace std::chrono;
  if (D <= D.zero())
    return 0;
  if (duration_cast<duration<double, std::micro>>(D).count() >= 9.0e18)
    return CACS_FOREVER;
  auto Us = duration_cast<microseconds>(D);
  if (Us < D)
    ++Us;
  return static_cast<int64_t>(Us.count());
}

[[noreturn]] inline void escaped(const char *What) {
  std::fprintf(stderr, "cacs: uncaught exception in coroutine '%s': %s\n",
               cacs_name(cacs_self()), What);
  std::fflush(stderr);
  std::abort();
}

template <class F> void spawn_entry(void *P) {
  std::unique_ptr<F> Fn(static_cast<F *>(P));
  try {
    (*Fn)();
  } catch (const std::exception &E) {
    escaped(E.what());
  } catch (...) {
    escaped("(not a std::exception)");
  }
}
} // namespace detail

/// Create a coroutine running `Fn()` (moved to the heap); see cacs_create_ex.
template <class F>
cacs_coro *spawn(F &&Fn, const char *Name = nullptr, size_t StackSize = 0,
                 unsigned Flags = 0) {
  using Fun = typename std::decay<F>::type;
  Fun *Box = new Fun(std::forward<F>(Fn));
  cacs_coro_attr Attr = {StackSize, 0, Flags, Name};
  cacs_coro *C = cacs_create_ex(&detail::spawn_entry<Fun>, Box, &Attr);
  if (!C) {
    delete Box;
    throw std::bad_alloc();
  }
  return C;
}

} // namespace cacs

#endif // CACS_CORO_HPP
