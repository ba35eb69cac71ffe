// cacs/sysstack.hpp: CACS_ON_SYSTEM_STACK(call) and cacs::on_system_stack
// from a coroutine with a 16 KiB stack: a value (from a call whose frame
// is 256 KiB), a reference, void, a move-only value; an exception thrown
// on the system stack is rethrown after the switch back and caught in the
// coroutine; a C++ switch inside (cacs_yield) aborts naming the call.
// RUN: %clangxx -std=c++17 -O2 -g -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t
// RUN: %t 2>&1 | FileCheck %s
// RUN: not --crash %t yield 2>&1 | FileCheck %s --check-prefix=YIELD
//
// CHECK: value 7, on system stack 1
// CHECK-NEXT: reference 1, void 1, move-only 9
// CHECK-NEXT: caught: from the system stack, on system stack 0
// CHECK-NEXT: PASS
// YIELD: cacs: a switch to another coroutine {{.*}} inside CACS_ON_SYSTEM_STACK(cacs_yield()) at {{.*}}sysstack-cxx.cpp:[[#]]: a call on the thread's system stack must not switch

#include "cacs/coro.hpp"
#include "cacs/sysstack.hpp"

#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

static volatile int sink;

__attribute__((noinline)) static int deep(int v) {
  volatile char buf[256 * 1024];
  for (size_t i = sizeof buf; i >= 512; i -= 512)
    buf[i - 512] = 1;
  return v + buf[0] - 1;
}

static int global = 0;
static int &ref() { return global; }

static void body() {
  int v = CACS_ON_SYSTEM_STACK(deep(7));
  std::printf("value %d, on system stack %d\n", v,
              CACS_ON_SYSTEM_STACK(cacs_on_system_stack_now()));
  int &r = CACS_ON_SYSTEM_STACK(ref());
  bool did = false;
  cacs::on_system_stack([&] { did = deep(1) == 1; });
  auto p = cacs::on_system_stack([] { return std::make_unique<int>(9); });
  std::printf("reference %d, void %d, move-only %d\n", &r == &global, did,
              *p);
  try {
    cacs::on_system_stack([]() -> int {
      sink += deep(2);
      throw std::runtime_error("from the system stack");
    });
  } catch (const std::exception &e) {
    std::printf("caught: %s, on system stack %d\n", e.what(),
                cacs_on_system_stack_now());
  }
}

int main(int argc, char **argv) {
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  cacs_coro_attr a = {};
  a.stack_size = 16 * 1024;
  bool yield = argc > 1 && !std::strcmp(argv[1], "yield");
  cacs_coro *c = cacs_create_ex(
      [](void *y) {
        if (y)
          CACS_ON_SYSTEM_STACK(cacs_yield());
        else
          body();
      },
      yield ? &a : nullptr, &a);
  cacs_join(c);
  std::puts("PASS");
}
