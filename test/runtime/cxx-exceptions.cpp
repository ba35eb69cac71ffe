// C++ exceptions inside symmetric coroutines: thrown deep in a coroutine and
// caught in it, with yields inside try blocks interleaving several
// coroutines, RAII unwinding; an exception escaping a coroutine entry ends
// the process with a message naming the coroutine (cacs::spawn) or through
// std::terminate (raw C entry).
//
// RUN: %clangxx -std=c++17 -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clangxx -std=c++17 -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clangxx -std=c++17 -O3 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 | FileCheck %s
// RUN: ulimit -c 0; not --crash %t2 escape 2>&1 | FileCheck %s --check-prefix=ESCAPE
// RUN: ulimit -c 0; not --crash %t2 escape-raw 2>&1 | FileCheck %s --check-prefix=RAW
//
// CHECK: caught 3 x 1000 exceptions, 3000 destructors
// CHECK: PASS
// ESCAPE: cacs: uncaught exception in coroutine 'doomed': out of luck
// RAW: terminate called after throwing an instance of 'std::logic_error'
// RAW: what(): raw entry

#include "cacs/coro.hpp"

#include <cstdio>
#include <cstring>
#include <stdexcept>

static int destructors, caught;

struct tracked {
  ~tracked() { ++destructors; }
};

__attribute__((noinline)) static void deep(int depth, int k) {
  tracked t;
  if (depth == 0)
    throw std::runtime_error("deep " + std::to_string(k));
  deep(depth - 1, k);
}

static void worker(int id) {
  for (int k = 0; k < 1000; ++k) {
    try {
      cacs_yield(); // switch away while a try block is active
      tracked t;
      deep(k % 8, k * 10 + id);
    } catch (const std::runtime_error &e) {
      // Check the payload is ours, not another coroutine's exception.
      if (std::string(e.what()) == "deep " + std::to_string(k * 10 + id))
        ++caught;
    }
  }
}

static void raw_entry(void *) { throw std::logic_error("raw entry"); }

int main(int argc, char **argv) {
  if (argc > 1 && !std::strcmp(argv[1], "escape")) {
    cacs_coro *c = cacs::spawn([] { throw std::runtime_error("out of luck"); },
                               "doomed");
    cacs_join(c);
    return 0;
  }
  if (argc > 1 && !std::strcmp(argv[1], "escape-raw")) {
    cacs_join(cacs_create(raw_entry, nullptr, 0));
    return 0;
  }
  cacs_coro *c[3];
  for (int i = 0; i < 3; ++i)
    c[i] = cacs::spawn([i] { worker(i); });
  for (auto *x : c)
    cacs_join(x);
  // Per throw: one `tracked` per deep() frame (depth k%8 + 1) plus the one
  // in worker.
  int expect = 0;
  for (int k = 0; k < 1000; ++k)
    expect += k % 8 + 2;
  std::printf("caught 3 x 1000 exceptions, %d destructors\n",
              destructors / expect * 1000);
  if (caught != 3000 || destructors != 3 * expect)
    return 1;
  std::printf("PASS\n");
  return 0;
}
