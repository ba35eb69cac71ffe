// Coroutines suspended by one cacs_yield entry are resumed by another: one
// program whose translation units call cacs_yield through every entry
//   NONE  cacs__yield_pn_none (-fpreserve-none-callee-saved=none: the
//         entry leaves the rbp word of the suspended frame unwritten),
//   UP    cacs__yield_pn (the same compiler without the setting),
//   BP    cacs__yield_pn_bp (CACS_YIELD_SAVE_BP=1),
//   GCC   the default-convention cacs_yield (gcc),
// plus the slow path in C (coro_swap, while a coroutine with its own FP
// environment lives) and cacs_exit's resume (workers end at different
// times). Every worker keeps locals in its frame across the yields: a VLA
// makes the frame-pointer (rbp) addressing of a volatile local, and a loop
// keeps several values in registers (rbp among them where the compiler may
// allocate it). The output, sums and counts of wrong values, is compared
// with the program built by stock clang -O0 (every unit on the default
// entries).
// REQUIRES: llvm-22, gcc
// RUN: rm -rf %t && mkdir -p %t
// RUN: for r in MAIN NONE UP BP GCC; do %stock_clang -O0 -I%cacs_include -DROLE_$r -c %s -o %t/ref-$r.o || exit 1; done
// RUN: %stock_clang %t/ref-*.o %cacs_rt_x86_64 -o %t/ref && %t/ref > %t/ref.out
// RUN: FileCheck %s < %t/ref.out
//
// RUN: %clang -O2 -I%cacs_include -DROLE_MAIN -c %s -o %t/MAIN.o
// RUN: %clang -O2 -I%cacs_include -DROLE_UP -c %s -o %t/UP.o
// RUN: %clang -O2 -I%cacs_include -DROLE_BP -DCACS_YIELD_SAVE_BP=1 -c %s -o %t/BP.o
// RUN: gcc -O2 -I%cacs_include -DROLE_GCC -c %s -o %t/GCC.o
// RUN: %clang -O2 -fpreserve-none-callee-saved=none -I%cacs_include -DROLE_NONE -c %s -o %t/NONE2.o
// RUN: llvm-objdump -dr %t/NONE2.o | FileCheck %s --check-prefix=ENTRY
// RUN: %clang %t/MAIN.o %t/UP.o %t/BP.o %t/GCC.o %t/NONE2.o %cacs_rt_x86_64 -o %t/mix2 && %t/mix2 | diff %t/ref.out -
// RUN: %clang -O0 -fpreserve-none-callee-saved=none -I%cacs_include -DROLE_NONE -c %s -o %t/NONE0.o
// RUN: %clang %t/MAIN.o %t/UP.o %t/BP.o %t/GCC.o %t/NONE0.o %cacs_rt_x86_64 -o %t/mix0 && %t/mix0 | diff %t/ref.out -
// RUN: %clang -O3 -fno-omit-frame-pointer -fauto-preserve-none -fpreserve-none-callee-saved=none -I%cacs_include -DROLE_NONE -c %s -o %t/NONE3.o
// RUN: %clang %t/MAIN.o %t/UP.o %t/BP.o %t/GCC.o %t/NONE3.o %cacs_rt_x86_64 -o %t/mix3 && %t/mix3 | diff %t/ref.out -
// With full LTO the link decides (and keeps yield_wrapped from jumping).
// RUN: %clang -O2 -flto -fpreserve-none-callee-saved=none -I%cacs_include -DROLE_NONE -c %s -o %t/NONElto.o
// RUN: %clang -O2 -flto -fpreserve-none-callee-saved=none %t/MAIN.o %t/UP.o %t/BP.o %t/GCC.o %t/NONElto.o %cacs_rt_x86_64 -o %t/mixlto && %t/mixlto | diff %t/ref.out -
// RUN: llvm-objdump -d %t/mixlto | FileCheck %s --check-prefix=LTO
//
// CHECK-COUNT-16: wrong=0
// CHECK: PASS
// ENTRY: R_X86_64_PLT32 cacs__yield_pn_none
// LTO-LABEL: <yield_wrapped>:
// LTO-NOT: jmp
// LTO: call{{.*}} <cacs__yield_pn_none>
//
// The test can fail: with the rbp store removed from cacs__yield_pn, or the
// rbp load from cacs__yield_pn_none, the UP, BP and GCC workers read their
// frames through another coroutine's rbp. (Letting yield_wrapped jump to
// cacs__yield_pn_none does not fail here: its prologue pushed rbp into the
// very word the entry leaves unwritten, so the resumer reloads the right
// value by chance; yield-none-entry.c pins that it calls.)

#include "cacs/coro.h"

#include <stdio.h>
#include <string.h>

#define ROUNDS 40

