// Consumers and generators whose frames are addressed through a base
// pointer (rbx: over-aligned locals with the consumer's dynamic allocation;
// x19 on AArch64: also 256 bytes of locals or more): the switch exchanges
// rbx / x19 like the frame pointer. The generator uses the base-pointer
// register for values of its own, so a switch that left it alone would hand
// them to the consumer as its base pointer (it then fails at -O2).
//
// RUN: %clang -O2 -DOVERALIGNED -I%cacs_include %s %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %clang -O0 -DOVERALIGNED -I%cacs_include %s %cacs_rt_x86_64 -o %ta0 && %ta0 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t && %t | FileCheck %s
// CHECK: big frame ok

#include "cacs/instack.h"

#include <stdio.h>
#include <string.h>

// Keeps values live in every register across its yields (rbx, x19 too).
static volatile uint64_t one = 1;
static uint64_t count(cacs_isg_ctx *ctx, void *arg) {
  uint64_t a = one, b = a + 1, c = b + 1, d = c + 1, e = d + 1, f = e + 1,
           h = f + 1, i = h + 1, j = i + 1, k = j + 1, l = k + 1, m = l + 1;
  for (uint64_t n = 1; n <= (uintptr_t)arg; ++n) {
    cacs_isg_yield(ctx, n);
    a += b, b += c, c += d, d += e, e += f, f += h, h += i, i += j, j += k,
        k += l, l += m, m += a;
  }
  return (a ^ b ^ c ^ d ^ e ^ f ^ h ^ i ^ j ^ k ^ l ^ m) & 0;
}

__attribute__((noinline)) static uint64_t consume(int seed) {
#ifdef OVERALIGNED
  _Alignas(64) char big[128];
#else
  char big[512];
#endif
  memset(big, seed, sizeof big);
  cacs_isg g;
  uint64_t s = 0;
  for (uint64_t v = cacs_isg_start(&g, count, (void *)100); !cacs_isg_done(&g);
       v = cacs_isg_resume(&g, 0))
    s += v + (unsigned char)big[v % sizeof big];
  return s;
}

int main(void) {
  uint64_t s = consume(3);
  printf("big frame %s\n", s == 5050 + 300 ? "ok" : "WRONG");
  return s != 5050 + 300;
  // (300: big[v % size] is 3 for each of the 100 values)
}
