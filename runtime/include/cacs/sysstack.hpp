//===- cacs/sysstack.hpp - Calls on the system stack, C++ ------*- C++ -*-===//
//
//   auto n = cacs::on_system_stack([&] { return parse(text); });
//   int r = CACS_ON_SYSTEM_STACK(snprintf(buf, sizeof buf, "%d", x));
//
// The callable runs on the thread's system stack (cacs/sysstack.h) and its
// value is returned. An exception it throws is caught there and rethrown
// after the switch back, so it propagates out of the call as from any
// other: nothing unwinds across the change of stacks.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SYSSTACK_HPP
#define CACS_SYSSTACK_HPP

#include "cacs/sysstack.h"

#include <exception>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace cacs {

/// Run `f()` on the thread's system stack; its value, or its exception.
template <class F>
decltype(auto) on_system_stack(F &&f,
                               const char *what = "cacs::on_system_stack") {
  using R = decltype(std::forward<F>(f)());
  struct Box {
    F *f;
    std::exception_ptr error;
    // The value: R itself, or a pointer for a reference; built in place.
    using Slot = std::conditional_t<
        std::is_void_v<R>, char,
        std::conditional_t<std::is_reference_v<R>, std::add_pointer_t<R>, R>>;
    alignas(Slot) unsigned char slot[sizeof(Slot)];
  } box{&f, nullptr, {}};
  cacs_on_system_stack(
      [](void *p) {
        Box *b = static_cast<Box *>(p);
        try {
          if constexpr (std::is_void_v<R>) {
            std::forward<F>(*b->f)();
          } else if constexpr (std::is_reference_v<R>) {
            ::new (b->slot) typename Box::Slot(&std::forward<F>(*b->f)());
          } else {
            ::new (b->slot) R(std::forward<F>(*b->f)());
          }
        } catch (...) {
          b->error = std::current_exception();
        }
      },
      &box, what);
  if (box.error)
    std::rethrow_exception(box.error);
  if constexpr (std::is_void_v<R>) {
    return;
  } else if constexpr (std::is_reference_v<R>) {
    return static_cast<R>(
        **std::launder(reinterpret_cast<typename Box::Slot *>(box.slot)));
  } else {
    R *v = std::launder(reinterpret_cast<R *>(box.slot));
    R out(std::move(*v));
    v->~R();
    return out;
  }
}

} // namespace cacs

#endif // CACS_SYSSTACK_HPP
