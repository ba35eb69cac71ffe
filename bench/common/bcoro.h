//===- bench/common/bcoro.h - Bench-local symmetric coroutines --*- C -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A minimal round-robin symmetric coroutine scheduler, compiled into each
// benchmark (one translation unit per binary), so that the *same* source can
// be built with each context-switch design of the yield breakdown:
//
//   BCO_MODE == BCO_FULLSAVE  classic out-of-line assembly switch that saves
//                             every callee-saved register plus MXCSR and the
//                             x87 control word (what Boost.Context/libaco do);
//                             yield() in the default convention.
//   BCO_MODE == BCO_CACS      cacs_switch() from cacs/switch.h inlined into a
//                             default-convention yield().
//   BCO_MODE == BCO_CACS_PN   yield() is preserve_none and ends with
//                             CACS_TAIL_SWITCH (the paper's Fig. 11).
//   BCO_MODE == BCO_PAPER     the paper's own layout (Fig. 7/11), bench-local
//                             and for comparison only: the context is just
//                             the stack pointer; the resume address is the
//                             return address already on the stack (plus the
//                             saved rbp), resumed with pop+jmp. Ignores the
//                             runtime's rbx/base-pointer and red-zone
//                             policies: fine for this code, not in general.
//   BCO_MODE == BCO_CACS_PN_NOTAIL  yield() is preserve_none with an inline
//                             cacs_switch() and an ordinary return: one more
//                             instruction pair, but every call is matched by
//                             a ret (the tail switch jumps straight to the
//                             other side's return address, which leaves the
//                             CPU's return-stack predictor one entry off).
//
// Define BCO_DEFINE_ASM in exactly one translation unit of the binary.
// Stacks are given by the caller, so the benchmark decides size and layout.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_BENCH_BCORO_H
#define CACS_BENCH_BCORO_H

#include "cacs/switch.h"
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BCO_FULLSAVE 0
#define BCO_CACS 1
#define BCO_CACS_PN 2
#define BCO_CACS_PN_NOTAIL 3
#define BCO_PAPER 4

#ifndef BCO_MODE
#define BCO_MODE BCO_CACS_PN
#endif

#if BCO_MODE >= BCO_CACS_PN && !CACS_HAS_PRESERVE_NONE
#error "BCO_CACS_PN needs a compiler with preserve_none"
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bco {
  // The saved state a switch reads comes first, so that its address is the
  // coroutine's address (no offset arithmetic in any mode).
#if BCO_MODE == BCO_FULLSAVE || BCO_MODE == BCO_PAPER
  void *fs_sp;      ///< saved stack pointer
  cacs_context ctx; ///< unused in these modes
#else
  cacs_context ctx; ///< CACS modes
  void *fs_sp;      ///< unused in these modes
#endif
  struct bco *next; ///< ring of runnable coroutines
  struct bco *prev;
  void (*fn)(void *); ///< body
  void *arg;
} bco;

/// Classic switch (full save): stores the stack pointer into *save_sp after
/// pushing the callee-saved state, loads load_sp and pops the target's.
void bco_fullsave_switch(void **save_sp, void *load_sp);
void bco_fullsave_tramp(void);
void bco_cacs_tramp(void);

