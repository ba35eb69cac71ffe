// The headers compile with gcc (no preserve_none: CACS_PRESERVE_NONE falls
// back, cacs_yield binds to the default-convention entry), and a gcc-built
// program runs correctly against the clang-built libcacs: its callee-saved
// registers survive cacs_yield and generator switches.
// REQUIRES: gcc
// RUN: gcc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I%cacs_include %s
// RUN: g++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only -I%cacs_include -x c++ %s
// RUN: gcc -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t && %t | FileCheck %s
// RUN: gcc -O0 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: gcc -O3 -I%cacs_include -E -dM %s | FileCheck %s --check-prefix=MACROS
//
// CHECK: coroutines ok
// CHECK: generator ok
// CHECK: PASS
// MACROS: #define CACS_HAS_PRESERVE_NONE 0

#include "cacs/coro.h"
#include "cacs/generator.h"
#include "cacs/stack.h"
#include "cacs/switch.h"
#ifdef __cplusplus
#include "cacs/coro.hpp"
#include "cacs/generator.hpp"
#endif

#include <stdio.h>

static volatile uint64_t seed = 77;

// Many values live across cacs_yield in callee-saved registers: gcc assumes
// the default convention for cacs_yield.
static void worker(void *arg) {
  uint64_t *out = (uint64_t *)arg;
  uint64_t a = seed, b = a * 3, c = b * 5, d = c * 7, e = d * 11, f = e * 13;
  for (int k = 0; k < 1000; ++k) {
    cacs_yield();
    a += b ^ k;
    b += c;
    c += d;
    d += e;
    e += f;
    f += a;
  }
  *out = a ^ b ^ c ^ d ^ e ^ f;
}

static uint64_t expected(void) {
  uint64_t a = seed, b = a * 3, c = b * 5, d = c * 7, e = d * 11, f = e * 13;
  for (int k = 0; k < 1000; ++k) {
    a += b ^ k;
    b += c;
    c += d;
    d += e;
    e += f;
    f += a;
  }
  return a ^ b ^ c ^ d ^ e ^ f;
}

static void count(cacs_gen *g, void *arg) {
  for (uint64_t i = 1; i <= (uint64_t)(uintptr_t)arg; ++i)
    cacs_gen_yield(g, i);
}

int main(void) {
  uint64_t r[4];
  cacs_coro *c[4];
  for (int i = 0; i < 4; ++i)
    c[i] = cacs_create(worker, &r[i], 0);
  for (int i = 0; i < 4; ++i)
    cacs_join(c[i]);
  int ok = 1;
  for (int i = 0; i < 4; ++i)
    ok &= r[i] == expected();
  printf("coroutines %s\n", ok ? "ok" : "WRONG");
  cacs_gen *g = cacs_gen_create(count, (void *)(uintptr_t)100000, 0);
  uint64_t v, sum = 0;
  while (cacs_gen_next(g, &v))
    sum += v;
  cacs_gen_destroy(g);
  int gok = sum == 100000ull * 100001 / 2;
  printf("generator %s\n", gok ? "ok" : "WRONG");
  if (!ok || !gok)
    return 1;
  printf("PASS\n");
  return 0;
}