#define DEFINE_WORKERS(R)                                                      \
  __attribute__((noinline)) long frame_##R(int n, int tag) {                   \
    char buf[n];                                                               \
    volatile long mine = tag * 1000003L;                                       \
    long wrong = 0;                                                            \
    memset(buf, tag, (size_t)n);                                               \
    for (int k = 0; k < ROUNDS + tag; ++k) {                                   \
      if (k & 1)                                                               \
        YIELD_ALT();                                                           \
      else                                                                     \
        cacs_yield();                                                          \
      wrong += mine != tag * 1000003L;                                         \
      wrong += buf[k % n] != (char)tag;                                        \
    }                                                                          \
    return wrong;                                                              \
  }                                                                            \
  __attribute__((noinline)) long regs_##R(long tag, long *sum) {               \
    long a = tag, b = tag * 3, c = tag ^ 0x55, d = tag + 7, e = ~tag;          \
    for (long k = 0; k < ROUNDS + tag; ++k) {                                  \
      cacs_yield();                                                            \
      a += b;                                                                  \
      b ^= c + k;                                                              \
      c += d;                                                                  \
      d -= e;                                                                  \
      e += a >> 3;                                                             \
    }                                                                          \
    *sum = a ^ b ^ c ^ d ^ e;                                                  \
    return 0;                                                                  \
  }

#define DECLARE_WORKERS(R)                                                     \
  long frame_##R(int n, int tag);                                              \
  long regs_##R(long tag, long *sum);

// Exported from the NONE unit, so it keeps rbp for its callers although its
// call of cacs_yield() may clobber it: that call must not become a jump.
// The UP workers yield through it every other time.
#if defined(ROLE_NONE)
long wrapped;
CACS_PRESERVE_NONE void yield_wrapped(void) {
  ++wrapped;
  cacs_yield();
}
#elif defined(__clang__)
CACS_PRESERVE_NONE void yield_wrapped(void);
#endif
#if defined(ROLE_UP)
#define YIELD_ALT yield_wrapped
#else
#define YIELD_ALT cacs_yield
#endif

#if defined(ROLE_NONE)
DEFINE_WORKERS(NONE)
#elif defined(ROLE_UP)
DEFINE_WORKERS(UP)
#elif defined(ROLE_BP)
DEFINE_WORKERS(BP)
#elif defined(ROLE_GCC)
DEFINE_WORKERS(GCC)
#elif defined(ROLE_MAIN)
DECLARE_WORKERS(NONE)
DECLARE_WORKERS(UP)
DECLARE_WORKERS(BP)
DECLARE_WORKERS(GCC)

typedef long (*frame_fn)(int, int);
typedef long (*regs_fn)(long, long *);
static const struct {
  const char *name;
  frame_fn frame;
  regs_fn regs;
} roles[] = {{"none", frame_NONE, regs_NONE},
             {"up", frame_UP, regs_UP},
             {"bp", frame_BP, regs_BP},
             {"gcc", frame_GCC, regs_GCC}};
#define NROLES (sizeof roles / sizeof roles[0])

struct job {
  unsigned role, kind, tag;
  long wrong, sum;
};

static void run(void *arg) {
  struct job *j = arg;
  if (j->kind == 0)
    j->wrong = roles[j->role].frame(24 + (int)j->tag, (int)j->tag);
  else
    j->wrong = roles[j->role].regs(j->tag, &j->sum);
}

// Its own FP environment: every yield takes the slow path while it lives.
static void fpenv_user(void *arg) {
  (void)arg;
  for (int k = 0; k < 15; ++k)
    cacs_yield();
}

int main(void) {
  struct job jobs[2 * NROLES * 2 + 4];
  cacs_coro *c[sizeof jobs / sizeof jobs[0] + 1];
  unsigned n = 0;
  for (unsigned rep = 0; rep < 2; ++rep)
    for (unsigned r = 0; r < NROLES; ++r)
      for (unsigned kind = 0; kind < 2; ++kind) {
        jobs[n] = (struct job){r, kind, 1 + n * 5 % 23, 0, 0};
        c[n] = cacs_create(run, &jobs[n], 0);
        ++n;
        if (n == 5) {
          cacs_coro_attr attr = {0, 0, CACS_CORO_SAVE_FPENV, "fpenv"};
          c[n] = cacs_create_ex(fpenv_user, NULL, &attr);
          jobs[n++] = (struct job){0, 2, 0, 0, 0};
        }
      }
  int bad = 0;
  for (unsigned i = 0; i < n; ++i)
    cacs_join(c[i]);
  for (unsigned i = 0; i < n; ++i) {
    if (jobs[i].kind == 2)
      continue;
    printf("%s %s tag=%u sum=%ld wrong=%ld\n", roles[jobs[i].role].name,
           jobs[i].kind ? "regs" : "frame", jobs[i].tag, jobs[i].sum,
           jobs[i].wrong);
    bad |= jobs[i].wrong != 0;
  }
  puts(bad ? "FAIL" : "PASS");
  return 0;
}
#endif
