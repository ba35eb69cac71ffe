// C++ dispatch through code cacs makes preserve_none: a this-adjusting
// thunk, a covariant-return thunk through a non-primary base, a virtual
// thunk (virtual base), templates, an exception through infected frames,
// std::function and lambdas (std::sort), with 12 and more arguments. APN
// (the functions call apn_switch) and a list of mangled-name globs that
// names the members, the thunks (_ZThn*, _ZTv*, _ZTch*), the template
// instances and the lambdas. Every build prints what stock clang -O0
// prints, on x86-64 and AArch64.
//
// RUN: rm -rf %t && mkdir %t
// RUN: printf 'fun:_ZN1B*\nfun:_ZN1D*\nfun:_Z4tsum*\nfun:_ZN12_GLOBAL__N_1*\nfun:_ZZ*\nfun:_ZNK*\nfun:_ZL*\nfun:_ZThn*\nfun:_ZTv*\nfun:_ZTch*\n' > %t/list
// RUN: %clangxx -O2 -fauto-preserve-none -Rpass=auto-preserve-none -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// RUN: %stock_clangxx -O0 %s -o %t/ref && %t/ref > %t/expected
// RUN: for M in "-O0 -fauto-preserve-none" "-O2 -fauto-preserve-none" "-O3 -fauto-preserve-none" "-O2 -flto -fauto-preserve-none" "-O2 -flto=thin -fauto-preserve-none" "-O0 -fpreserve-none-list=%t/list" "-O2 -fpreserve-none-list=%t/list" "-O2 -flto -fauto-preserve-none -fpreserve-none-list=%t/list"; do \
// RUN:   %clangxx $M %s -o %t/prog && %t/prog > %t/out && diff %t/expected %t/out || exit 1; \
// RUN: done
// RUN: %if qemu-aarch64 %{ %stock_clangxx %aarch64_flags -O0 %s -o %t/ref-a64 && %run_aarch64 %t/ref-a64 > %t/expected-a64 && \
// RUN:   for M in "-O0 -fauto-preserve-none" "-O2 -fauto-preserve-none" "-O2 -flto -fauto-preserve-none" "-O2 -fpreserve-none-list=%t/list"; do \
// RUN:   %clangxx %aarch64_flags $M %s -o %t/a64 && %run_aarch64 %t/a64 > %t/a64.out && diff %t/expected-a64 %t/a64.out || exit 1; \
// RUN: done %}
// REMARK-DAG: made '_ZN12_GLOBAL__N_17throwerEllllllllllll' preserve_none
// REMARK-DAG: made '_ZN12_GLOBAL__N_17catcherEl' preserve_none
// RUN: %clangxx -O2 -fpreserve-none-list=%t/list -c %s -o %t/list.o && llvm-nm %t/list.o | FileCheck %s --check-prefix=SYMS
// SYMS-DAG: {{[TW]}} _ZThn16_N1B1fEllllllllllllldd.preserve_none_list
// SYMS-DAG: {{[TW]}} _ZTchn16_h16_N1B4selfEv.preserve_none_list
// SYMS-DAG: {{[TW]}} _ZTv0_n{{[0-9]+}}_N1D1hEllllllllllll.preserve_none_list
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <vector>
#include <algorithm>
#define APN_DEFINE_SWITCH
#include "Inputs/clobber.h"
#define NI __attribute__((noinline))
struct A { long a = 1; virtual ~A() {} virtual long f(long, long, long, long, long, long, long, long, long, long, long, long, long, double, double) = 0; virtual A *self() { return this; } };
struct X { long x = 7; virtual ~X() {} virtual long g(long p, long q) { return p * x + q; } };
struct B : X, A {
  long b = 3;
  NI long f(long p1, long p2, long p3, long p4, long p5, long p6, long p7, long p8, long p9, long p10, long p11, long p12, long p13, double d1, double d2) override { apn_switch(1);
    return p1 + 2 * p2 + 3 * p3 + 4 * p4 + 5 * p5 + 6 * p6 + 7 * p7 + 8 * p8 + 9 * p9 + 10 * p10 + 11 * p11 + 12 * p12 + 13 * p13 + (long)(d1 * 100) + (long)(d2 * 1000) + b + a + x;
  }
  NI B *self() override { apn_switch(1); return this; }  // covariant through the non-primary base A
  NI long g(long p, long q) override { apn_switch(1); return p * b - q; }
};
struct V { long v = 11; virtual ~V() {} virtual long h(long, long, long, long, long, long, long, long, long, long, long, long) = 0; };
struct C1 : virtual V { long c1 = 2; };
struct C2 : virtual V { long c2 = 5; };
struct D : C1, C2 {
  NI long h(long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8, long a9, long a10, long a11, long a12) override { apn_switch(1);
    return a1 ^ (a2 << 1) ^ (a3 << 2) ^ (a4 << 3) ^ (a5 << 4) ^ (a6 << 5) ^ (a7 << 6) ^ (a8 << 7) ^ (a9 << 8) ^ (a10 << 9) ^ (a11 << 10) ^ (a12 << 11) ^ (v + c1 + c2);
  }
};
template <typename T> NI T tsum(T a, T b, T c, T d, T e, T f, T g, T h, T i, T j, T k, T l, T m) { return a + b * 2 + c * 3 + d * 4 + e * 5 + f * 6 + g * 7 + h * 8 + i * 9 + j * 10 + k * 11 + l * 12 + m * 13; }
namespace {
NI long thrower(long a, long b, long c, long d, long e, long f, long g, long h, long i, long j, long k, long l) { apn_switch(1);
  if (a + b + c + d + e + f + g + h + i + j + k + l > 50) throw std::runtime_error("big");
  return a * b + k * l;
}
NI long catcher(long base) { apn_switch(1);
  long keep1 = base * 3, keep2 = base ^ 0x55;
  try { return thrower(base, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12) + keep1; }
  catch (const std::exception &e) { return -keep1 - keep2 - (long)e.what()[0]; }
}
}
static std::function<long(long, long, long, long, long, long, long, long, long, long, long, long)> make_fn(long k) {
  return [k](long a, long b, long c, long d, long e, long f, long g, long h, long i, long j, long l, long m) {
    return k * (a - b + c - d + e - f + g - h + i - j + l - m) + l * 1000 + m;
  };
}
int main(int argc, char **) {
  B b; A *pa = &b; X *px = &b;
  long seed = argc + 1;
  printf("f %ld\n", pa->f(seed, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1.5, 2.25));
  A *s = pa->self(); printf("self %d %ld\n", s == pa, s->a);
  printf("g %ld\n", px->g(seed * 5, 4));
  D dd; V *pv = &dd;
  printf("h %ld\n", pv->h(seed, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
  printf("tsum %ld %.3f %d\n", tsum<long>(seed, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), tsum<double>(seed, .5, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13.25), tsum<int>(seed, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13));
  printf("catch %ld %ld\n", catcher(seed), catcher(seed + 100));
  auto fn = make_fn(seed + 3);
  printf("fn %ld\n", fn(seed, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
  std::vector<long> v{5, 3, 9, 1, 7, seed};
  long bias = seed;
  std::sort(v.begin(), v.end(), [bias](long x, long y) { return (x ^ bias) < (y ^ bias); });
  for (long x : v) printf("%ld ", x);
  printf("\n");
  return 0;
}
