// A hot loop keeps values of every register class live across rare
// preserve_none calls that go through cold shields (shieldsColdCall): 64-bit
// integers, double, float, long double (x87 on x86-64, quad on AArch64),
// 16- and 32-byte vectors; the rare callee clobbers every register the C
// convention calls callee-saved (x86-64 rbx, r12-r15; AArch64 x19-x28 and
// d8-d15, the low halves of v8-v15). The rare calls take a struct by value
// (in registers), a vector (32 bytes with AVX), a long double, narrow
// integers and same-typed ones whose order matters, and return a struct in
// memory (sret); one of them is the yield
// of a wait loop `while (cond) yield();` (the shape srvmix2's rule covers),
// the work runs in a coroutine that really switches there, and a last call
// leaves by longjmp to a setjmp in main. Every build must print what the
// same program prints built by stock clang -O0 without preserve_none.
//
// RUN: %stock_clang -O0 -DNO_PN -I%cacs_include %s $(%cacs_rt_objs %stock_clang -O0 -I%cacs_include) -lpthread -o %tref
// RUN: %tref > %t.ref && FileCheck %s < %t.ref
// RUN: %clang -O2 -Rpass=preserve-none-safety -I%cacs_include %s %cacs_rt_x86_64 -o %t2 2> %t2.remarks && timeout 120 %t2 | diff %t.ref -
// RUN: FileCheck %s --check-prefix=REMARK < %t2.remarks
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && timeout 120 %t3 | diff %t.ref -
// RUN: %clang -O2 -fPIC -I%cacs_include %s %cacs_rt_x86_64 -o %t4 && timeout 120 %t4 | diff %t.ref -
// RUN: %clang -O2 -mavx2 -I%cacs_include %s %cacs_rt_x86_64 -o %t5 && timeout 120 %t5 | diff %t.ref -
// RUN: %clang -O2 -flto -I%cacs_include %s %cacs_rt_x86_64 -o %t6 && timeout 120 %t6 | diff %t.ref -
// RUN: %clang -O2 -flto=thin -I%cacs_include %s %cacs_rt_x86_64 -o %t7 && timeout 120 %t7 | diff %t.ref -
// RUN: %clang -O2 -mllvm -cacs-cold-call-shield=false -I%cacs_include %s %cacs_rt_x86_64 -o %t8 && timeout 120 %t8 | diff %t.ref -
//
// With a profile of its own run (PGO), the profile decides what is cold
// (the wait loop's yield is cold by it; whether rare is, the test leaves open):
// RUN: %clang -O2 -fprofile-instr-generate -I%cacs_include %s %cacs_rt_x86_64 -o %tpg
// RUN: env LLVM_PROFILE_FILE=%t.profraw %tpg > /dev/null
// RUN: llvm-profdata merge -o %t.profdata %t.profraw
// RUN: %clang -O2 -fprofile-instr-use=%t.profdata -Rpass=preserve-none-safety -I%cacs_include %s %cacs_rt_x86_64 -o %tpu 2> %tpu.remarks && timeout 120 %tpu | diff %t.ref -
// RUN: FileCheck %s --check-prefix=PGO < %tpu.remarks
//
// AArch64 (qemu): its own reference (long double is a quad there).
// RUN: %if qemu-aarch64 %{ %stock_clang %aarch64_flags -O0 -DNO_PN -I%cacs_include %s $(%cacs_rt_objs %stock_clang %aarch64_flags -O0 -I%cacs_include) -lpthread -o %tref.a64 %}
// RUN: %if qemu-aarch64 %{ %run_aarch64 %tref.a64 > %t.ref.a64 && FileCheck %s < %t.ref.a64 %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -Rpass=preserve-none-safety -I%cacs_include %s %cacs_rt_aarch64 -o %ta2 2> %ta2.remarks && timeout 120 %run_aarch64 %ta2 | diff %t.ref.a64 - %}
// RUN: %if qemu-aarch64 %{ FileCheck %s --check-prefix=REMARK < %ta2.remarks %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -fPIC -fauto-preserve-none -I%cacs_include %s %cacs_rt_aarch64 -o %ta3 && timeout 120 %run_aarch64 %ta3 | diff %t.ref.a64 - %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -flto -I%cacs_include %s %cacs_rt_aarch64 -o %ta4 && timeout 120 %run_aarch64 %ta4 | diff %t.ref.a64 - %}
// RUN: %if qemu-aarch64 %{ %clang %aarch64_flags -O2 -mllvm -cacs-cold-call-shield=false -I%cacs_include %s %cacs_rt_aarch64 -o %ta5 && timeout 120 %run_aarch64 %ta5 | diff %t.ref.a64 - %}
//
// CHECK:      coroutine rare=48 waits=48 sum=[[SUM:[0-9]+]]
// CHECK-NEXT: main rare=48 waits=48 sum=[[SUM]]
// CHECK-NEXT: longjmp k=7 kept={{[0-9]+}}
//
// REMARK-DAG: remark: a preserve_none call in 'work' goes through a shield (callee 'rare'): the call is rare
// REMARK-DAG: remark: a preserve_none call in 'work' goes through a shield (callee 'wait_step'): the call is rare
// PGO: remark: a preserve_none call in 'work' goes through a shield (callee 'wait_step'): the call is rare

#include "cacs/coro.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#ifdef NO_PN
#define PN
#define CLOBBER() ((void)0)
#else
#define PN __attribute__((preserve_none))
#include "../AutoPreserveNone/Inputs/clobber.h"
#define CLOBBER() APN_CLOBBER_CALLEE_SAVED()
#endif

