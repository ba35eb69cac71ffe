// In-stack generators under SafeStack (x86-64). The consumer addresses its
// frame through its frame pointer, forced by the zero-byte allocation of
// cacs_isg_start; SafeStack moved that allocation to the unsafe stack (its
// address reaches inline assembly), so the consumer addressed its frame
// from the stack pointer that the generator moves: wrong sums, crashes at
// -O0. Compiled by cacs, the pass plugin marks the assembly's operand as
// neither captured nor read, and the allocation stays on the real stack.
// Both sides keep address-taken locals (on the unsafe stack) across the
// switches, and a recursive generator (Hanoi) checks every move against
// plain recursion.
//
// (x86-64: SafeStack has no AArch64 runtime here.)
// RUN: %clang -O0 -fsanitize=safe-stack -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -fsanitize=safe-stack -I%cacs_include %s %cacs_rt_x86_64 -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -fsanitize=safe-stack -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O2 -flto -fsanitize=safe-stack -I%cacs_include %s %cacs_rt_x86_64 -o %tl && %tl | FileCheck %s
// RUN: %clang -O2 -flto=thin -fsanitize=safe-stack -I%cacs_include %s %cacs_rt_x86_64 -o %tt && %tt | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -fsanitize=safe-stack -I%cacs_include %s %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// Another compiler stops with the marker's message instead of computing
// wrong (it cannot keep the allocation off the unsafe stack):
// RUN: not %stock_clang -O1 -fsanitize=safe-stack -I%cacs_include -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=STOCK
// STOCK: error: cacs: an in-stack generator under SafeStack needs the cacs pass plugin
//
// CHECK: sequence ok
// CHECK: hanoi ok
// CHECK: PASS

#include "cacs/instack.h"

#include <stdio.h>

#include "Inputs/check.h"

// Stores its argument through a pointer the optimizer cannot see through:
// the caller's array is address-taken, so SafeStack puts it on the unsafe
// stack.
__attribute__((noinline)) static void fill(volatile uint64_t *p, int n,
                                           uint64_t v) {
  for (int i = 0; i < n; ++i)
    p[i] = v + (uint64_t)i;
}
__attribute__((noinline)) static uint64_t sum(volatile uint64_t *p, int n) {
  uint64_t s = 0;
  for (int i = 0; i < n; ++i)
    s += p[i];
  return s;
}

static uint64_t seq(cacs_isg_ctx *ctx, void *arg) {
  uint64_t n = (uintptr_t)arg;
  for (uint64_t c = 1; c <= n; ++c) {
    volatile uint64_t mine[16];
    fill(mine, 16, c);
    cacs_isg_yield(ctx, c);
    if (sum(mine, 16) != 16 * c + 120)
      return 1; // its unsafe frame was overwritten: ends the sequence early
  }
  return 0;
}

__attribute__((noinline)) static uint64_t consume_seq(uint64_t n) {
  volatile uint64_t local[16];
  fill(local, 16, 7);
  cacs_isg g;
  uint64_t s = 0, count = 0;
  for (uint64_t v = cacs_isg_start(&g, seq, (void *)(uintptr_t)n);
       !cacs_isg_done(&g); v = cacs_isg_next(&g)) {
    volatile uint64_t scratch[8]; // the consumer's own unsafe frame in use
    fill(scratch, 8, v);
    s += sum(scratch, 8) - 28 - 7 * v; // = v
    ++count;
  }
  if (sum(local, 16) != 16 * 7 + 120 || count != n)
    return 0;
  return s;
}

// Hanoi: each move (from, to) packed into a yielded value.
static void hanoi_gen(cacs_isg_ctx *ctx, int n, int from, int to, int via) {
  if (n == 0)
    return;
  volatile uint64_t tag[2];
  fill(tag, 2, (uint64_t)n);
  hanoi_gen(ctx, n - 1, from, via, to);
  cacs_isg_yield(ctx, (uint64_t)(from * 4 + to));
  hanoi_gen(ctx, n - 1, via, to, from);
  if (sum(tag, 2) != 2 * (uint64_t)n + 1)
    cacs_isg_yield(ctx, 99); // never a valid move: the consumer counts it
}
static uint64_t hanoi_entry(cacs_isg_ctx *ctx, void *arg) {
  hanoi_gen(ctx, (int)(uintptr_t)arg, 0, 2, 1);
  return 0;
}

static uint64_t expect[1 << 12];
static int nexpect;
static void hanoi_plain(int n, int from, int to, int via) {
  if (n == 0)
    return;
  hanoi_plain(n - 1, from, via, to);
  expect[nexpect++] = (uint64_t)(from * 4 + to);
  hanoi_plain(n - 1, via, to, from);
}

__attribute__((noinline)) static int consume_hanoi(int n) {
  cacs_isg g;
  int i = 0, bad = 0;
  for (uint64_t v = cacs_isg_start(&g, hanoi_entry, (void *)(uintptr_t)n);
       !cacs_isg_done(&g); v = cacs_isg_next(&g)) {
    volatile uint64_t seen[1];
    fill(seen, 1, v);
    bad += i >= nexpect || sum(seen, 1) != expect[i];
    ++i;
  }
  return bad + (i != nexpect);
}

int main(void) {
  watchdog(60);
  uint64_t s = consume_seq(200);
  EXPECT(s == 200 * 201 / 2);
  if (s == 200 * 201 / 2)
    printf("sequence ok\n");
  hanoi_plain(12, 0, 2, 1);
  int bad = consume_hanoi(12);
  EXPECT(bad == 0);
  if (bad == 0)
    printf("hanoi ok\n");
  printf(failures ? "FAIL\n" : "PASS\n");
  return failures != 0;
}
