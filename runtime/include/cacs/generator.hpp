//===- cacs/generator.hpp - C++ generator over cacs_gen ---------*- C++ -*-===//
//
//   cacs::generator<int> g([](cacs::generator<int>::yielder &yield) {
//     for (int i = 0; i < 3; ++i)
//       yield(i);
//   });
//   for (int v : g) ...
//
// Trivially copyable T up to 8 bytes travels by value in the switch register;
// other T by address (the object stays alive on the generator's stack while
// the consumer reads it). An exception leaving the generator body is
// rethrown from the resume (the iterator increment / begin()) in the
// consumer. Destroying an unfinished generator unwinds it first (a private
// exception is thrown from the pending yield), so its destructors run;
// bodies must let that exception pass (do not swallow it with catch (...)
// without rethrowing).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_GENERATOR_HPP
#define CACS_GENERATOR_HPP

#include "cacs/generator.h"

#include <cstddef>
#include <cstring>
#include <exception>
#include <functional>
#include <iterator>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace cacs {

template <class T> class generator {
  static constexpr bool ByValue =
      std::is_trivially_copyable<T>::value && sizeof(T) <= sizeof(uint64_t);
  struct cancelled {}; // unwinds a generator destroyed before its end
  struct state;

public:
  class yielder {
    friend class generator;
    state *S;
    explicit yielder(state *S) : S(S) {}

  public:
    /// Hand `V` to the consumer; returns when it asks for the next value.
    void operator()(const T &V) {
      uint64_t Bits = 0;
      if constexpr (ByValue)
        std::memcpy(&Bits, &V, sizeof(T));
      else
        Bits = reinterpret_cast<uintptr_t>(&V);
      cacs_gen_yield(S->G, Bits);
      if (S->Cancel)
        throw cancelled{};
    }
  };

private:
  struct state {
    std::function<void(yielder &)> Fn;
    cacs_gen *G = nullptr;
    std::exception_ptr Error;
    bool Started = false, Cancel = false;
    typename std::conditional<ByValue, T, const T *>::type Cur{};
  };
  std::unique_ptr<state> S;

  static void run(cacs_gen *, void *Arg) {
    state *St = static_cast<state *>(Arg);
    yielder Y(St);
    try {
      St->Fn(Y);
    } catch (cancelled &) {
    } catch (...) {
      St->Error = std::current_exception();
    }
  }

  // Resume; false once the body has finished (rethrowing its exception).
  // Always inlined: the switch is then inline in the consumer's loop, with
  // only the consumer's live values spilled (a call would cost a
  // default-convention frame saving every callee-saved register).
  __attribute__((always_inline)) bool advance() {
    S->Started = true;
    uint64_t Bits = cacs_gen_resume(S->G, 0);
    if (cacs_gen_done(S->G)) {
      if (S->Error) {
        std::exception_ptr E = std::move(S->Error);
        S->Error = nullptr;
        std::rethrow_exception(E);
      }
      return false;
    }
    if constexpr (ByValue)
      std::memcpy(&S->Cur, &Bits, sizeof(T));
    else
      S->Cur = reinterpret_cast<const T *>(static_cast<uintptr_t>(Bits));
    return true;
  }

  const T &value() const {
    if constexpr (ByValue)
      return S->Cur;
    else
      return *S->Cur;
  }

public:
  /// A generator that will run `Body` (called with a yielder) on a stack of
  /// its own of `StackSize` bytes; nothing runs until begin().
  /// Throws std::bad_alloc when cacs_gen_create fails (errno says why).
  template <class F>
  explicit generator(F &&Body, size_t StackSize = CACS_STACK_DEFAULT_SIZE)
      : S(new state) {
    S->Fn = std::forward<F>(Body);
    S->G = cacs_gen_create(&run, S.get(), StackSize);
    if (!S->G)
      throw std::bad_alloc();
  }
  generator(generator &&) noexcept = default;
  generator &operator=(generator &&) = delete;
  generator(const generator &) = delete;
  generator &operator=(const generator &) = delete;

  ~generator() {
    if (!S || !S->G)
      return;
    if (S->Started) {
      S->Cancel = true;
      while (!cacs_gen_done(S->G))
        cacs_gen_resume(S->G, 0);
    }
    cacs_gen_destroy(S->G);
  }

  class iterator {
    generator *G;

  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T *;
    using reference = const T &;
    explicit iterator(generator *G = nullptr) : G(G) {}
    const T &operator*() const { return G->value(); }
    const T *operator->() const { return &G->value(); }
    __attribute__((always_inline)) iterator &operator++() {
      if (!G->advance())
        G = nullptr;
      return *this;
    }
    void operator++(int) { ++*this; }
    bool operator==(const iterator &O) const { return G == O.G; }
    bool operator!=(const iterator &O) const { return G != O.G; }
  };

  /// Starts (or continues) the generator: input-iterator semantics.
  __attribute__((always_inline)) iterator begin() {
    return advance() ? iterator(this) : iterator();
  }
  /// The iterator that the ones from begin() equal once the generator has
  /// finished.
  iterator end() { return iterator(); }
};

} // namespace cacs

#endif // CACS_GENERATOR_HPP
