// A function infected by APN (-fauto-preserve-none) with high register
// pressure: with -fpreserve-none-callee-saved=none it allocates rbp
// without saving it; with upstream's list its prologue pushes rbp.
// REQUIRES: llvm-22
// RUN: %clang -O2 -S -fno-asynchronous-unwind-tables -fauto-preserve-none -fpreserve-none-callee-saved=none -mllvm -verify-machineinstrs %s -o - | FileCheck %s --check-prefix=NONE
// RUN: %clang -O2 -S -fno-asynchronous-unwind-tables -fauto-preserve-none -mllvm -verify-machineinstrs %s -o - | FileCheck %s --check-prefix=UPSTREAM
//
// NONE-LABEL:  parse:
// NONE-NEXT:   # %bb.0:
// NONE-NOT:    push
// NONE:        %rbp
// NONE:        jmp co_switch@PLT
// UPSTREAM-LABEL: parse:
// UPSTREAM-NEXT:  # %bb.0:
// UPSTREAM-NEXT:  pushq %rbp
// UPSTREAM:       popq %rbp
// UPSTREAM-NEXT:  jmp co_switch@PLT

__attribute__((preserve_none)) void co_switch(long);
volatile long g[16];

__attribute__((noinline)) static void parse(long k) {
  long v[15];
  for (int I = 0; I < 15; ++I)
    v[I] = g[I] + k;
  for (int I = 0; I < 15; ++I)
    g[I] = v[I] * 3;
  long s = 0;
  for (int I = 0; I < 15; ++I)
    s += v[I] ^ I;
  co_switch(s);
}

void serve(long k) { parse(k); }
