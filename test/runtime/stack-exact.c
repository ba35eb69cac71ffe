// Exact stacks (docs/runtime.md): a coroutine whose entry has a bound
// proven at the link (-fcacs-stack-bounds) runs on a stack of that bound
// plus libcacs's start frame, with no guard page, packed with its
// neighbours in a slab; each way of breaking the bound leaves its entry on
// a guarded stack; the opt-outs (CACS_STACK_NOBOUND, CACS_STACK_BOUNDS=0)
// and the signal policy (a handler without SA_ONSTACK) give guarded ones.
// 2000 exact stacks filled by their entries leave their neighbours' control
// blocks (the names at their tops) intact. x86-64, and AArch64 under qemu.
//
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -fcacs-stack-bounds -I%cacs_include %s %cacs_rt_x86_64 -lpthread -o %t/p
// RUN: %t/p all | FileCheck %s --check-prefix=ALL
// RUN: %t/p nobound | FileCheck %s --check-prefix=GUARDED
// RUN: env CACS_STACK_BOUNDS=0 %t/p one | FileCheck %s --check-prefix=GUARDED
// RUN: %t/p handler | FileCheck %s --check-prefix=GUARDED
// RUN: %t/p handler-onstack | FileCheck %s --check-prefix=EXACT
// RUN: %if qemu-aarch64 %{ \
// RUN:   %clang %aarch64_flags -O2 -fcacs-stack-bounds -I%cacs_include %s %cacs_rt_aarch64 -lpthread -o %t/a64 && \
// RUN:   %run_aarch64 %t/a64 all | FileCheck %s --check-prefix=ALL && \
// RUN:   %run_aarch64 %t/a64 nobound | FileCheck %s --check-prefix=GUARDED && \
// RUN:   %run_aarch64 %t/a64 handler | FileCheck %s --check-prefix=GUARDED %}
//
// Breaking it: without the start frame in the size, the frame lands on the
// coroutine's own block (a crash); without the opt-out or the signal check,
// `nobound` and `handler` get exact stacks; with a bound for every entry,
// the breakers do; with cacs_exit run on the exact stack instead of the
// exit stack, AArch64's `tiny` writes into its neighbours' names (x86-64's
// bound includes the 128-byte red zone, which cacs_exit fits in today).

// The stack is the bound rounded up to 8 bytes (at least 16) and the
// start frame's 32 bytes; the control block is the rest of the slot.
// ALL: deep: exact, bound + {{3[2-9]|4[0-7]}}, no guard, used within the bound, query agrees, ran on it: yes
// ALL-NEXT: tiny: exact, bound + {{3[2-9]|4[0-7]}}, no guard, used within the bound, query agrees, ran on it: yes
// ALL-NEXT: recursion: guarded, query agrees, ran on it: yes
// ALL-NEXT: function_pointer: guarded, query agrees, ran on it: yes
// ALL-NEXT: vla: guarded, query agrees, ran on it: yes
// ALL-NEXT: external: guarded, query agrees, ran on it: yes
// ALL-NEXT: callback: guarded, query agrees, ran on it: yes
// ALL-NEXT: 2000 deep: no guard 2000, adjacent 1999, mappings +{{[0-3]}}, names intact 2000, results right 2000, joined 2000
// ALL-NEXT: 2000 tiny: no guard 2000, adjacent 1999, mappings +{{[0-3]}}, names intact 2000, results right 2000, joined 2000
// ALL-NEXT: PASS
//
// GUARDED: deep: guarded, query agrees, ran on it: yes
// GUARDED-NEXT: PASS
// EXACT: deep: exact, bound + {{3[2-9]|4[0-7]}}, no guard, used within the bound, query agrees, ran on it: yes
// EXACT-NEXT: PASS

#include "cacs/coro.h"
#include "cacs/stack.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

// In libcacs (hidden, linked statically): the stack a coroutine runs on.
const cacs_stack *cacs__coro_stack(const cacs_coro *c);

struct bound {
  const void *entry;
  uint64_t bytes;
};
extern const struct bound __start_cacs_stack_bounds[] __attribute__((weak)),
    __stop_cacs_stack_bounds[] __attribute__((weak));

