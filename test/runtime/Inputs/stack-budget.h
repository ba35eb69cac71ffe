//===- Inputs/stack-budget.h - Measure a call's stack below the caller -===//
//
// Shared by test/runtime/stack-budget.c and test/pool/pool-stack-budget*.c:
// MEASURE(what, budget, once, call) prints "<what>: within the budget" or
// "<what>: OVER the budget (...)" (and sets `budget_bad`) for the bytes
// `call` used below the caller's stack pointer (also in `budget_last`); the
// numbers go to stderr.
// With STACK_BUDGET_WORDS=1 in the environment it also prints, to stderr,
// each word of that area that points into the program's code, as
// "word <what> <offset below sp> <address - load base>", for addr2line -f
// -e <program>: which frames a call left there (a diagnostic; the tests
// do not read it).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_TEST_STACK_BUDGET_H
#define CACS_TEST_STACK_BUDGET_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
// The bytes the last MEASURE found (a test compares two paths).
static size_t budget_last;

// A test's own check of what a measured call returned (0: as expected),
// apart from its budget: "line N: failed" on stderr, and the test fails.
__attribute__((unused)) static void budget_check_at(int r, int line) {
  if (r != 0) {
    fprintf(stderr, "line %d: failed\n", line);
    budget_bad = 1;
  }
}
#define budget_check(r) budget_check_at((r), __LINE__)

static void report(const char *what, size_t used, size_t budget) {
  budget_last = used;
  fprintf(stderr, "%s: used %zu, budget %zu\n", what, used, budget);
  if (used > budget) {
    printf("%s: OVER the budget (%zu > %zu)\n", what, used, budget);
    budget_bad = 1;
  } else {
    printf("%s: within the budget\n", what);
  }
}

// STACK_BUDGET_WORDS: copied (without a call, which would overwrite it)
// right after the measure, then printed.
static int budget_words_on;
static uintptr_t budget_words[FILL / 8];
__attribute__((constructor)) static void budget_words_init(void) {
  budget_words_on = getenv("STACK_BUDGET_WORDS") != NULL;
}

// The copied words (n, the first `n` bytes below sp, top down) that point
// into the program's own code (the linker's symbols: from the image's start
// to the end of its text; for a PIE the start is the load base).
extern char __executable_start[], etext[];
static void dump_words(const char *what, size_t n) {
  uintptr_t lo = (uintptr_t)__executable_start, hi = (uintptr_t)etext;
  for (size_t i = 0; i < n / 8; ++i) {
    uintptr_t w = budget_words[i];
    if (w > lo && w < hi)
      fprintf(stderr, "word %s %zu 0x%zx\n", what, 8 * (i + 1),
              (size_t)(w - lo));
  }
}

// The bytes `call` used below the stack pointer of the function that
// makes it (the call's own stack pointer there: the function that expands
// MEASURE must make the call itself, not through a shield of the safety
// pass, whose frame would count too; the tests build with
// -mllvm -cacs-cold-call-shield=false), seen after it returned as
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
      if (budget_words_on) {                                                   \
        size_t n_ = (size_t)(sp_ - low_) & ~(size_t)7;                         \
        for (size_t i_ = 0; i_ < n_ / 8; ++i_)                                 \
          budget_words[i_] = ((volatile uintptr_t *)sp_)[-1 - (long)i_];       \
        dump_words(what, n_);                                                  \
      }                                                                        \
    }                                                                          \
    report(what, most_, budget);                                               \
  } while (0)

#endif // CACS_TEST_STACK_BUDGET_H
