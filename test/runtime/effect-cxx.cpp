// C++ effect coroutines (cacs/effect.hpp): a throw (a handler that never
// resumes) unwinds the abandoned frames, the coroutines suspended inside
// it first, so every destructor runs once; an exception leaving a body is
// rethrown by the resume in the handler; a generator over the C macros;
// call handlers (cacs::effect_call): a lambda answers without a switch,
// and a coroutine destroyed while a call inside it waits in a perform
// unwinds the call's frame, the performer's and its own, as the switch
// version would.
// (effect-aarch64.c: the same on AArch64.)
//
// RUN: %clangxx -std=c++17 -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 | FileCheck %s
//
// CHECK: generator: 0 1 2 3 4
// CHECK-NEXT: throw: caught 7, destructors 3 of 3
// CHECK-NEXT: exception: boom
// CHECK-NEXT: unstarted: ok
// CHECK-NEXT: call: 10
// CHECK-NEXT: call cancel: caught 7, destructors 3 of 3
// CHECK-NEXT: PASS

#include "cacs/effect.hpp"

#include <cstdio>
#include <memory>
#include <stdexcept>

CACS_EFFECT(yield, int, int);
CACS_EFFECT(fail, int, int);
CACS_EFFECT(noise, int, int);
CACS_EFFECT(ask, int, int);

static int failures, destroyed;

struct counted {
  ~counted() { ++destroyed; }
};

static void test_generator() {
  cacs::effect_coro g([] {
    for (int i = 0; i < 5; ++i)
      CACS_PERFORM(yield, i);
  });
  std::printf("generator:");
  for (auto q = g.resume(CACS_HANDLES(yield)); q.effect;
       q = g.resume(CACS_HANDLES(yield)))
    std::printf(" %d", *static_cast<int *>(q.payload));
  std::printf("\n");
}

static void test_throw() {
  destroyed = 0;
  int caught = 0;
  {
    cacs::effect_coro outer([] {
      counted a;
      // An inner coroutine handling another effect: `fail` passes it, and
      // the throw abandons both.
      cacs::effect_coro inner([] {
        counted b;
        auto c = std::make_unique<counted>();
        CACS_PERFORM(fail, 7);
        ++failures; // never: the throw abandons this frame
      });
      inner.resume(CACS_HANDLES(noise));
      ++failures; // never: inner was cancelled, and so is this body
    });
    auto q = outer.resume(CACS_HANDLES(fail));
    if (q.effect == &CACS_EFFECT_OF(fail))
      caught = *static_cast<int *>(q.payload);
  } // ~effect_coro: unwinds inner's frames, then outer's
  std::printf("throw: caught %d, destructors %d of 3\n", caught, destroyed);
  failures += caught != 7 || destroyed != 3;
}

static void test_exception() {
  cacs::effect_coro k([]() -> void * { throw std::runtime_error("boom"); });
  try {
    k.resume(CACS_HANDLES(yield));
    std::puts("exception: none");
    ++failures;
  } catch (const std::runtime_error &e) {
    std::printf("exception: %s\n", e.what());
  }
}

static void test_unstarted() {
  destroyed = 0;
  { cacs::effect_coro k([] { counted never; }); }
  std::printf("unstarted: %s\n", destroyed == 0 ? "ok" : "WRONG");
  failures += destroyed != 0;
}

static void test_call() {
  int total = 0, slot = 0;
  auto add = [&](void *Payload) -> const void * {
    total += *static_cast<int *>(Payload);
    slot = total;
    return &slot;
  };
  cacs::effect_coro k([] {
    for (int i = 1; i <= 4; ++i)
      CACS_PERFORM(ask, i);
  });
  cacs_effect_call calls[] = {cacs::effect_call(CACS_EFFECT_OF(ask), add), {}};
  auto q = k.resume_with(nullptr, calls);
  std::printf("call: %d\n", q.effect ? -1 : total);
}

static void test_call_cancel() {
  destroyed = 0;
  int caught = -1;
  {
    auto h = std::make_unique<cacs::effect_coro>([] {
      counted in_h;
      auto fails = [](void *Payload) -> const void * {
        counted in_call;
        static int r;
        r = CACS_PERFORM(fail, *static_cast<int *>(Payload)); // not resumed
        return &r;
      };
      cacs::effect_coro k([] {
        counted in_k;
        CACS_PERFORM(ask, 7);
        std::puts("call cancel: resumed");
      });
      cacs_effect_call calls[] = {
          cacs::effect_call(CACS_EFFECT_OF(ask), fails), {}};
      k.resume_with(nullptr, calls);
      std::puts("call cancel: returned");
    });
    auto q = h->resume(CACS_HANDLES(fail));
    if (q.effect == &CACS_EFFECT_OF(fail))
      caught = *static_cast<int *>(q.payload);
  } // h's destructor: the call's perform throws effect_cancelled
  std::printf("call cancel: caught %d, destructors %d of 3\n", caught,
              destroyed);
  if (caught != 7 || destroyed != 3)
    ++failures;
}

int main() {
  test_generator();
  test_throw();
  test_exception();
  test_unstarted();
  test_call();
  test_call_cancel();
  std::puts(failures ? "FAIL" : "PASS");
  return failures != 0;
}