static uint64_t bound_of(const void *f) {
  for (const struct bound *b = __start_cacs_stack_bounds;
       b && b < __stop_cacs_stack_bounds; ++b)
    if (b->entry == f)
      return b->bytes;
  return UINT64_MAX;
}

typedef struct job {
  int in;
  long out;
  char *where; // a local of the entry: the stack it ran on
} job;

static volatile long finished;

// A bounded call tree three calls deep, each frame written whole.
__attribute__((noinline)) static long leaf(job *j) {
  volatile char buf[600];
  for (int i = 0; i < 600; ++i)
    buf[i] = (char)(i + j->in);
  long s = 0;
  for (int i = 0; i < 600; ++i)
    s += buf[i];
  return s;
}
__attribute__((noinline)) static long parse(job *j) {
  volatile char buf[400];
  for (int i = 0; i < 400; ++i)
    buf[i] = (char)(i ^ j->in);
  return leaf(j) + buf[j->in % 400];
}
static void deep(void *p) {
  job *j = p;
  volatile char buf[200];
  for (int i = 0; i < 200; ++i)
    buf[i] = (char)i;
  j->where = (char *)buf;
  j->out = parse(j) + buf[j->in % 200];
  finished = finished + 1;
}

// A leaf: its stack is little more than the start frame, so what libcacs
// ran on it besides the entry would reach the block below.
static void tiny(void *p) {
  job *j = p;
  volatile char here = 0;
  j->where = (char *)&here;
  j->out = j->in * 3;
  finished = finished + 1;
}

