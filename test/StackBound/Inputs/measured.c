#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

struct bound {
  void (*entry)(void *);
  uint64_t bytes;
};
extern const struct bound __start_cacs_stack_bounds[]
    __attribute__((weak)), __stop_cacs_stack_bounds[] __attribute__((weak));

static volatile int sink;

// A leaf whose locals lie in the red zone on x86-64.
__attribute__((noinline)) static int leaf(int x) {
  volatile char buf[120];
  buf[x] = 1;
  return buf[x / 2];
}
__attribute__((noinline)) static int frame(int x) {
  volatile char buf[1000];
  buf[x] = 2;
  return leaf(x) + buf[3];
}
__attribute__((noinline)) static long many(long a, long b, long c, long d,
                                           long e, long f, long g, long h,
                                           long i, long j) {
  volatile long v[8] = {a, b, c, d, e, f, g, h};
  return v[a & 7] + i + j + leaf((int)a);
}
// A frame the backend shrink-wraps: its saves of callee-saved registers
// (x86-64's pushes, AArch64's pre-indexed pair) come after an early exit,
// past its first instruction. Its leaf writes only its return address
// (x86-64) or nothing (AArch64), so the deepest byte written is that
// return address or the lowest save, and the bound may exceed it by the
// leaf's red zone alone (x86-64 128, AArch64 0): a save counted twice
// shows as a margin above that (cacs-stack-bounds.cpp's deepest()).
static volatile long vals[5] = {3, 5, 7, 11, 13};
__attribute__((noinline)) static void touch(void) {
  __asm__ volatile("" ::: "memory");
}
__attribute__((noinline)) static long wrapped(long x) {
  if (x < 0)
    return 0;
  long a = x * vals[0], b = x * vals[1], c = x * vals[2], d = x * vals[3],
       e = x * vals[4];
  touch(); // a, b, c, d, e live across it: callee-saved registers
  return a + b * c + d * e + (a ^ e);
}
static void red_zone(void *p) { sink = leaf((int)(long)p); }
static void chain(void *p) { sink = frame((int)(long)p); }
static void stack_args(void *p) {
  long x = (long)p;
  sink = (int)many(x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6, x + 7, x + 8,
                   x + 9);
}
static void shrink_wrapped(void *p) { sink = (int)wrapped((long)p); }
// A tail call at -O2 (`jmp wrapped`): wrapped runs from hop's return
// address, which the bound counts once, not once per function.
__attribute__((noinline)) static long hop(long x) { return wrapped(x ^ 1); }
static void tail_call(void *p) { sink = (int)hop((long)p); }
static void aligned(void *p) {
  _Alignas(64) volatile char buf[100];
  buf[(long)p] = 1;
  sink = buf[1] + frame((int)(long)p);
}

static struct {
  void (*entry)(void *);
  const char *name;
} names[] = {{red_zone, "red_zone"},
             {chain, "chain"},
             {stack_args, "stack_args"},
             {shrink_wrapped, "shrink_wrapped"},
             {tail_call, "tail_call"},
             {aligned, "aligned"}};

#if defined(__x86_64__)
#define RED_ZONE 128
#else
#define RED_ZONE 0
#endif

static ucontext_t back, run;
static void (*volatile current)(void *);
static uintptr_t sp_at_call;

static void start(void) {
  void (*f)(void *) = current;
#if defined(__x86_64__)
  __asm__ volatile("mov %%rsp, %0" : "=r"(sp_at_call));
#else
  __asm__ volatile("mov %0, sp" : "=r"(sp_at_call));
#endif
  f((void *)7);
  // A call, not a tail call: the entry's return address lies right below
  // sp_at_call, as a caller's call puts it (a jump would run the entry 8
  // bytes higher on x86-64 and hide those 8 bytes of its use).
  __asm__ volatile("" ::: "memory");
}

// The most stack \p f used below the stack pointer of its call, seen by
// the lowest byte that lost its fill (two fills: a byte written with the
// fill's value would hide).
static size_t used(void (*f)(void *), size_t size) {
  size_t most = 0;
  char *stack = aligned_alloc(64, size);
  for (int fill = 0xa5; fill <= 0x5a + 0xa5; fill += 0x5a) {
    memset(stack, fill & 0xff, size);
    current = f;
    getcontext(&run);
    run.uc_stack.ss_sp = stack;
    run.uc_stack.ss_size = size;
    run.uc_link = &back;
    makecontext(&run, start, 0);
    swapcontext(&back, &run);
    char *low = stack;
    while (*low == (char)(fill & 0xff))
      ++low;
    if (sp_at_call - (uintptr_t)low > most)
      most = sp_at_call - (uintptr_t)low;
  }
  free(stack);
  return most;
}

int main(void) {
  int bad = 0, n = 0;
  long long margin = -1, tail_margin = -1;
  for (const struct bound *b = __start_cacs_stack_bounds;
       b && b < __stop_cacs_stack_bounds; ++b) {
    const char *name = "?";
    for (unsigned i = 0; i < sizeof names / sizeof *names; ++i)
      if (names[i].entry == b->entry)
        name = names[i].name;
    // Room far beyond the bound: what lies below it shows an overflow.
    size_t use = used(b->entry, b->bytes + 65536);
    printf("%s: bound %llu, used %zu%s\n", name, (unsigned long long)b->bytes,
           use, use > b->bytes ? " OVERFLOW" : "");
    // What the bound counts beyond the bytes written, over a leaf's red
    // zone (x86-64; AArch64 has none).
    if (b->entry == shrink_wrapped)
      margin = (long long)b->bytes - (long long)use - RED_ZONE;
    if (b->entry == tail_call)
      tail_margin = (long long)b->bytes - (long long)use - RED_ZONE;
    bad |= use > b->bytes;
    ++n;
  }
  printf("%d entries\n", n);
  printf("shrink_wrapped: margin over the red zone %lld\n", margin);
  printf("tail_call: margin over the red zone %lld\n", tail_margin);
  return bad;
}
