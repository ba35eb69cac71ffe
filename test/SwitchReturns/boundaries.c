// Functions that return through the thunk are called from code built
// without cacs (stock clang, gcc) and call back into it; the program
// computes what stock clang -O0 computes. Linked into a shared object, each
// object uses its own hidden copy of the thunk, jumped to directly (no PLT).
// A program that defines __x86_return_thunk itself keeps its definition:
// the cacs functions then return through it.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %stock_clang -O0 -I%cacs_include %s %S/Inputs/plain-caller.c %cacs_rt_x86_64 -o %t/ref
// RUN: %t/ref > %t/want
// RUN: FileCheck %s < %t/want
// RUN: %stock_clang -O2 -c %S/Inputs/plain-caller.c -o %t/plain.o
// RUN: %clang -O2 -I%cacs_include %s %t/plain.o %cacs_rt_x86_64 -o %t/prog
// RUN: %t/prog | diff %t/want -
// RUN: %if gcc %{ gcc -O2 -c %S/Inputs/plain-caller.c -o %t/plain-gcc.o %}
// RUN: %if gcc %{ %clang -O2 -I%cacs_include %s %t/plain-gcc.o %cacs_rt_x86_64 -o %t/prog-gcc %}
// RUN: %if gcc %{ %t/prog-gcc | diff %t/want - %}
//
// In a shared object: a hidden local symbol, a direct jump.
// RUN: %clang -O2 -fPIC -shared -DCACS_IN_DSO -I%cacs_include %s -o %t/libserve.so
// RUN: llvm-objdump -d --no-show-raw-insn %t/libserve.so | FileCheck %s --check-prefix=DSO
// RUN: llvm-nm %t/libserve.so | FileCheck %s --check-prefix=DSO-SYM
// DSO-LABEL: <served_by_cacs>:
// DSO:         jmp {{.*}} <__x86_return_thunk>
// DSO-SYM: t __x86_return_thunk
//
// The program's own thunk wins, and is used.
// RUN: %clang -O2 -DOWN_THUNK -I%cacs_include %s %t/plain.o %S/Inputs/own-thunk.s %cacs_rt_x86_64 -o %t/own
// RUN: %t/own | FileCheck %s --check-prefix=OWN
//
// CHECK: plain loop 
// CHECK: total
// OWN: own thunk used
// OWN: total

#include "cacs/coro.h"

#include <stdio.h>

unsigned long plain_callback(unsigned long n);
unsigned long plain_loop(unsigned long rounds);

static volatile unsigned long shared;

// Called by plain_loop (no cacs): waits, calls back, returns.
__attribute__((noinline)) unsigned long served_by_cacs(unsigned long n) {
  shared += n;
  cacs_yield();
  return plain_callback(shared & 0xffff) + 1;
}

#ifndef CACS_IN_DSO
static unsigned long other_result;
static void other(void *arg) {
  (void)arg;
  other_result = plain_loop(500);
}

#ifdef OWN_THUNK
extern unsigned long own_thunk_uses;
#endif

int main(void) {
  cacs_coro *c = cacs_create(other, NULL, 0);
  unsigned long mine = plain_loop(700);
  cacs_join(c);
  printf("plain loop %lu %lu\n", mine, other_result);
#ifdef OWN_THUNK
  if (own_thunk_uses >= 1200)
    printf("own thunk used\n");
#endif
  printf("total %lu\n", mine ^ other_result);
  return 0;
}
#endif
