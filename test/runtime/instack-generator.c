// In-stack generators (cacs/instack.h): a sequence summed, a recursive
// generator (Hanoi) checked move by move against plain recursion, values
// passed into the generator by resume, a generator ending without yielding,
// nested generators (a generator consuming another), many values live in the
// consumer and the generator across every switch, a consumer that calls
// deep functions between resumes (they run below the generator's frames),
// a leaf generator whose locals are in its red zone, and a generator
// abandoned half-way.
//
// RUN: %clang -O0 -I%cacs_include %s %cacs_rt_x86_64 -o %t0 && %t0 | FileCheck %s
// RUN: %clang -O1 -I%cacs_include %s %cacs_rt_x86_64 -o %t1 && %t1 | FileCheck %s
// RUN: %clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %t2 && %t2 | FileCheck %s
// RUN: %clang -O3 -fno-omit-frame-pointer -I%cacs_include %s %cacs_rt_x86_64 -o %t3 && %t3 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none -I%cacs_include %s %cacs_rt_x86_64 -o %ta && %ta | FileCheck %s
// RUN: %stock_clang -O2 -I%cacs_include %s %cacs_rt_x86_64 -o %ts && %ts | FileCheck %s
// RUN: %clang -O2 -fcf-protection=full -I%cacs_include %s %cacs_rt_x86_64 -o %tc && %tc | FileCheck %s
//
// CHECK: sum 50005000
// CHECK: hanoi 10 moves 1023 ok
// CHECK: echo ok
// CHECK: empty ok
// CHECK: nested 5050
// CHECK: live ok
// CHECK: deep ok
// CHECK: red zone ok
// CHECK: abandoned ok
// CHECK: PASS

#include "cacs/instack.h"

#include <stdio.h>
#include <string.h>

#include "Inputs/check.h"

static uint64_t seq(cacs_isg_ctx *ctx, void *arg) {
  for (uint64_t c = (uintptr_t)arg; c; --c)
    cacs_isg_yield(ctx, c);
  return 0;
}

__attribute__((noinline)) static uint64_t sum_seq(uint64_t n) {
  cacs_isg g;
  uint64_t s = 0;
  for (uint64_t v = cacs_isg_start(&g, seq, (void *)(uintptr_t)n);
       !cacs_isg_done(&g); v = cacs_isg_next(&g))
    s += v;
  return s;
}

// Hanoi: the generator yields every move from the depth where it happens.
#define MOVE(n, f, t) ((uint64_t)(n) | (uint64_t)(f) << 8 | (uint64_t)(t) << 16)
static void hanoi_rec(cacs_isg_ctx *ctx, int n, int f, int t, int a) {
  if (n == 0)
    return;
  hanoi_rec(ctx, n - 1, f, a, t);
  cacs_isg_yield(ctx, MOVE(n, f, t));
  hanoi_rec(ctx, n - 1, a, t, f);
}
static uint64_t hanoi_gen(cacs_isg_ctx *ctx, void *arg) {
  hanoi_rec(ctx, (int)(uintptr_t)arg, 'a', 'b', 'c');
  return 0;
}
static uint64_t ref_moves[1 << 12];
static int ref_n;
static void hanoi_ref(int n, int f, int t, int a) {
  if (n == 0)
    return;
  hanoi_ref(n - 1, f, a, t);
  ref_moves[ref_n++] = MOVE(n, f, t);
  hanoi_ref(n - 1, a, t, f);
}
__attribute__((noinline)) static void test_hanoi(void) {
  hanoi_ref(10, 'a', 'b', 'c');
  cacs_isg g;
  int k = 0, bad = 0;
  for (uint64_t v = cacs_isg_start(&g, hanoi_gen, (void *)10);
       !cacs_isg_done(&g); v = cacs_isg_resume(&g, 0), ++k)
    bad += k >= ref_n || v != ref_moves[k];
  printf("hanoi 10 moves %d %s\n", k, bad || k != ref_n ? "WRONG" : "ok");
  EXPECT(!bad && k == ref_n);
}

