//===- cacs/effect.hpp - C++ effect coroutines over cacs/effect.h -*- C++ -*-===//
//
//   CACS_EFFECT(ask, int, int);
//   cacs::effect_coro k([] { return (void *)(intptr_t)CACS_PERFORM(ask, 1); });
//   cacs_effect_request q = k.resume(CACS_HANDLES(ask));
//   int two = 2;
//   q = k.resume(CACS_HANDLES(ask), &two);   // q.effect == nullptr
//
// The body is any callable returning void * (or void). An exception that
// leaves it is rethrown from the resume that ran it, in the handler.
// Destroying a coroutine that has not finished unwinds it first, so its C++
// destructors run: its pending CACS_PERFORM throws cacs::effect_cancelled,
// and a resume (of this class) inside it whose coroutine was cancelled so
// throws it on, so the coroutines suspended with it unwind too, innermost
// first. Bodies must let that exception pass.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_EFFECT_HPP
#define CACS_EFFECT_HPP

#include "cacs/effect.h"

#include <cstddef>
#include <exception>
#include <functional>
#include <type_traits>
#include <utility>

namespace cacs {

class effect_coro {
public:
  /// An effect coroutine that will run Body() (stack size 0: the default);
  /// throws std::bad_alloc if it cannot be created. Thread: as the C API.
  template <class F>
  explicit effect_coro(F Body, std::size_t StackSize = 0)
      : Body(wrap(std::move(Body))),
        K(cacs_effect_create(&effect_coro::entry, this, StackSize)) {
    if (!K)
      throw std::bad_alloc();
  }
  effect_coro(const effect_coro &) = delete;
  effect_coro &operator=(const effect_coro &) = delete;

  /// Unwinds the coroutine if it is suspended, then frees it.
  ~effect_coro() {
    if (Started && !cacs_effect_done(K)) {
      static cacs_effect *const None[] = {nullptr};
      (cacs_effect_resume)(K, None, CACS_EFFECT_CANCEL);
    }
    cacs_effect_destroy(K);
  }

  /// cacs_effect_resume; rethrows an exception that left the body, and
  /// cacs::effect_cancelled if the body was cancelled (the enclosing
  /// coroutine is being destroyed).
  cacs_effect_request resume(cacs_effect *const *Handled,
                             const void *Result = nullptr) {
    Started = true;
    cacs_effect_request Q = cacs_effect_resume(K, Handled, Result);
    if (!Q.effect && Q.payload == CACS_EFFECT_CANCEL)
      throw effect_cancelled{};
    if (Error)
      std::rethrow_exception(std::exchange(Error, nullptr));
    return Q;
  }

  /// cacs_effect_resume_with: as resume(), with call handlers
  /// (cacs::effect_call, or CACS_CALLS of C functions).
  cacs_effect_request resume_with(cacs_effect *const *Handled,
                                  const cacs_effect_call *Calls,
                                  const void *Result = nullptr) {
    Started = true;
    cacs_effect_request Q = cacs_effect_resume_with(K, Handled, Calls, Result);
    if (!Q.effect && Q.payload == CACS_EFFECT_CANCEL)
      throw effect_cancelled{};
    if (Error)
      std::rethrow_exception(std::exchange(Error, nullptr));
    return Q;
  }

  /// Whether the body has returned (cacs_effect_done).
  bool done() const { return cacs_effect_done(K); }
  /// The C handle, for the calls of cacs/effect.h.
  cacs_effect_coro *get() const { return K; }

  /// The function of a cacs_effect_call for callable F (effect_call).
  template <class F>
  static const void *call_entry(void *Payload, void *Env) noexcept {
    try {
      return (*static_cast<F *>(Env))(Payload);
    } catch (const effect_cancelled &) {
      return CACS_EFFECT_CANCEL;
    }
  }

private:
  template <class F> static std::function<void *()> wrap(F Body) {
    if constexpr (std::is_void_v<std::invoke_result_t<F &>>)
      return [B = std::move(Body)]() mutable -> void * {
        B();
        return nullptr;
      };
    else
      return std::function<void *()>(std::move(Body));
  }

  static void *entry(void *Arg) {
    auto *Self = static_cast<effect_coro *>(Arg);
    try {
      return Self->Body();
    } catch (const effect_cancelled &) {
      return const_cast<void *>(CACS_EFFECT_CANCEL);
    } catch (...) {
      Self->Error = std::current_exception();
      return nullptr;
    }
  }

  std::function<void *()> Body;
  cacs_effect_coro *K;
  bool Started = false;
  std::exception_ptr Error;
};

/// A call handler (cacs_effect_resume_with) of effect E running F, a
/// callable `const void *(void *payload)` that outlives the resume: F runs
/// on the performer's stack. F must not throw, except to let
/// effect_cancelled pass (a perform inside F whose coroutine is being
/// destroyed), which the performer's CACS_PERFORM then throws on; any
/// other exception terminates (it has no handler's frames to reach).
template <class F>
cacs_effect_call effect_call(cacs_effect &E, F &Fn) {
  return {&E, &effect_coro::call_entry<F>, &Fn};
}

} // namespace cacs

#endif // CACS_EFFECT_HPP
