// C++ exceptions thrown below a yield unwind through functions that return
// through the thunk (each of which waits and returns on other rounds), run
// their cleanups and are caught above them, in coroutines and in main, as
// stock clang -O0 has it.
//
// RUN: %stock_clangxx -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t.ref
// RUN: %t.ref > %t.want
// RUN: FileCheck %s < %t.want
// RUN: %clangxx -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t.o0 && %t.o0 | diff %t.want -
// RUN: %clangxx -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t.o2 && %t.o2 | diff %t.want -
// RUN: %clangxx -O2 -I%cacs_include -S %s -o - | FileCheck %s --check-prefix=ASM
//
// CHECK: caught 6 times in 1, cleanups 850
// CHECK: total
//
// ASM-LABEL: _ZL6middleim:
// ASM:         jmp __x86_return_thunk
// ASM-LABEL: .Lfunc_end

#include "cacs/coro.h"

#include <cstdio>
#include <stdexcept>

#define NOINLINE __attribute__((noinline))

static int Cleanups;
struct Guard {
  ~Guard() { ++Cleanups; }
};

static NOINLINE unsigned long deepest(int who, unsigned long n) {
  cacs_yield();
  if (n % 97 == 13)
    throw std::runtime_error("bad request");
  return n * 3 + (unsigned long)who;
}

static NOINLINE unsigned long middle(int who, unsigned long n) {
  Guard G;
  unsigned long v = deepest(who, n);
  cacs_yield();
  return v + deepest(who, v & 0xff);
}

static unsigned long Results[3];
static int Caught[3];

static NOINLINE unsigned long serve(int who, unsigned long rounds) {
  unsigned long acc = 0;
  for (unsigned long i = 0; i < rounds; ++i) {
    try {
      acc += middle(who, i);
    } catch (const std::runtime_error &) {
      ++Caught[who];
      acc ^= i;
    }
  }
  return acc;
}

static void worker(void *arg) {
  int who = (int)(long)arg;
  Results[who] = serve(who, 300);
}

int main() {
  cacs_coro *C[2];
  for (long I = 1; I <= 2; ++I)
    C[I - 1] = cacs_create(worker, (void *)I, 0);
  Results[0] = serve(0, 250);
  for (int I = 0; I < 2; ++I)
    cacs_join(C[I]);
  std::printf("caught %d times in 1, cleanups %d\n", Caught[1], Cleanups);
  std::printf("total %lu %lu %lu %d %d\n", Results[0], Results[1], Results[2],
              Caught[0], Caught[2]);
  return 0;
}
