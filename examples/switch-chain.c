// A coroutine-shaped program: a chain of static functions above a switch
// function that clobbers every register, as a context switch does. The switch
// is preserve_none; with -fauto-preserve-none its static callers become
// preserve_none too, so none of them saves callee-saved registers any more.
#include <stdio.h>

struct task {
  long switches;
};

// Stand-in for a context switch: every general-purpose register may change.
__attribute__((preserve_none, noinline)) void co_switch(struct task *t) {
  t->switches++;
#if defined(__x86_64__)
  __asm__ volatile("" ::: "rbx", "r12", "r13", "r14", "r15", "memory");
#elif defined(__aarch64__)
  __asm__ volatile("" ::: "x19", "x20", "x21", "x22", "x23", "x24", "x25",
                   "x26", "x27", "x28", "memory");
#endif
}

static __attribute__((noinline)) long parse(struct task *t, long x) {
  long a = x * 3, b = x ^ 0x55, c = x + 7;
  co_switch(t);
  return a + b * c;
}

static __attribute__((noinline)) long frame(struct task *t, long x) {
  long head = x << 2, tail = x >> 1;
  long body = parse(t, x);
  co_switch(t);
  return head + body - tail;
}

static __attribute__((noinline)) long serve(struct task *t, int n) {
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += frame(t, i);
  return sum;
}

int main(void) {
  struct task t = {0};
  long sum = serve(&t, 1000);
  printf("sum=%ld switches=%ld\n", sum, t.switches);
  return 0;
}
