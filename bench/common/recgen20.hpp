//===- bench/common/recgen20.hpp - C++20 generator, O(1) delegation -*- C++
//-*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A recursive C++20 generator in the manner of C++23 std::generator (which
// libstdc++ 12 lacks): `co_yield ElementsOf{child}` hands control to the
// child by symmetric transfer, the root remembers the innermost active
// generator, and the consumer resumes that one directly, so a value crosses
// O(1) frames whatever the depth. A finished child transfers back to its
// parent.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_RECGEN20_HPP
#define CACS_BENCH_RECGEN20_HPP

#include <coroutine>
#include <exception>
#include <utility>

template <typename T> class RecGen;

template <typename T> struct ElementsOf { RecGen<T> G; };

template <typename T> class RecGen {
public:
  struct promise_type;
  using Handle = std::coroutine_handle<promise_type>;

  struct promise_type {
    T Value{}; // meaningful in the root only
    promise_type *Root = this;
    Handle Leaf;   // root only: the innermost active generator
    Handle Parent; // null in the root

    RecGen get_return_object() {
      Leaf = Handle::from_promise(*this);
      return RecGen(Leaf);
    }
    std::suspend_always initial_suspend() noexcept { return {}; }

    struct FinalAwaiter {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(Handle H) noexcept {
        promise_type &P = H.promise();
        if (P.Parent) {
          P.Root->Leaf = P.Parent;
          return P.Parent;
        }
        return std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    FinalAwaiter final_suspend() noexcept { return {}; }

    std::suspend_always yield_value(T V) noexcept {
      Root->Value = V;
      return {};
    }

    struct NestedAwaiter {
      RecGen Child;
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<> await_suspend(Handle H) noexcept {
        promise_type &C = Child.H.promise();
        C.Parent = H;
        C.Root = H.promise().Root;
        C.Root->Leaf = Child.H;
        return Child.H;
      }
      void await_resume() noexcept {}
    };
    NestedAwaiter yield_value(ElementsOf<T> E) noexcept {
      return NestedAwaiter{std::move(E.G)};
    }

    void return_void() noexcept {}
    void unhandled_exception() noexcept { std::terminate(); }
  };

  explicit RecGen(Handle H) : H(H) {}
  RecGen(RecGen &&O) noexcept : H(std::exchange(O.H, nullptr)) {}
  RecGen(const RecGen &) = delete;
  ~RecGen() {
    if (H)
      H.destroy();
  }

  /// Resume the innermost generator; false once the root has finished.
  bool next() {
    H.promise().Leaf.resume();
    return !H.done();
  }
  T value() const { return H.promise().Value; }

private:
  Handle H;
};

#endif // CACS_BENCH_RECGEN20_HPP
