// CET IBT / AArch64 BTI: resume labels and the start trampoline carry
// landing pads (endbr64 / bti j) and the tail switch is disabled (return
// sites have no landing pad). Enforcement cannot be exercised here (the
// distribution's crt objects are not BTI/IBT-marked), so this checks the
// generated code and that everything still runs with the flags on.
//
// RUN: %clang -O2 -fcf-protection=full -I%cacs_include -E -dM %s | FileCheck %s --check-prefix=MACRO
// RUN: %clang -O2 -fcf-protection=full -I%cacs_include -S -o - %s | FileCheck %s --check-prefix=X86
// RUN: %clang -fcf-protection=full -E %cacs_src_root/runtime/lib/trampoline_x86_64.S | FileCheck %s --check-prefix=TRAMP
// RUN: %clang -O2 -fcf-protection=full -I%cacs_include %s $(%cacs_rt_objs %clang -O2 -fcf-protection=full -I%cacs_include) -o %t && %t | FileCheck %s
// RUN: %clang -O2 -I%cacs_include -E -dM %s | FileCheck %s --check-prefix=NOPAD
//
// MACRO: #define CACS_HAS_TAIL_SWITCH 0
// NOPAD: #define CACS_HAS_TAIL_SWITCH 1
// TRAMP: cacs__trampoline:
// TRAMP-NEXT: .cfi_startproc
// TRAMP-NEXT: .cfi_undefined %rip
// TRAMP-NEXT: endbr64
// X86-LABEL: sum:
// X86: jmpq *8(%rsi)
// X86-NEXT: .Ltmp{{[0-9]+}}:
// X86-NEXT: endbr64
//
// CHECK: sum 5050
// CHECK: yields 300

#include "cacs/coro.h"
#include "cacs/generator.h"

#include <stdio.h>

static void count(cacs_gen *g, void *arg) {
  (void)arg;
  for (uint64_t i = 1; i <= 100; ++i)
    cacs_gen_yield(g, i);
}

uint64_t sum(void) {
  cacs_gen *g = cacs_gen_create(count, NULL, 0);
  uint64_t v, s = 0;
  while (cacs_gen_next(g, &v))
    s += v;
  cacs_gen_destroy(g);
  return s;
}

static int yields;
static void worker(void *arg) {
  (void)arg;
  for (int i = 0; i < 100; ++i, ++yields)
    cacs_yield();
}

int main(void) {
  printf("sum %llu\n", (unsigned long long)sum());
  cacs_coro *c[3];
  for (int i = 0; i < 3; ++i)
    c[i] = cacs_create(worker, NULL, 0);
  for (int i = 0; i < 3; ++i)
    cacs_join(c[i]);
  printf("yields %d\n", yields);
  return 0;
}
