//===- bench/libcacs/ablation.c - The paper's Figure 15 ablation -*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// yield among 10 coroutines (one function, round-robin), with the paper's
// optimizations added one at a time (issue 22, item 4):
//
//   vanilla     a hand-written switch that pushes and pops every callee-saved
//               register (rbp, rbx, r12-r15) and resumes with pop + jmp, the
//               classic design; 64 KiB page-aligned stacks
//   cacs        the yield is a default-convention C function around
//               cacs_switch (cacs/switch.h) inlined: the compiler saves what
//               the convention asks (its prologue pushes the callee-saved
//               registers the switch clobbers)
//   cacs+pn     the yield is preserve_none and ends in CACS_TAIL_SWITCH (the
//               paper's Figure 11): its caller spills what it needs
//   +random     each stack starts at a random cache line of its top page
//   +small      4112-byte stacks (and random starts)
//
//   ablation -v STEP [-n YIELDS] [-r REPS]
//
// ops = yields; time = the thread's CPU time (bench_cpu_ns). x86-64 only
// (the vanilla switch is x86-64 assembly).
//
//===----------------------------------------------------------------------===//

#include "bench.h"
#include "cacs/switch.h"

#if !defined(__x86_64__)
int main(void) {
  puts("ablation: x86-64 only");
  return 0;
}
#else

#define NCO 10

typedef struct task {
  cacs_context ctx; // cacs, cacs+pn
  void *sp;         // vanilla
  struct task *next;
} task;

static task tasks[NCO], main_task;
static task *cur;
static uint64_t iters, yields;

// vanilla: full_switch(&from->sp, to->sp).
void full_switch(void **from_sp, void *to_sp);
__asm__(".text\n"
        ".p2align 4\n"
        "full_switch:\n\t"
        "pushq %rbp\n\t"
        "pushq %rbx\n\t"
        "pushq %r12\n\t"
        "pushq %r13\n\t"
        "pushq %r14\n\t"
        "pushq %r15\n\t"
        "movq %rsp, (%rdi)\n\t"
        "movq %rsi, %rsp\n\t"
        "popq %r15\n\t"
        "popq %r14\n\t"
        "popq %r13\n\t"
        "popq %r12\n\t"
        "popq %rbx\n\t"
        "popq %rbp\n\t"
        "popq %rdx\n\t"
        "jmpq *%rdx\n");

__attribute__((noinline)) static void yield_full(void) {
  task *from = cur, *to = from->next;
  cur = to;
  full_switch(&from->sp, to->sp);
}

__attribute__((noinline)) static void yield_cacs(void) {
  task *from = cur, *to = from->next;
  cur = to;
  cacs_switch(&from->ctx, &to->ctx, 0);
}

__attribute__((noinline)) CACS_PRESERVE_NONE static void yield_pn(void) {
  CACS_SAVE_CALLER_BP(bp);
  task *from = cur, *to = from->next;
  cur = to;
  CACS_TAIL_SWITCH_VOID_BP(&from->ctx, &to->ctx, bp);
}

// Each loop calls its yield from one site, as bench/yield does. Task 0
// finishes first and goes back to main; the others are abandoned
// mid-yield (their stacks are simply reused).
static void loop_full(void) {
  for (uint64_t i = 0; i < iters; ++i, ++yields)
    yield_full();
  if (cur == &tasks[0])
    full_switch(&tasks[0].sp, main_task.sp);
}
static void loop_cacs(void) {
  for (uint64_t i = 0; i < iters; ++i, ++yields)
    yield_cacs();
}
static void loop_pn(void) {
  for (uint64_t i = 0; i < iters; ++i, ++yields)
    yield_pn();
}

static void start_full(void) {
  loop_full();
  abort(); // only task 0 leaves its loop, and it switches to main
}
// The vanilla switch's first resume lands here with rsp at the stack top.
void full_start_stub(void);
__asm__(".text\n"
        ".p2align 4\n"
        "full_start_stub:\n\t"
        "callq start_full_c\n\t"
        "ud2\n");
void start_full_c(void) { start_full(); }

static void start_cacs(void *arg, uint64_t v) {
  (void)v;
  if (arg)
    loop_pn();
  else
    loop_cacs();
  // Task 0 ends the run.
  cacs_switch(&cur->ctx, &main_task.ctx, 0);
  abort();
}

int main(int argc, char **argv) {
  bench_args a = bench_parse(argc, argv, 10000000);
  const char *step = a.variant ? a.variant : "vanilla";
  int full = !strcmp(step, "vanilla"), pn = strstr(step, "pn") != NULL;
  int random = strstr(step, "random") != NULL;
  int small = strstr(step, "small") != NULL;
  if (!full && !pn && strcmp(step, "cacs")) {
    fprintf(stderr, "steps: vanilla cacs cacs+pn cacs+pn+random "
                    "cacs+pn+random+small\n");
    return 64;
  }
  size_t size = small ? 4112 : 64 * 1024;
  char *stacks[NCO];
  for (int i = 0; i < NCO; ++i)
    stacks[i] = aligned_alloc(4096, (size + 4095) / 4096 * 4096);
  bench_run r = bench_begin("ablation", step, a.n);
  iters = a.n / NCO;
  srand(1);
  for (int rep = 0; rep < a.reps; ++rep) {
    for (int i = 0; i < NCO; ++i) {
      // Page-aligned tops unless randomized (then a random cache line
      // below the page boundary); small stacks end at 4112 bytes.
      char *top = stacks[i] + size;
      if (!small)
        top = (char *)((uintptr_t)top & ~(uintptr_t)4095);
      if (random)
        top -= 64 * (rand() % 64);
      top = (char *)((uintptr_t)top & ~(uintptr_t)15);
      tasks[i].next = &tasks[(i + 1) % NCO];
      if (full) {
        void **sp = (void **)top;
        *--sp = NULL; // alignment: the stub's call pushes onto a 16n - 8 sp
        *--sp = (void *)full_start_stub;
        for (int k = 0; k < 6; ++k)
          *--sp = NULL;
        tasks[i].sp = sp;
      } else {
        cacs_context_init(&tasks[i].ctx, top, start_cacs,
                          pn ? (void *)1 : NULL);
      }
    }
    yields = 0;
    cur = &tasks[0];
    uint64_t t0 = bench_cpu_ns();
    if (full)
      full_switch(&main_task.sp, tasks[0].sp);
    else
      cacs_switch(&main_task.ctx, &tasks[0].ctx, 0);
    uint64_t t1 = bench_cpu_ns();
    // Every task but task 0 made its last yield without returning from it.
    bench_record(&r, t1 - t0, yields, yields, iters * NCO - (NCO - 1));
  }
  return bench_end(&r);
}
#endif
