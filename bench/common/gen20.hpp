//===- bench/common/gen20.hpp - Minimal C++20 generator ---------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The stackless peer: a plain C++20 generator (no delegation), the shape of
// the generator used in the C++ committee benchmark.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_GEN20_HPP
#define CACS_BENCH_GEN20_HPP

#include <coroutine>
#include <exception>
#include <utility>

template <typename T> class Gen20 {
public:
  struct promise_type {
    T Value;
    Gen20 get_return_object() {
      return Gen20(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T V) noexcept {
      Value = V;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };

  explicit Gen20(std::coroutine_handle<promise_type> H) : H(H) {}
  Gen20(Gen20 &&O) noexcept : H(std::exchange(O.H, nullptr)) {}
  Gen20(const Gen20 &) = delete;
  ~Gen20() {
    if (H)
      H.destroy();
  }

  /// Resume; false once the generator has finished.
  bool next() {
    H.resume();
    return !H.done();
  }
  T value() const { return H.promise().Value; }

private:
  std::coroutine_handle<promise_type> H;
};

#endif // CACS_BENCH_GEN20_HPP