// Values in: the generator yields what it was resumed with, plus one; its
// return value ends the run.
static uint64_t echo(cacs_isg_ctx *ctx, void *arg) {
  (void)arg;
  uint64_t in = cacs_isg_yield(ctx, 1);
  while (in != 0)
    in = cacs_isg_yield(ctx, in + 1);
  return 777;
}
__attribute__((noinline)) static void test_echo(void) {
  cacs_isg g;
  uint64_t v = cacs_isg_start(&g, echo, NULL);
  EXPECT(v == 1 && !cacs_isg_done(&g));
  for (uint64_t i = 10; i < 20; ++i) {
    v = cacs_isg_resume(&g, i);
    EXPECT(v == i + 1);
  }
  v = cacs_isg_resume(&g, 0);
  EXPECT(v == 777 && cacs_isg_done(&g));
  printf("echo %s\n", failures ? "WRONG" : "ok");
}

static uint64_t nothing(cacs_isg_ctx *ctx, void *arg) {
  (void)ctx;
  return (uintptr_t)arg;
}
__attribute__((noinline)) static void test_empty(void) {
  cacs_isg g;
  uint64_t v = cacs_isg_start(&g, nothing, (void *)42);
  EXPECT(v == 42 && cacs_isg_done(&g));
  printf("empty %s\n", v == 42 && cacs_isg_done(&g) ? "ok" : "WRONG");
}

// A generator that consumes another one and yields running sums.
static uint64_t prefix_sums(cacs_isg_ctx *ctx, void *arg) {
  cacs_isg inner;
  uint64_t acc = 0;
  for (uint64_t v = cacs_isg_start(&inner, seq, arg); !cacs_isg_done(&inner);
       v = cacs_isg_resume(&inner, 0)) {
    acc += v;
    cacs_isg_yield(ctx, acc);
  }
  return 0;
}
__attribute__((noinline)) static void test_nested(void) {
  cacs_isg g;
  uint64_t last = 0;
  for (uint64_t v = cacs_isg_start(&g, prefix_sums, (void *)100);
       !cacs_isg_done(&g); v = cacs_isg_resume(&g, 0))
    last = v;
  printf("nested %llu\n", (unsigned long long)last);
}

// Many values live on both sides (callee-saved registers included).
static volatile uint64_t seed = 3;
static uint64_t mixer(cacs_isg_ctx *ctx, void *arg) {
  (void)arg;
  uint64_t a = seed, b = a * 5, c = b * 7, d = c * 11, e = d * 13, f = e * 17,
           h = f * 19, i = h * 23, j = i * 29, k = j * 31, l = k * 37;
  double x = (double)a * 0.5, y = x * 1.25, z = y * 1.5;
  for (int r = 0; r < 1000; ++r) {
    cacs_isg_yield(ctx, a ^ b ^ c ^ d ^ e ^ f ^ h ^ i ^ j ^ k ^ l);
    a += b, b += c, c += d, d += e, e += f, f += h, h += i, i += j, j += k,
        k += l, l += a;
    x += y, y += z, z += x * 0.001;
  }
  return (uint64_t)(x + y + z);
}
static uint64_t mixer_ref(uint64_t *last) {
  uint64_t a = seed, b = a * 5, c = b * 7, d = c * 11, e = d * 13, f = e * 17,
           h = f * 19, i = h * 23, j = i * 29, k = j * 31, l = k * 37;
  double x = (double)a * 0.5, y = x * 1.25, z = y * 1.5;
  uint64_t s = 0;
  for (int r = 0; r < 1000; ++r) {
    s += a ^ b ^ c ^ d ^ e ^ f ^ h ^ i ^ j ^ k ^ l;
    a += b, b += c, c += d, d += e, e += f, f += h, h += i, i += j, j += k,
        k += l, l += a;
    x += y, y += z, z += x * 0.001;
  }
  *last = (uint64_t)(x + y + z);
  return s;
}
// Separate from test_live, whose frame must stay small (see instack.h).
__attribute__((noinline)) static void
report_live(uint64_t s, uint64_t v, uint64_t p, uint64_t q, uint64_t r,
            uint64_t s0, uint64_t t, double u, double w) {
  uint64_t last, ref = mixer_ref(&last);
  uint64_t p2 = seed * 101, q2 = p2 * 103, r2 = q2 * 107, s2 = r2 * 109,
           t2 = s2 * 113;
  double u2 = (double)p2 * 0.25, w2 = u2 * 3;
  for (int i = 0; i < 1000; ++i) {
    p2 += q2, q2 += r2, r2 += s2, s2 += t2, t2 += p2;
    u2 += w2, w2 += u2 * 0.5;
  }
  int ok = s == ref && v == last && p == p2 && q == q2 && r == r2 && s0 == s2 &&
           t == t2 && u == u2 && w == w2;
  EXPECT(ok);
  printf("live %s\n", ok ? "ok" : "WRONG");
}

