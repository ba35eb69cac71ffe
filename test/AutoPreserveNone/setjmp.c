// setjmp/longjmp across infected functions: a longjmp from two infected
// levels down lands in a C function that called setjmp, and in an infected
// function that called setjmp itself; the values they keep (volatile ones
// modified after setjmp, and ones not modified) survive, at -O0 to -O3, with
// and without -fauto-preserve-none.
//
// RUN: %clang -O2 -fauto-preserve-none -Rpass=auto-preserve-none -c %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: made 'jumper' preserve_none
// REMARK-DAG: remark: made 'middle' preserve_none
// REMARK-DAG: remark: made 'setjmp_inside' preserve_none
//
// RUN: %clang -O0 %s -o %t.off0 && %t.off0 | FileCheck %s
// RUN: %clang -O2 %s -o %t.off2 && %t.off2 | FileCheck %s
// RUN: %clang -O0 -fauto-preserve-none %s -o %t.on0 && %t.on0 | FileCheck %s
// RUN: %clang -O1 -fauto-preserve-none %s -o %t.on1 && %t.on1 | FileCheck %s
// RUN: %clang -O2 -fauto-preserve-none %s -o %t.on2 && %t.on2 | FileCheck %s
// RUN: %clang -O3 -fauto-preserve-none %s -o %t.on3 && %t.on3 | FileCheck %s
// CHECK:      outer: returned 1 kept 1111 2222 3 counted 2
// CHECK-NEXT: outer: no jump 32
// CHECK-NEXT: inside: returned 5 kept 500 77 counted 2
// CHECK-NEXT: done

#include <setjmp.h>
#include <stdio.h>

#define APN_DEFINE_SWITCH
#include "Inputs/clobber.h"

#define NOINLINE __attribute__((noinline))

static jmp_buf Env;

static NOINLINE long jumper(long a, long jump) {
  long b = a * 3;
  apn_switch(a);
  if (jump)
    longjmp(Env, (int)jump);
  apn_switch(b);
  return a + b;
}

static NOINLINE long middle(long a, long jump) {
  long k = a + 7;
  long r = jumper(a, jump);
  apn_switch(r);
  return r + k;
}

/// An infected function that calls setjmp itself.
static NOINLINE long setjmp_inside(long a) {
  long kept = a * 100;
  volatile long counted = 0;
  int rc = setjmp(Env);
  ++counted;
  if (rc == 0) {
    apn_switch(a);
    middle(a, 5);
  }
  printf("inside: returned %d kept %ld %ld counted %ld\n", rc, kept, a + 72,
         counted);
  return kept;
}

volatile long input = 5;

/// A C function (external) that calls setjmp.
NOINLINE void outer(long jump) {
  long kept1 = 1111, kept2 = input * 444 + 2;
  volatile long counted = 0;
  int rc = setjmp(Env);
  ++counted;
  if (rc == 0) {
    long r = middle(input - 2, jump);
    printf("outer: no jump %ld\n", r + 10);
    return;
  }
  printf("outer: returned %d kept %ld %ld %ld counted %ld\n", rc, kept1,
         kept2, input - 2, counted);
}

int main(void) {
  outer(1);
  outer(0);
  setjmp_inside(input);
  printf("done\n");
  return 0;
}
