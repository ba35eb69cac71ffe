// The cost of a call from inside a coroutine (issue 34, part 4): a plain
// C call, the same call moved to the thread's system stack
// (CACS_ON_SYSTEM_STACK), and the same call under -fsplit-stack, libseff's
// way (this file built with -DCALL_SPLIT -fsplit-stack: run.sh build).
// Three callees, each a non-inlined function with a frame of its own:
//
//   small     a few instructions (split stacks check its frame: a leaf
//             that needs no frame would get no check)
//   snprintf  formats a number with the C library's snprintf, the case
//             the system stack is for (a stack use nobody can bound)
//   qsort     sorts six numbers with the C library's qsort, which calls
//             back into this file's comparison
//
//   call MODE N [ROUNDS]   MODE: plain-CALLEE | sys-CALLEE (this build),
//                          split-CALLEE (the -fsplit-stack build)
//
// One coroutine makes ROUNDS (1) passes of N calls, CALLEE(0) to
// CALLEE(N-1), summing the results. Prints one line: the mode, N, whether
// the coroutine ran on an exact stack (-fcacs-stack-bounds: a plain call of
// the C library leaves its entry without a bound, the same call on the
// system stack does not) and its size, the process's CPU time per call
// (the coroutine's creation and join included, amortized over the calls),
// and ok=N*ROUNDS when the sum equals that of the same N calls made on
// main's stack before any coroutine (ok=0 otherwise, exit status 1).
// Instructions per call: callgrind's total at ROUNDS 2 minus ROUNDS 1,
// over N (bench/cacs_bench/suite/stackbound_call.py).

#include "cacs/coro.h"
#include "cacs/stack.h"
#include "cacs/sysstack.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shape.h"

// Its four words live in memory (indexed by the argument): a frame.
__attribute__((noinline)) static uint32_t small(uint32_t x) {
  volatile uint32_t t[4] = {x, x * 3u, x ^ 0x55u, x + 7u};
  return t[x & 3] * 2654435761u;
}

__attribute__((noinline)) static uint32_t fmt(uint32_t x) {
  char buf[24];
  int n = snprintf(buf, sizeof buf, "%u", x);
  return (uint32_t)n * 31u + (uint8_t)buf[n - 1];
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

__attribute__((noinline)) static uint32_t sort6(uint32_t x) {
  uint32_t v[6];
  for (uint32_t i = 0; i < 6; ++i)
    v[i] = (x + i * 40503u) * 2654435761u;
  qsort(v, 6, sizeof *v, cmp_u32);
  return v[0] ^ (v[2] << 1) ^ (v[5] << 2);
}

typedef struct job {
  uint32_t n, rounds, sum;
} job;

// A call on the system stack takes fn(void *): the callee's argument and
// result pass through this.
typedef struct one {
  uint32_t in, out;
} one;

// The coroutine entries of one callee: plain calls (split calls in the
// -fsplit-stack build) and, in the other build, the same calls on the
// system stack through the function the macro's C form takes.
#define PLAIN_WAY(callee)                                                      \
  static void plain_##callee(void *p) {                                        \
    job *j = p;                                                                \
    uint32_t s = 0;                                                            \
    for (uint32_t r = 0; r < j->rounds; ++r)                                   \
      for (uint32_t i = 0; i < j->n; ++i)                                      \
        s += callee(i);                                                        \
    j->sum = s;                                                                \
  }
#define SYS_WAY(callee)                                                        \
  static void on_sys_##callee(void *p) {                                       \
    one *o = p;                                                                \
    o->out = callee(o->in);                                                    \
  }                                                                            \
  static void sys_##callee(void *p) {                                          \
    job *j = p;                                                                \
    uint32_t s = 0;                                                            \
    for (uint32_t r = 0; r < j->rounds; ++r)                                   \
      for (uint32_t i = 0; i < j->n; ++i) {                                    \
        one o = {i, 0};                                                        \
        CACS_ON_SYSTEM_STACK(on_sys_##callee, &o);                             \
        s += o.out;                                                            \
      }                                                                        \
    j->sum = s;                                                                \
  }

PLAIN_WAY(small)
PLAIN_WAY(fmt)
PLAIN_WAY(sort6)

typedef struct mode {
  const char *name;
  void (*entry)(void *);
  uint32_t (*direct)(uint32_t);
} mode;

#ifdef CALL_SPLIT
// Split stacks cannot run on the system stack: its split-stack limit is
// the coroutine's (libcacs moves it only at switches).
static const mode modes[] = {{"split-small", plain_small, small},
                             {"split-snprintf", plain_fmt, fmt},
                             {"split-qsort", plain_sort6, sort6}};
#else
SYS_WAY(small)
SYS_WAY(fmt)
SYS_WAY(sort6)
static const mode modes[] = {
    {"plain-small", plain_small, small}, {"sys-small", sys_small, small},
    {"plain-snprintf", plain_fmt, fmt},  {"sys-snprintf", sys_fmt, fmt},
    {"plain-qsort", plain_sort6, sort6}, {"sys-qsort", sys_sort6, sort6}};
#endif

int main(int argc, char **argv) {
  const mode *m = NULL;
  for (size_t k = 0; argc > 1 && k < sizeof modes / sizeof *modes; ++k)
    if (!strcmp(argv[1], modes[k].name))
      m = &modes[k];
  if (!m) {
    fprintf(stderr, "usage: call MODE N [ROUNDS]; MODE:");
    for (size_t k = 0; k < sizeof modes / sizeof *modes; ++k)
      fprintf(stderr, " %s", modes[k].name);
    fprintf(stderr, "\n");
    return 2;
  }
  job j = {argc > 2 ? (uint32_t)atol(argv[2]) : 1000000u,
           argc > 3 ? (uint32_t)atol(argv[3]) : 1u, 0};
  if (!j.n || !j.rounds)
    return fprintf(stderr, "call: N and ROUNDS must be positive\n"), 2;
  // The answer, from the same calls on main's stack (they also warm the
  // caches and the callee's code up).
  uint32_t want = 0;
  for (uint32_t i = 0; i < j.n; ++i)
    want += m->direct(i);
  size_t bytes = 0;
  int exact = cacs_stack_exact(m->entry, &bytes);
  cacs_yield(); // the scheduler exists
  double t0 = now();
  cacs_coro *c = cacs_create(m->entry, &j, 0);
  if (!c)
    return fprintf(stderr, "call: cacs_create failed\n"), 1;
  cacs_join(c);
  double t1 = now();
  double calls = (double)j.n * (double)j.rounds;
  int ok = j.sum == want * j.rounds;
  printf("mode=%s n=%u exact=%d stack=%zu call_ns=%.3f ok=%.0f\n", m->name, j.n,
         exact, bytes, (t1 - t0) * 1e9 / calls, ok ? calls : 0.0);
  return !ok;
}