#ifdef BCO_DEFINE_ASM
__asm__(".text\n"
        ".globl bco_fullsave_switch\n"
        ".type bco_fullsave_switch,@function\n"
        "bco_fullsave_switch:\n\t"
        "pushq %rbp\n\t"
        "pushq %rbx\n\t"
        "pushq %r12\n\t"
        "pushq %r13\n\t"
        "pushq %r14\n\t"
        "pushq %r15\n\t"
        "subq $8, %rsp\n\t"
        "stmxcsr (%rsp)\n\t"
        "fnstcw 4(%rsp)\n\t"
        "movq %rsp, (%rdi)\n\t"
        "movq %rsi, %rsp\n\t"
        "ldmxcsr (%rsp)\n\t"
        "fldcw 4(%rsp)\n\t"
        "addq $8, %rsp\n\t"
        "popq %r15\n\t"
        "popq %r14\n\t"
        "popq %r13\n\t"
        "popq %r12\n\t"
        "popq %rbx\n\t"
        "popq %rbp\n\t"
        "popq %rcx\n\t"
        "jmpq *%rcx\n"
        ".size bco_fullsave_switch, .-bco_fullsave_switch\n"
        // First entry of a full-save context: r12 = arg, r13 = fn.
        ".globl bco_fullsave_tramp\n"
        ".type bco_fullsave_tramp,@function\n"
        "bco_fullsave_tramp:\n\t"
        "movq %r12, %rdi\n\t"
        "callq *%r13\n\t"
        "ud2\n"
        ".size bco_fullsave_tramp, .-bco_fullsave_tramp\n"
        // First entry of a CACS context: rsp -> {fn, arg}, rax = value.
        ".globl bco_cacs_tramp\n"
        ".type bco_cacs_tramp,@function\n"
        "bco_cacs_tramp:\n\t"
        "movq 8(%rsp), %rdi\n\t"
        "movq %rax, %rsi\n\t"
        "callq *(%rsp)\n\t"
        "ud2\n"
        ".size bco_cacs_tramp, .-bco_cacs_tramp\n");
#endif

static bco bco_main_;
static bco *bco_cur;

#if BCO_MODE >= BCO_CACS_PN
#define BCO_YIELD_CC CACS_PRESERVE_NONE
#else
#define BCO_YIELD_CC
#endif

/// Round-robin yield to the next coroutine of the ring.
#if BCO_MODE == BCO_CACS_PN && defined(CACS_TAIL_SWITCH_VOID_BP)
// Runtime API with the caller's base pointer handed back explicitly.
static BCO_YIELD_CC __attribute__((noinline)) void bco_yield(void) {
  CACS_SAVE_CALLER_BP(bp);
  bco *from = bco_cur;
  bco *to = from->next;
  if (from == to)
    CACS_RETURN_VOID_BP(bp);
  bco_cur = to;
  CACS_TAIL_SWITCH_VOID_BP(&from->ctx, &to->ctx, bp);
}
#elif BCO_MODE == BCO_PAPER
static BCO_YIELD_CC __attribute__((noinline)) void bco_yield(void) {
  bco *from = bco_cur;
  bco *to = from->next;
  if (from == to)
    return;
  bco_cur = to;
  // Our return address is on top of the stack: it is the resume point.
  __asm__ volatile("pushq %%rbp\n\t"
                   "movq %%rsp, (%0)\n\t"
                   "movq (%1), %%rsp\n\t"
                   "popq %%rbp\n\t"
                   "popq %%rcx\n\t"
                   "jmpq *%%rcx"
                   :
                   : "r"(&from->fs_sp), "r"(&to->fs_sp)
                   : "memory");
}
#else
static BCO_YIELD_CC __attribute__((noinline)) void bco_yield(void) {
  bco *from = bco_cur;
  bco *to = from->next;
  if (from == to)
    return;
  bco_cur = to;
#if BCO_MODE == BCO_FULLSAVE
  bco_fullsave_switch(&from->fs_sp, to->fs_sp);
#elif BCO_MODE == BCO_CACS || BCO_MODE == BCO_CACS_PN_NOTAIL
  cacs_switch(&from->ctx, &to->ctx, 0);
#else
  CACS_TAIL_SWITCH(&from->ctx, &to->ctx);
#endif
}
#endif

