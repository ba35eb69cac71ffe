//===- cacs/instack.hpp - C++ in-stack generator ----------------*- C++ -*-===//
//
//   for (int V : cacs::make_instack<int>([](auto &Yield) {
//          for (int I = 0; I < 3; ++I)
//            Yield(I);
//        }))
//     ...
//
// The body runs as frames on the consumer's stack (cacs/instack.h: read its
// rules; the consumer is the function containing the loop, everything here
// is inlined into it). Trivially copyable T up to 8 bytes travels in the
// switch register; other T by address (the object stays alive in the
// generator's frame while the consumer reads it). An exception leaving the
// body is rethrown in the consumer by the increment (or begin()).
// Destroying an unfinished generator unwinds it first: its pending yield
// throws a private exception, so the body's destructors run; bodies must let
// it pass (catch (...) must rethrow). Not copyable, not movable: it lives in
// the consumer's frame.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_INSTACK_HPP
#define CACS_INSTACK_HPP

#include "cacs/instack.h"

#include <cstddef>
#include <cstring>
#include <exception>
#include <iterator>
#include <type_traits>
#include <utility>

namespace cacs {

namespace detail {
struct instack_cancelled {}; // unwinds a generator destroyed before its end
template <class T>
constexpr bool InstackByValue = std::is_trivially_copyable<T>::value &&
                                sizeof(T) <= sizeof(uint64_t);
} // namespace detail

template <class T, class F> class instack;

/// What the body receives: Yield(V) hands V to the consumer.
template <class T> class instack_yielder {
  template <class, class> friend class instack;
  cacs_isg_ctx Ctx; // a copy the optimizer can keep in registers
  explicit instack_yielder(const cacs_isg_ctx &C) : Ctx(C) {}

public:
  instack_yielder(const instack_yielder &) = delete;
  /// Returns when the consumer asks for the next value.
  __attribute__((always_inline)) void operator()(const T &V) {
    uint64_t Bits = 0;
    if constexpr (detail::InstackByValue<T>)
      std::memcpy(&Bits, &V, sizeof(T));
    else
      Bits = reinterpret_cast<uintptr_t>(&V);
    cacs__isg_yield(&Ctx, Bits, 1);
    if (cacs__isg_cancelled(&Ctx)) // ~instack of an unfinished generator
      throw detail::instack_cancelled{};
  }
};

/// An in-stack generator of T running F(instack_yielder<T> &); make it with
/// make_instack<T>(F) in the range of a for loop.
template <class T, class F> class instack {
  F Fn;
  std::exception_ptr Error;
  cacs_isg G = {};
  bool Started = false;

  // The generator: runs below the consumer's frame.
  static uint64_t run(cacs_isg_ctx *Ctx, void *Arg) {
    instack *Self = static_cast<instack *>(Arg);
    instack_yielder<T> Y(*Ctx);
    try {
      Self->Fn(Y);
    } catch (detail::instack_cancelled &) {
    } catch (...) {
      Self->Error = std::current_exception();
    }
    *Ctx = Y.Ctx; // the latest consumer resume point, for the entry's return
    return 0;
  }

  __attribute__((always_inline)) void finished() {
    if (__builtin_expect(Error != nullptr, 0)) {
      std::exception_ptr E = std::move(Error);
      Error = nullptr;
      std::rethrow_exception(E);
    }
  }

public:
  // The consumer-frame marker goes here, not into begin(): inlined, a
  // dynamic allocation is followed by a stack restore at the end of the
  // inlined function, which after the start would put the consumer's stack
  // pointer back above the generator's frames.
  /// A generator that will run `Body` (called with a yielder) below the
  /// consumer's frame; nothing runs until begin(). Allocates nothing.
  template <class G2>
  __attribute__((always_inline)) explicit instack(G2 &&Body)
      : Fn(std::forward<G2>(Body)) {
    CACS_ISG_CONSUMER_FRAME();
  }
  instack(const instack &) = delete;
  instack &operator=(const instack &) = delete;

  __attribute__((always_inline)) ~instack() {
    if (Started && !cacs_isg_done(&G))
      cacs__isg_cancel(&G);
  }

  /// The loop's state lives in the iterator (a local the optimizer keeps in
  /// registers); it is handed back to the generator object when the
  /// iterator goes away (end of the loop, break, exception), before the
  /// object's destructor needs it. Move-only for that reason.
  class iterator {
    instack *S;
    cacs_isg G;
    uint64_t Cur;

  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = const T *;
    using reference = const T &;
    iterator() : S(nullptr), G{}, Cur(0) {}
    iterator(instack *S, const cacs_isg &G, uint64_t Cur)
        : S(S), G(G), Cur(Cur) {}
    iterator(iterator &&O) : S(O.S), G(O.G), Cur(O.Cur) { O.S = nullptr; }
    iterator(const iterator &) = delete;
    iterator &operator=(const iterator &) = delete;
    __attribute__((always_inline)) ~iterator() {
      if (S)
        S->G = G;
    }
    __attribute__((always_inline)) const T &operator*() const {
      if constexpr (detail::InstackByValue<T>)
        return *reinterpret_cast<const T *>(&Cur);
      else
        return *reinterpret_cast<const T *>(static_cast<uintptr_t>(Cur));
    }
    const T *operator->() const { return &**this; }
    __attribute__((always_inline)) iterator &operator++() {
      Cur = cacs_isg_next(&G);
      if (__builtin_expect(cacs_isg_done(&G), 0)) {
        S->G = G;
        S->finished();
      }
      return *this;
    }
    __attribute__((always_inline)) bool operator!=(const iterator &) const {
      return !cacs_isg_done(&G);
    }
    __attribute__((always_inline)) bool operator==(const iterator &O) const {
      return !(*this != O);
    }
  };

  /// Starts the generator (call once): input-iterator semantics.
  __attribute__((always_inline)) iterator begin() {
    Started = true;
    uint64_t V = cacs__isg_start(&G, &run, this);
    if (cacs_isg_done(&G))
      finished();
    return iterator(this, G, V);
  }
  /// The iterator that the one from begin() equals once the body has
  /// returned.
  iterator end() { return iterator(); }
};

/// The generator object is returned as a prvalue (not movable: it must stay
/// in the consumer's frame): use it directly as the range of a for loop, or
/// bind it with auto &&.
template <class T, class F>
__attribute__((always_inline)) instack<T, typename std::decay<F>::type>
make_instack(F &&Body) {
  return instack<T, typename std::decay<F>::type>(std::forward<F>(Body));
}

} // namespace cacs

#endif // CACS_INSTACK_HPP