typedef float v4f __attribute__((vector_size(16)));
typedef double v4d __attribute__((vector_size(32)));
// Unsigned: the arithmetic wraps, with no undefined behaviour to let the
// builds differ.
typedef unsigned long ul;
struct pair {
  double x;
  ul y;
};
struct big {
  ul a[5];
};

static jmp_buf jump;
static volatile int in_coroutine, jump_at = -1;
static unsigned long waits, pending;

static ul bits(long double x);

// Vector arguments in one register each: 32 bytes with AVX (ymm; without
// AVX a shield would take each in two xmm registers, so the second would
// arrive wrong; in memory, byval, as C passes them without AVX, preserve_none
// refuses them), else 16. Either way the callee computes the same.
#ifdef __AVX__
typedef v4d VEC;
#define TO_VEC(w) (w)
#define VEC_SUM(u) ((u[0] + u[2]) + 3 * (u[1] + u[3]))
#else
typedef double v2d __attribute__((vector_size(16)));
typedef v2d VEC;
#define TO_VEC(w) ((v2d){w[0] + w[2], w[1] + w[3]})
#define VEC_SUM(u) (u[0] + 3 * u[1])
#endif

// Rare: takes a struct in registers, two vectors, an
// x87 long double (a quad on AArch64), narrow integers the caller extends,
// and three integers of one type in an order that matters; returns a struct
// in memory; in the coroutine it switches, and at k == jump_at it leaves by
// longjmp.
PN __attribute__((noinline)) struct big rare(struct pair p, long k, VEC w,
                                             VEC w2, long double x,
                                             unsigned char c, short s, ul u0,
                                             ul u1, ul u2) {
  CLOBBER();
  if (k == jump_at)
    longjmp(jump, (int)k);
  if (in_coroutine)
    cacs_yield();
  struct big b = {{p.y + (ul)c, (ul)(p.x * 4) + (ul)(long)s, (ul)k + bits(x),
                   (ul)k * 3 + (ul)VEC_SUM(w) + (ul)VEC_SUM(w2) * 11,
                   (p.y ^ (ul)k) + u0 * 2 + u1 * 3 + u2 * 5}};
  return b;
}

// The yield of a wait loop: a step of `while (pending) wait_step();`.
PN __attribute__((noinline)) void wait_step(void) {
  CLOBBER();
  ++waits;
  --pending;
  if (in_coroutine)
    cacs_yield();
}

static ul bits(long double x) {
  ul out[2] = {0, 0};
  memcpy(out, &x, sizeof x < sizeof out ? sizeof x : sizeof out);
  return out[0] ^ (out[1] & 0xffff);
}

__attribute__((noinline)) ul work(unsigned n, unsigned *rare_calls) {
  ul g0 = 1, g1 = 2, g2 = 3, g3 = 4, g4 = 5, g5 = 6;
  double d0 = 1.5, d1 = 2.25;
  float f0 = 0.5f;
  long double x0 = 1.0L;
  v4f v = {1, 2, 3, 4};
  v4d w = {0.5, 0.25, 0.125, 1};
  for (unsigned i = 0; i < n; ++i) {
    g0 = g0 * 3 + i;
    g1 ^= g0 >> 3;
    g2 += g1 * 7;
    g3 = g3 * 5 + g2;
    g4 += g3 ^ g0;
    g5 -= g4 >> 1;
    d0 = d0 * 0.999 + (double)(i & 7);
    d1 += d0 * 0.5;
    f0 = f0 * 0.75f + 1.0f;
    x0 = x0 * 0.5L + (long double)(i & 3);
    v = v * (v4f){0.5f, 0.5f, 0.5f, 0.5f} + (v4f){1, 2, 3, (float)(i & 1)};
    w = w * (v4d){0.5, 0.5, 0.5, 0.5} + (v4d){(double)(i & 1), 1, 2, 3};
    if (__builtin_expect(i % 1024 == 1023, 0)) {
      struct big b = rare((struct pair){d0, g0}, (long)(i / 1024), TO_VEC(w),
                          TO_VEC((w + (v4d){1, 2, 3, 4})), x0,
                          (unsigned char)g2, (short)g3, g3, g4, g5);
      g1 += b.a[0] + b.a[1] + b.a[2] + b.a[3] + b.a[4];
      ++*rare_calls;
      pending = 1;
    }
    while (__builtin_expect(pending != 0, 0))
      wait_step();
  }
  return g0 + g1 + g2 + g3 + g4 + g5 + (ul)(d0 * 1000) + (ul)(d1 * 1000) +
         (ul)(f0 * 1000) + bits(x0) + (ul)(v[0] + v[1] + v[2] + v[3]) +
         (ul)(w[0] + w[1] + w[2] + w[3]);
}

static void coroutine(void *arg) {
  unsigned rare_calls = 0;
  ul sum = work(50000, &rare_calls);
  printf("coroutine rare=%u waits=%lu sum=%lu\n", rare_calls, waits,
         *(ul *)arg = sum);
}

int main(void) {
  ul sum = 0;
  in_coroutine = 1;
  cacs_coro *c = cacs_create(coroutine, &sum, 0);
  cacs_join(c);
  in_coroutine = 0;
  waits = 0;
  unsigned rare_calls = 0;
  ul main_sum = work(50000, &rare_calls);
  printf("main rare=%u waits=%lu sum=%lu\n", rare_calls, waits, main_sum);
  // Live across setjmp: volatile, as C requires of locals changed after it.
  volatile ul kept = sum ^ 0x1234;
  jump_at = 7;
  int k = setjmp(jump);
  if (!k) {
    rare_calls = 0;
    work(50000, &rare_calls);
    printf("no longjmp\n");
    return 1;
  }
  printf("longjmp k=%d kept=%lu\n", k, kept);
  return 0;
}
