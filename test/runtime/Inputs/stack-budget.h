//===- Inputs/stack-budget.h - Measure a call's stack below the caller -===//
//
// Shared by test/runtime/stack-budget.c and test/pool/pool-stack-budget.c:
// MEASURE(what, budget, once, call) prints "<what>: within the budget" or
// "<what>: OVER the budget (...)" (and sets `budget_bad`) for the bytes
// `call` used below the caller's stack pointer; the numbers go to stderr.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_TEST_STACK_BUDGET_H
#define CACS_TEST_STACK_BUDGET_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define FILL 16384

// Fills its frame, which lies right below its caller's stack pointer.
__attribute__((noinline)) static void fill(int v) {
  char buf[FILL];
  memset(buf, v, sizeof buf);
  __asm__ volatile("" : : "r"(buf) : "memory");
}

#if defined(__x86_64__)
#define READ_SP(p) __asm__ volatile("mov %%rsp, %0" : "=r"(p))
#else
#define READ_SP(p) __asm__ volatile("mov %0, sp" : "=r"(p))
#endif

static int budget_bad;

static void report(const char *what, size_t used, size_t budget) {
  fprintf(stderr, "%s: used %zu, budget %zu\n", what, used, budget);
  if (used > budget) {
    printf("%s: OVER the budget (%zu > %zu)\n", what, used, budget);
    budget_bad = 1;
  } else {
    printf("%s: within the budget\n", what);
  }
}

// The bytes `call` used below the stack pointer of the function that
// makes it (the call's own stack pointer there), seen after it returned as
// the lowest byte that lost its fill. Two fills where the call can be
// repeated (ONCE 0): a byte written with the fill's value would hide.
#define MEASURE(what, budget, once, call)                                      \
  do {                                                                         \
    size_t most_ = 0;                                                          \
    for (int v_ = 0xa5; v_ <= 0xa5 + 0x5a * !(once); v_ += 0x5a) {             \
      volatile char *sp_;                                                      \
      fill(v_);                                                                \
      READ_SP(sp_);                                                            \
      call;                                                                    \
      volatile char *low_ = sp_ - FILL + 256;                                  \
      while (low_ < sp_ && *low_ == (char)v_)                                  \
        ++low_;                                                                \
      if ((size_t)(sp_ - low_) > most_)                                        \
        most_ = (size_t)(sp_ - low_);                                          \
    }                                                                          \
    report(what, most_, budget);                                               \
  } while (0)

#endif // CACS_TEST_STACK_BUDGET_H
