// park-address.c in C++: the waiting calls' names cast to plain function
// pointers, held by std::function and passed as template arguments are
// their default-convention symbols (the last two were correct before too:
// the type carried the convention, but no plain pointer took it), called
// from a coroutine with values live in every register the compiler
// allocates while a trasher puts garbage in them before each switch back.
// The wrappers of cacs/io.hpp and cacs/sync.hpp call the same waits by
// their names (the function-like macros of the C headers) in the same
// program. The reference binds no call to a preserve_none entry
// (CACS_YIELD_FULL_SAVE=1).
//
// RUN: %stock_clangxx -std=c++17 -O0 -DCACS_YIELD_FULL_SAVE=1 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tref && %tref > %t.ref
// RUN: FileCheck %s < %t.ref
// RUN: %clangxx -std=c++17 -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t0 && %t0 | diff %t.ref -
// RUN: %clangxx -std=c++17 -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %t2 && %t2 | diff %t.ref -
// RUN: %clangxx -std=c++17 -O2 -fauto-preserve-none -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ta && %ta | diff %t.ref -
// RUN: %stock_clangxx -std=c++17 -O0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ts0 && %ts0 | diff %t.ref -
// RUN: %stock_clangxx -std=c++17 -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %ts2 && %ts2 | diff %t.ref -
// RUN: %stock_clangxx -std=c++17 -O2 -DCACS_YIELD_SAVE_BP=0 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tsu && %tsu | diff %t.ref -
// The wrappers' calls bind to the preserve_none entries under cacs:
// RUN: %clangxx -std=c++17 -O2 -S -I%cacs_include %s -o - | FileCheck %s --check-prefix=BIND
// RUN: %if gcc %{ g++ -std=c++17 -O2 -I%cacs_include %s %cacs_io_x86_64 %cacs_rt_x86_64 -o %tg && %tg | diff %t.ref - %}
//
// CHECK: cast yield
// CHECK-NEXT: cast sleep 0
// CHECK-NEXT: cast read 1 a
// CHECK-NEXT: cast sem_wait 0
// CHECK-NEXT: function yield
// CHECK-NEXT: function sleep 0
// CHECK-NEXT: function read 1 b
// CHECK-NEXT: function sem_wait 0
// CHECK-NEXT: template yield
// CHECK-NEXT: template sleep 0
// CHECK-NEXT: template read 1 c
// CHECK-NEXT: template sem_wait 0
// CHECK-NEXT: wrappers read 1 d
// CHECK-NEXT: wrappers acquire
// CHECK-NEXT: PASS
//
// BIND-LABEL: _ZL6holderv:
// BIND: cacs__read_pn
// BIND: cacs__sem_wait_pn
// BIND: .cfi_endproc

#include "cacs/coro.hpp"
#include "cacs/io.hpp"
#include "cacs/sync.hpp"

#include <functional>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "Inputs/address-test.h"

// Calls through whatever the four names became: std::function objects or
// the instances of `through` below.
template <class Y, class S, class R, class W>
__attribute__((noinline)) static void calls(const char *way, Y y, S s, R r,
                                            W w) {
  CALLS_BODY(way, y, s, r, w)
}

// A name as a template argument: F is the function's address.
template <auto F> struct through {
  template <class... A> auto operator()(A... Args) const { return F(Args...); }
};

static void holder() {
  // A cast to a plain function pointer (a C API's callback type).
  calls("cast", (void (*)())cacs_yield, (int (*)(int64_t))cacs_sleep,
        (ssize_t(*)(int, void *, size_t, int64_t))cacs_read,
        (int (*)(cacs_sem *, int64_t))cacs_sem_wait);
  calls("function", std::function<void()>(cacs_yield),
        std::function<int(int64_t)>(cacs_sleep),
        std::function<ssize_t(int, void *, size_t, int64_t)>(cacs_read),
        std::function<int(cacs_sem *, int64_t)>(cacs_sem_wait));
  calls("template", through<cacs_yield>(), through<cacs_sleep>(),
        through<cacs_read>(), through<cacs_sem_wait>());
  // The wrappers: their calls bind as calls in C do.
  cacs::fd In(pipefd[0]);
  char buf[8] = {0};
  ssize_t rn;
  want_byte = 1;
  THROUGH("wrappers", "read", rn = In.read(buf, 1), printf(" %zd %s", rn, buf));
  In.release();
  cacs::semaphore Sem(0);
  post_to = Sem.native_handle();
  want_unit = 1;
  THROUGH("wrappers", "acquire", Sem.acquire(), (void)0);
}

int main() {
  setvbuf(stdout, nullptr, _IOLBF, 0); // what ran before a hang shows
  watchdog(30);
  if (pipe(pipefd) != 0)
    return perror("pipe"), 1;
  cacs_coro *H = cacs::spawn(holder, "holder");
  cacs_coro *T = cacs_create(trasher, nullptr, 0);
  cacs_join(H);
  stop = 1;
  cacs_join(T);
  printf("%s\n", failures ? "FAIL" : "PASS");
  return 0;
}