__attribute__((noinline)) static void test_live(void) {
  uint64_t p = seed * 101, q = p * 103, r = q * 107, s0 = r * 109, t = s0 * 113;
  double u = (double)p * 0.25, w = u * 3;
  cacs_isg g;
  uint64_t s = 0, v = cacs_isg_start(&g, mixer, NULL);
  for (; !cacs_isg_done(&g); v = cacs_isg_resume(&g, 0)) {
    s += v;
    p += q, q += r, r += s0, s0 += t, t += p;
    u += w, w += u * 0.5;
  }
  report_live(s, v, p, q, r, s0, t, u, w);
}

// The consumer calls deep functions (stack-hungry) between resumes: they
// run below the generator's frames and must not disturb them.
__attribute__((noinline)) static uint64_t deep(int n) {
  volatile char pad[256];
  memset((char *)pad, n, sizeof pad);
  return n ? deep(n - 1) + pad[n % 256] : 0;
}
static uint64_t deep_gen(cacs_isg_ctx *ctx, void *arg) {
  volatile uint64_t local[64];
  for (int i = 0; i < 64; ++i)
    local[i] = (uintptr_t)arg * i;
  for (int r = 0; r < 50; ++r) {
    uint64_t s = 0;
    for (int i = 0; i < 64; ++i)
      s += local[i];
    cacs_isg_yield(ctx, s);
  }
  return 0;
}
__attribute__((noinline)) static void test_deep(void) {
  cacs_isg g;
  int bad = 0;
  uint64_t want = 7ull * 63 * 64 / 2;
  for (uint64_t v = cacs_isg_start(&g, deep_gen, (void *)7); !cacs_isg_done(&g);
       v = cacs_isg_resume(&g, 0)) {
    bad += v != want;
    bad += deep(40) != deep(40);
  }
  EXPECT(!bad);
  printf("deep %s\n", bad ? "WRONG" : "ok");
}

// A leaf generator keeps its locals below its stack pointer (the x86-64 red
// zone); the consumer runs below the generator and calls deep functions
// between resumes, which must not reach them.
static uint64_t leaf_gen(cacs_isg_ctx *ctx, void *arg) {
  volatile uint64_t local[12];
  for (int i = 0; i < 12; ++i)
    local[i] = (uintptr_t)arg * (i + 1);
  for (int r = 0; r < 50; ++r) {
    uint64_t s = 0;
    for (int i = 0; i < 12; ++i)
      s += local[i];
    cacs_isg_yield(ctx, s);
  }
  return 0;
}
__attribute__((noinline)) static void test_redzone(void) {
  cacs_isg g;
  int bad = 0, k = 0;
  for (uint64_t v = cacs_isg_start(&g, leaf_gen, (void *)3); !cacs_isg_done(&g);
       v = cacs_isg_resume(&g, 0), ++k) {
    bad += v != 3 * 78;
    bad += deep(40) != deep(40);
  }
  EXPECT(!bad && k == 50);
  printf("red zone %s\n", bad || k != 50 ? "WRONG" : "ok");
}

__attribute__((noinline)) static uint64_t take_three(void) {
  cacs_isg g;
  uint64_t s = 0;
  int k = 0;
  for (uint64_t v = cacs_isg_start(&g, seq, (void *)1000);
       !cacs_isg_done(&g) && k < 3; v = cacs_isg_resume(&g, 0), ++k)
    s += v;
  return s; // the generator's frames go with ours
}

int main(void) {
  printf("sum %llu\n", (unsigned long long)sum_seq(10000));
  test_hanoi();
  test_echo();
  test_empty();
  test_nested();
  test_live();
  test_deep();
  test_redzone();
  uint64_t a = 0;
  for (int i = 0; i < 1000; ++i)
    a += take_three() + deep(5);
  int ok = a == 1000 * (1000 + 999 + 998 + deep(5));
  EXPECT(ok);
  printf("abandoned %s\n", ok ? "ok" : "WRONG");
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
