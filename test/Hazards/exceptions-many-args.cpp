// A C++ exception thrown by a preserve_none function with 20 integer
// arguments (past r11 and rax into the stack on x86-64; into x9-x15 on
// AArch64) unwinds through a preserve_none frame with a destructor to run,
// into a C caller's catch block; the list and APN, -O0, -O2, full LTO and
// ThinLTO. Every frame keeps its values: the output must be stock clang
// -O0's.
//
// RUN: %stock_clangxx -O0 %s -o %t.ref && %t.ref > %t.expected
// RUN: printf 'fun:_Z7thrower*\nfun:_Z6middle*\n' > %t.list
// RUN: %clangxx -O0 -fpreserve-none-list=%t.list %s -o %t.l0 && %t.l0 > %t.l0.out && diff %t.expected %t.l0.out
// RUN: %clangxx -O2 -fpreserve-none-list=%t.list %s -o %t.l2 && %t.l2 > %t.l2.out && diff %t.expected %t.l2.out
// RUN: %clangxx -O2 -flto -fpreserve-none-list=%t.list %s -o %t.llto && %t.llto > %t.llto.out && diff %t.expected %t.llto.out
// RUN: %clangxx -O2 -flto=thin -fpreserve-none-list=%t.list %s -o %t.lthin && %t.lthin > %t.lthin.out && diff %t.expected %t.lthin.out
// RUN: %clangxx -O2 -DSTATIC -fauto-preserve-none %s -o %t.apn2 -Rpass=auto-preserve-none 2>&1 | FileCheck %s
// RUN: %t.apn2 > %t.apn2.out && diff %t.expected %t.apn2.out
// RUN: %clangxx -O2 -flto -fauto-preserve-none %s -o %t.apnlto && %t.apnlto > %t.apnlto.out && diff %t.expected %t.apnlto.out
// RUN: %if qemu-aarch64 %{ %clangxx %aarch64_flags -O2 -fpreserve-none-list=%t.list %s -o %t.a64 && %run_aarch64 %t.a64 > %t.a64.out && diff %t.expected %t.a64.out %}
// RUN: %if qemu-aarch64 %{ %clangxx %aarch64_flags -O2 -flto -fpreserve-none-list=%t.list %s -o %t.a64lto && %run_aarch64 %t.a64lto > %t.a64lto.out && diff %t.expected %t.a64lto.out %}
// CHECK: remark: made '_ZL7throwerllllllllllllllllllll' preserve_none
// CHECK: remark: made '_ZL6middlellllllllllllllllllll' preserve_none
#include <cstdio>
#include <stdexcept>

#ifdef STATIC
#define LOCAL static
#else
#define LOCAL
#endif

// APN's seed: a preserve_none function 'thrower' calls.
#ifdef STATIC
__attribute__((preserve_none))
#endif
__attribute__((noinline)) void
seed() {
  __asm__ volatile("");
}

struct Guard {
  long *P;
  long V;
  ~Guard() { *P += V; }
};
long Sink;

#define PARAMS                                                                 \
  long a1, long a2, long a3, long a4, long a5, long a6, long a7, long a8,      \
      long a9, long a10, long a11, long a12, long a13, long a14, long a15,     \
      long a16, long a17, long a18, long a19, long a20
#define ARGS                                                                   \
  a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17,  \
      a18, a19, a20

LOCAL __attribute__((noinline)) long thrower(PARAMS) {
  seed();
  if (a11 == 13 && a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 > 0)
    throw std::runtime_error("13");
  return a1 + a11 * 3 + a12 * 5 + a13 * 7 + a18 * 11 + a20;
}

LOCAL __attribute__((noinline)) long middle(PARAMS) {
  Guard G{&Sink, a11 + a12 + a19};
  long R = thrower(ARGS);
  return R + a13 + a1;
}

__attribute__((noinline)) long top(long x) {
  long Local = x * 17;
  try {
    return middle(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8,
                  x + 9, x + 10, x + 11, x + 12, x + 13, x + 14, x + 15,
                  x + 16, x + 17, x + 18, x + 19) +
           Local;
  } catch (const std::exception &) {
    return -Local - Sink;
  }
}

int main() {
  for (long I = 0; I < 5; I++)
    std::printf("%ld %ld\n", top(I), Sink);
  return 0;
}
