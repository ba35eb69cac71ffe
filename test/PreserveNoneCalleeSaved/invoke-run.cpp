// An invoke of a preserve_none function keeps upstream's mask, and its
// callee upstream's list, under -fpreserve-none-callee-saved=none: LLVM 22
// stops with a fatal error on an invoke whose callee clobbers the caller's
// frame pointer. Exceptions thrown through an empty-list callee reach a
// frame-pointer caller's handler with its locals intact.
// RUN: %clangxx -O2 -S -fpreserve-none-callee-saved=none \
// RUN:   -Rpass=preserve-none-callee-saved -Rpass-missed=preserve-none-callee-saved %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WHY
// WHY-DAG: remark: '_ZL7invokedl' keeps rbp callee-saved: it is invoked
// WHY-DAG: remark: '_ZL8pressurel' saves no register
// REQUIRES: llvm-22
// RUN: %stock_clangxx -O0 %s -o %t.ref && %t.ref > %t.ref.out
// RUN: %clangxx -O0 -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t0 && %t0 | diff %t.ref.out -
// RUN: %clangxx -O1 -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t1 && %t1 | diff %t.ref.out -
// RUN: %clangxx -O2 -fno-omit-frame-pointer -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t2 && %t2 | diff %t.ref.out -
// RUN: %clangxx -O3 -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o %t3 && %t3 | diff %t.ref.out -

#include <cstdio>

volatile long g[16];
volatile int should_throw = 1;

// Enough values live at once to allocate rbp where it may.
[[clang::preserve_none, gnu::noinline]] static long pressure(long k) {
  long v[15];
  for (int I = 0; I < 15; ++I)
    v[I] = g[I] + k;
  if (should_throw && k == 3)
    throw 42;
  long s = 0;
  for (int I = 0; I < 15; ++I)
    s += v[I] ^ I;
  return s;
}

// Invoked by a frame-pointer caller: keeps its list.
[[clang::preserve_none, gnu::noinline]] static long invoked(long k) {
  if (should_throw && k == 4)
    throw 7;
  return k * 2;
}

// A C function between: pressure is called from it, so pressure may get the
// empty list, and exceptions pass through a frame that saves nothing.
[[gnu::noinline]] static long via_c(long k) { return pressure(k) + 2; }

[[gnu::noinline]] static long catches(long k) {
  volatile long local = k * 7;
  try {
    long r = invoked(k) + via_c(k);
    return r + local;
  } catch (int e) {
    return e + local;
  }
}

int main() {
  for (int I = 0; I < 16; ++I)
    g[I] = I * I;
  for (long k = 0; k < 5; ++k)
    std::printf("%ld %ld\n", k, catches(k));
  return 0;
}