// Each way to break a bound.
__attribute__((noinline)) static int fib(int n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
static void recursion(void *p) {
  job *j = p;
  volatile char here = 0;
  j->where = (char *)&here;
  j->out = fib(j->in % 16);
}

static long (*volatile pointer)(job *) = leaf;
static void function_pointer(void *p) {
  job *j = p;
  volatile char here = 0;
  j->where = (char *)&here;
  j->out = pointer(j);
}

static void vla(void *p) {
  job *j = p;
  volatile char a[j->in + 1];
  a[j->in] = 3;
  j->where = (char *)a;
  j->out = a[j->in];
}

static void external(void *p) {
  job *j = p;
  char b[32];
  j->where = b;
  j->out = snprintf(b, sizeof b, "%d", j->in);
}

__attribute__((noinline)) static void apply(void (*f)(job *), job *j) {
  f(j);
}
static void twice(job *j) { j->out = 2 * j->in; }
static void (*volatile twice_cb)(job *) = twice;
static void callback(void *p) {
  job *j = p;
  volatile char here = 0;
  j->where = (char *)&here;
  apply(twice_cb, j);
}

// Create one coroutine of `f`, run it, and say on what stack.
static int report(const char *name, cacs_entry_fn f, const cacs_coro_attr *a,
                  long want) {
  job j = {7, 0, NULL};
  size_t asked = 0;
  int exact = cacs_stack_exact(f, &asked);
  // CACS_STACK_EAGER: a guarded stack is there before the first run, to be
  // read below (else it may be bound at the first run, coro.c).
  cacs_coro_attr eager = *a;
  eager.stack_flags |= CACS_STACK_EAGER;
  cacs_coro *c = cacs_create_ex(f, &j, &eager);
  if (!c) {
    printf("%s: create failed\n", name);
    return 1;
  }
  const cacs_stack *s = cacs__coro_stack(c);
  char *lo = s->lo, *top = s->top;
  size_t guard = (size_t)(lo - (char *)s->map);
  size_t usable = (size_t)(top - lo);
  // An exact stack below the start frame and the resume frame is free
  // until the coroutine runs: fill it, and see after the run (the join
  // wakes main from cacs_exit) how deep below the start frame it was used.
  // Not its lowest 16 bytes: once freed, a slot's first word links it into
  // its slab's free list.
  char *start = top - 32;
  int fill = !guard && start - 16 > lo + 16;
  if (fill)
    memset(lo + 16, 0xa5, (size_t)(start - 16 - (lo + 16)));
  cacs_join(c);
  char *low = fill ? lo + 16 : start - 16;
  while (fill && low < start - 16 && *low == (char)0xa5)
    ++low;
  size_t used = (size_t)(start - low);
  int ran = j.out == want && j.where >= lo && j.where < top;
  if (!guard && (s->flags & CACS_STACK_NOGUARD))
    printf("%s: exact, bound + %llu, no guard, used %s, query %s, ran on it: "
           "%s\n",
           name, (unsigned long long)(usable - bound_of((const void *)f)),
           used <= bound_of((const void *)f) || used <= 16 ? "within the bound"
                                                           : "past the bound",
           exact && !(a->stack_flags & CACS_STACK_NOBOUND) && asked == usable
               ? "agrees"
               : "differs",
           ran ? "yes" : "no");
  else
    printf("%s: %s, query %s, ran on it: %s\n", name,
           guard == (size_t)sysconf(_SC_PAGESIZE) ? "guarded" : "no guard?",
           !exact || (a->stack_flags & CACS_STACK_NOBOUND) ? "agrees"
                                                            : "differs",
           ran ? "yes" : "no");
  return !ran;
}

static int mappings(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  int n = 0, ch;
  while (f && (ch = fgetc(f)) != EOF)
    n += ch == '\n';
  if (f)
    fclose(f);
  return n;
}

enum { N = 2000 };
static cacs_coro *cs[N];
static job jobs[N];
static char names[N][40];

// Many at once: all created, all run to the end before any is joined,
// each filling its frames; then every neighbour's block is checked.
static int many(const char *what, cacs_entry_fn f, long want) {
  int before = mappings();
  int noguard = 0, adjacent = 0, intact = 0, right = 0, joined = 0;
  char *prev = NULL;
  for (int i = 0; i < N; ++i) {
    // 39 characters: the name fills its block's top bytes, the ones a
    // stack overflowing from the slot above would write first.
    snprintf(names[i], sizeof names[i], "n%038d", i);
    cacs_coro_attr a = {0, CACS_STACK_EAGER, 0, names[i]}; // (see report)
    jobs[i] = (job){7, 0, NULL};
    if (!(cs[i] = cacs_create_ex(f, &jobs[i], &a)))
      return printf("create %d failed\n", i), 1;
    const cacs_stack *s = cacs__coro_stack(cs[i]);
    noguard += s->lo == s->map && (s->flags & CACS_STACK_NOGUARD);
    adjacent += prev && (char *)s->map == prev + s->map_size;
    prev = s->map;
  }
  int grew = mappings() - before;
  finished = 0;
  for (int r = 0; r < 10 && finished < N; ++r)
    cacs_yield();
  for (int i = 0; i < N; ++i) {
    intact += !strcmp(cacs_name(cs[i]), names[i]);
    right += jobs[i].out == want;
  }
  for (int i = 0; i < N; ++i)
    joined += cacs_join(cs[i]) == 0;
  printf("%d %s: no guard %d, adjacent %d, mappings +%d, names intact %d, "
         "results right %d, joined %d\n",
         N, what, noguard, adjacent, grew, intact, right, joined);
  return intact != N || right != N || joined != N;
}

static void on_usr1(int sig) { (void)sig; }

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "all";
  if (!strncmp(mode, "handler", 7)) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = strcmp(mode, "handler") ? SA_ONSTACK : 0;
    sigaction(SIGUSR1, &sa, NULL);
  }
  job ref = {7, 0, NULL};
  deep(&ref);
  cacs_coro_attr a = {0, !strcmp(mode, "nobound") ? CACS_STACK_NOBOUND : 0u,
                      0, NULL};
  int bad = report("deep", deep, &a, ref.out);
  if (!strcmp(mode, "all"))
    bad |= report("tiny", tiny, &a, 21);
  if (!strcmp(mode, "all")) {
    cacs_coro_attr d = {0, 0, 0, NULL};
    bad |= report("recursion", recursion, &d, fib(7));
    job r = {7, 0, NULL};
    bad |= report("function_pointer", function_pointer, &d, leaf(&r));
    bad |= report("vla", vla, &d, 3);
    bad |= report("external", external, &d, 1);
    bad |= report("callback", callback, &d, 14);
    bad |= many("deep", deep, ref.out);
    bad |= many("tiny", tiny, 21);
  }
  puts(bad ? "FAIL" : "PASS");
  return bad;
}