static inline void bco_switch_(bco *from, bco *to) {
#if BCO_MODE == BCO_FULLSAVE
  bco_fullsave_switch(&from->fs_sp, to->fs_sp);
#elif BCO_MODE == BCO_PAPER
  // Non-tail form (main and exits): step over the red zone, push a resume
  // address and rbp, switch.
  void **f = &from->fs_sp, **t = &to->fs_sp;
  __asm__ volatile("subq $128, %%rsp\n\t"
                   "leaq 1f(%%rip), %%rcx\n\t"
                   "pushq %%rcx\n\t"
                   "pushq %%rbp\n\t"
                   "movq %%rsp, (%%rdi)\n\t"
                   "movq (%%rsi), %%rsp\n\t"
                   "popq %%rbp\n\t"
                   "popq %%rcx\n\t"
                   "jmpq *%%rcx\n"
                   "1:\n\t"
                   "addq $128, %%rsp"
                   : "+D"(f), "+S"(t)
                   :
                   : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11",
                     "r12", "r13", "r14", "r15", "xmm0", "xmm1", "xmm2", "xmm3",
                     "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
                     "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory",
                     "cc");
#else
  cacs_switch(&from->ctx, &to->ctx, 0);
#endif
}

/// Runs when a body returns: leave the ring, go on with the next coroutine,
/// or back to bco_run() after the last one.
static void bco_entry_(void *self_, uint64_t unused) {
  (void)unused;
  bco *self = (bco *)self_;
  self->fn(self->arg);
  bco *next = self->next;
  if (next == self) {
    bco_cur = &bco_main_;
    bco_switch_(self, &bco_main_);
  } else {
    self->prev->next = next;
    next->prev = self->prev;
    bco_cur = next;
    bco_switch_(self, next);
  }
  __builtin_trap();
}

static void bco_fullsave_entry_(void *self) { bco_entry_(self, 0); }

/// Create a coroutine on [stack, stack + size) and append it to the ring.
static inline void bco_create(bco *c, void *stack, size_t size,
                              void (*fn)(void *), void *arg) {
  uintptr_t top = ((uintptr_t)stack + size) & ~(uintptr_t)15;
  c->fn = fn;
  c->arg = arg;
#if BCO_MODE == BCO_FULLSAVE
  // Popped by bco_fullsave_switch: csr word, r15, r14, r13, r12, rbx, rbp,
  // then the resume address. The trampoline's call must see rsp % 16 == 0.
  void **sp = (void **)(top - 16 - 8 - 56);
  uint32_t mxcsr;
  uint16_t fcw;
  __asm__ volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(mxcsr), "=m"(fcw));
  uint64_t csr = (uint64_t)mxcsr | ((uint64_t)fcw << 32);
  memcpy(&sp[0], &csr, 8);
  sp[1] = sp[2] = 0;                   // r15, r14
  sp[3] = (void *)bco_fullsave_entry_; // r13 = fn
  sp[4] = c;                           // r12 = arg
  sp[5] = sp[6] = 0;                   // rbx, rbp
  sp[7] = (void *)bco_fullsave_tramp;
  c->fs_sp = sp;
#elif BCO_MODE == BCO_PAPER
  // Popped: rbp, resume address; the trampoline then finds {fn, arg} at
  // rsp, 16-byte aligned.
  void **sp = (void **)(top - 32);
  sp[0] = 0;
  sp[1] = (void *)bco_cacs_tramp;
  sp[2] = (void *)bco_entry_;
  sp[3] = c;
  c->fs_sp = sp;
#else
  void **sp = (void **)(top - 16);
  sp[0] = (void *)bco_entry_;
  sp[1] = c;
  c->ctx.sp = sp;
  c->ctx.pc = (void *)bco_cacs_tramp;
  c->ctx.fp = 0;
  c->ctx.bp = 0;
#endif
  if (!bco_main_.next) {
    c->next = c->prev = c;
    bco_main_.next = c;
  } else {
    bco *first = bco_main_.next;
    c->prev = first->prev;
    c->next = first;
    first->prev->next = c;
    first->prev = c;
  }
}

/// Run the ring until every coroutine has returned.
static inline void bco_run(void) {
  bco *first = bco_main_.next;
  if (!first)
    return;
  bco_cur = first;
  bco_switch_(&bco_main_, first);
  bco_main_.next = 0;
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_BENCH_BCORO_H
