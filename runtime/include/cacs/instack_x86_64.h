//===- cacs/instack_x86_64.h - In-stack generator switch, x86-64 -*- C -*-===//
//
// Included by cacs/instack.h only.
//
// Register protocol (fixed, so neither side stores anything):
//   consumer -> generator: rdi = consumer resume address, rsi = consumer
//     frame pointer, rcx = consumer rbx (both after the xchg), rax = value
//     passed in; jump to the generator's resume address (rdx), with rbp and
//     rbx the generator's.
//   generator -> consumer: rdx = generator resume address (0: finished),
//     rsi = generator frame pointer, rcx = generator rbx, rax = value
//     yielded; jump to the consumer's resume address (rdi).
// rbx is exchanged like the frame pointer: a frame with over-aligned locals
// and a dynamic allocation is addressed through it (base pointer), which
// cannot be declared clobbered (and the compiler would not say so). Every
// other register is declared clobbered.
//
// Red zone: a generator function may keep values below its stack pointer
// (x86-64 red zone), and the consumer continues with that stack pointer, so
// the generator steps over its red zone before it yields (lea -128) and back
// when resumed (lea +128). Per value: 4 instructions to resume, 6 to yield.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_INSTACK_X86_64_H
#define CACS_INSTACK_X86_64_H

// Every register but rax/rcx/rdx/rsi/rdi (operands), rbx, rbp (exchanged),
// rsp.
#define CACS__ISG_CLOBBERS                                                     \
  "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "xmm0", "xmm1",        \
      "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", \
      "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", CACS__CLOBBER_AVX512 "st",  \
      "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)", "mm0",    \
      "mm1", "mm2", "mm3", "mm4", "mm5", "mm6", "mm7", "memory", "cc"

/// In lib/instack_x86_64.S: builds the generator's ctx below the consumer's
/// stack pointer, calls fn(ctx, arg), and when fn returns resumes the
/// consumer at its latest resume address with rdx = 0, rax = fn's value,
/// its rbp and rbx, and the stack pointer the consumer had at start.
void cacs__isg_entry(void);

static CACS_ALWAYS_INLINE uint64_t cacs__isg_start(cacs_isg *g, cacs_isg_fn fn,
                                                   void *arg) {
  uint64_t v;
  void *pc = (void *)fn, *fp, *bp, *d;
  register void *r8 __asm__("r8") = arg;
  __asm__ volatile(
      "leaq 1f(%%rip), %%rdi\n\t"
      "movq %%rbp, %%rsi\n\t"
      "movq %%rbx, %%rcx\n\t"
      "callq cacs__isg_entry\n"
      "1:\n\t" CACS__LANDING_PAD
      : "=a"(v), "+d"(pc), "=S"(fp), "=c"(bp), "=D"(d), "+r"(r8)
      :
      : "r9", "r10", "r11", "r12", "r13", "r14", "r15", "xmm0", "xmm1", "xmm2",
        "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", CACS__CLOBBER_AVX512 "st",
        "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)", "mm0",
        "mm1", "mm2", "mm3", "mm4", "mm5", "mm6", "mm7", "memory", "cc");
  g->pc = pc;
  g->fp = fp;
  g->bp = bp;
  return v;
}

/// Consumer: run the generator until its next yield (returns the value) or
/// its end (returns its return value; cacs_isg_done becomes true). `in` is
/// what the pending cacs_isg_yield returns. Never call it on a finished one.
static CACS_ALWAYS_INLINE uint64_t cacs_isg_resume(cacs_isg *g, uint64_t in) {
  void *pc = g->pc, *fp = g->fp, *bp = g->bp, *d;
  __asm__ volatile("leaq 1f(%%rip), %%rdi\n\t"
                   "xchgq %%rbp, %%rsi\n\t"
                   "xchgq %%rbx, %%rcx\n\t"
                   "jmpq *%%rdx\n"
                   "1:\n\t" CACS__LANDING_PAD
                   : "+a"(in), "+d"(pc), "+S"(fp), "+c"(bp), "=D"(d)
                   :
                   : CACS__ISG_CLOBBERS);
  g->pc = pc;
  g->fp = fp;
  g->bp = bp;
  return in;
}

/// Generator: hand `v` to the consumer and wait; returns the value of the
/// resume that continues us.
static CACS_ALWAYS_INLINE uint64_t cacs_isg_yield(cacs_isg_ctx *ctx,
                                                  uint64_t v) {
  void *pc = ctx->pc, *fp = ctx->fp, *bp = ctx->bp, *d;
  __asm__ volatile("leaq 1f(%%rip), %%rdx\n\t"
                   "leaq -128(%%rsp), %%rsp\n\t"
                   "xchgq %%rbp, %%rsi\n\t"
                   "xchgq %%rbx, %%rcx\n\t"
                   "jmpq *%%rdi\n"
                   "1:\n\t" CACS__LANDING_PAD "leaq 128(%%rsp), %%rsp"
                   : "+a"(v), "+D"(pc), "+S"(fp), "+c"(bp), "=d"(d)
                   :
                   : CACS__ISG_CLOBBERS);
  ctx->pc = pc;
  ctx->fp = fp;
  ctx->bp = bp;
  return v;
}

#endif // CACS_INSTACK_X86_64_H
