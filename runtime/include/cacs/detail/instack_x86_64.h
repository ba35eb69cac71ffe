//===- cacs/detail/instack_x86_64.h - In-stack switch, x86-64 --*- C -*-===//
//
// Internal: included by cacs/instack.h only; do not include it directly (its
// contents are not API and may change between releases).
//
// Register protocol (fixed, so neither side stores anything):
//   generator -> consumer (yield): `call *%rdi`, rdi = consumer resume
//     address; the call pushes the generator's resume address. rsi =
//     generator frame pointer, rcx = generator rbx (after the xchg), rax =
//     value yielded.
//   consumer -> generator (resume): `ret $8` pops the generator's resume
//     address (and the alignment step, see below); rsi = consumer
//     frame pointer, rcx = consumer rbx, rdi = consumer resume address
//     (bit 63 set: cancel), rax = value passed in.
// rbx is exchanged like the frame pointer: a frame with over-aligned locals
// and a dynamic allocation is addressed through it (base pointer), which
// cannot be declared clobbered (and the compiler would not say so).
// r12-r15 belong to the generator: its yield does not clobber them, and the
// consumer's switches take and give them back as operands (CACS__ISG_KEEP),
// so its compiler holds the generator's values there (or wherever it likes)
// at no cost in the switch. Every other register is declared clobbered.
// Per value: 4 instructions to resume (lea, 2 xchg, ret), 4 to yield (lea,
// 2 xchg, call), and where cacs's pass plugin does not compile the
// generator, the cancel test (test, js: instack.h); yields and resumes pair
// as calls and returns (the return stack buffer predicts the resume).
//
// Stack: the consumer continues below the generator's stack pointer. The
// function that yields must keep its stack pointer 16-byte aligned there and
// keep nothing below it (no red zone), which the consumer's calls would
// overwrite, as a function that makes a call does. Compiled by cacs
// (__CACS__), the yield's assembly carries a marker (CACS__ISG_YIELD_MARK)
// and the pass plugin gives it that frame (llvm/lib/Transforms/
// InstackYield.cpp); the marker is an `.error` line, so a yield the pass did
// not see does not assemble. Other compilers: the yield's cancel path calls
// a function (instack.h), which makes every function that yields a non-leaf.
// The generator steps down 8 bytes before its call, so that the consumer
// runs aligned too, and the consumer's `ret $8` steps back.
//
// "Finished" entry. Every consumer resume address is preceded by a 9-byte
// entry (CACS__ISG_ALT, `endbr64; jmp rel32`) to the asm goto label of the
// consumer's "generator finished" path: the end of the generator jumps there
// (lib/instack_x86_64.S), so the consumer tests no flag per value. The size
// does not depend on the build's CET setting (endbr64 is a no-op without
// it): the assembly that jumps to it may be built with other flags.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DETAIL_INSTACK_X86_64_H
#define CACS_DETAIL_INSTACK_X86_64_H

// Every register but rax/rcx/rsi/rdi (operands), rbx, rbp (exchanged),
// r12-r15 (the generator's) and rsp.
#define CACS__ISG_CLOBBERS                                                     \
  "rdx", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",     \
      "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12",       \
      "xmm13", "xmm14", "xmm15", CACS__CLOBBER_AVX512 "st", "st(1)", "st(2)",  \
      "st(3)", "st(4)", "st(5)", "st(6)", "st(7)", "mm0", "mm1", "mm2", "mm3", \
      "mm4", "mm5", "mm6", "mm7", "memory", "cc"

/// Bytes of the "finished" entry before every consumer resume address.
#define CACS__ISG_ALT_SIZE 9
/// The entry to asm goto label `label`, then the resume address (local
/// label 1). The jmp is encoded by hand: its size must not depend on the
/// distance.
#define CACS__ISG_ALT(label)                                                   \
  "endbr64\n\t"                                                                \
  ".byte 0xe9\n\t"                                                             \
  ".long %l[" label "] - 1f\n"                                                 \
  "1:\n\t" CACS__LANDING_PAD

/// The generator's registers (r12-r15), held by the consumer between
/// switches (CACS__ISG_KEEP_DECL in instack.h), and the return register.
#define CACS__ISG_KEEP_REGS "r12", "r13", "r14", "r15"
#define CACS__ISG_RET_REG "rax"

/// In lib/instack_x86_64.S: builds the generator's ctx below the consumer's
/// stack pointer, calls fn(ctx, arg), and when fn returns jumps to the
/// "finished" entry of the consumer's latest resume address with rax = fn's
/// value, its rbp and rbx, and the stack pointer the consumer had at start.
void cacs__isg_entry(void);

static CACS_ALWAYS_INLINE uint64_t cacs__isg_start(cacs_isg *g, cacs_isg_fn fn,
                                                   void *arg) {
  uint64_t v;
  void *pc = (void *)fn, *fp, *bp, *d;
  register void *r8 __asm__("r8") = arg;
  CACS__ISG_KEEP_DECL(g);
  __asm__ goto("leaq 1f(%%rip), %%rdi\n\t"
               "movq %%rbp, %%rsi\n\t"
               "movq %%rbx, %%rcx\n\t"
               "callq cacs__isg_entry\n\t" CACS__ISG_ALT("finished")
               : "=a"(v), "+d"(pc), "=S"(fp), "=c"(bp), "=D"(d), "+r"(r8),
                 CACS__ISG_KEEP_OPS
               :
               : "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
                 "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
                 "xmm12", "xmm13", "xmm14", "xmm15", CACS__CLOBBER_AVX512 "st",
                 "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)",
                 "mm0", "mm1", "mm2", "mm3", "mm4", "mm5", "mm6", "mm7",
                 "memory", "cc"
               : finished);
  g->pc = (void *)1; // suspended: its resume address is on the stack
  g->fp = fp;
  g->bp = bp;
  CACS__ISG_KEEP_STORE(g);
  return v;
finished:
  CACS__ISG_FINISHED(g);
}

/// Consumer: continue the generator with `in`. CANCEL: "btsq $63, %%rdi\n\t"
/// (its pending yield sees a cancel request), or "".
#define CACS__ISG_RESUME_ASM(CANCEL)                                           \
  __asm__ goto("leaq 1f(%%rip), %%rdi\n\t" CANCEL "xchgq %%rbp, %%rsi\n\t"     \
               "xchgq %%rbx, %%rcx\n\t"                                        \
               "retq $8\n\t" CACS__ISG_ALT("finished")                         \
               : "+a"(in), "+S"(fp), "+c"(bp), "=D"(d), CACS__ISG_KEEP_OPS     \
               :                                                               \
               : CACS__ISG_CLOBBERS                                            \
               : finished)

static CACS_ALWAYS_INLINE uint64_t cacs__isg_resume(cacs_isg *g, uint64_t in,
                                                    int cancel) {
  void *fp = g->fp, *bp = g->bp, *d;
  CACS__ISG_KEEP_DECL(g);
  if (cancel)
    CACS__ISG_RESUME_ASM("btsq $63, %%rdi\n\t");
  else
    CACS__ISG_RESUME_ASM("");
  g->pc = (void *)1;
  g->fp = fp;
  g->bp = bp;
  CACS__ISG_KEEP_STORE(g);
  return in;
finished:
  CACS__ISG_FINISHED(g);
}

#define CACS__ISG_YIELD_ASM(MARK)                                              \
  MARK "leaq -8(%%rsp), %%rsp\n\t"                                             \
  "xchgq %%rbp, %%rsi\n\t"                                                     \
  "xchgq %%rbx, %%rcx\n\t"                                                     \
  "callq *%%rdi"

/// Generator: hand `v` to the consumer and wait; returns the value of the
/// resume that continues us. ctx->pc has bit 63 set if that resume was a
/// cancel request (cacs__isg_cancelled). The consumer's frame pointer does
/// not change while its generator lives (its frame has a dynamic
/// allocation: instack.h), so the resume hands back in rsi the value the
/// yield handed over: with fp_out == 0 the asm says so (rsi an input only,
/// ctx->fp never stored); with 1 it is an output stored back, which is
/// cheaper where the compiler must keep rsi's value across a call anyway
/// (the C++ wrapper's throw). Only the C yield (fp_out == 0) is marked for
/// the pass: the C++ wrapper's cancel path throws, a call of its own.
static CACS_ALWAYS_INLINE uint64_t cacs__isg_yield(cacs_isg_ctx *ctx,
                                                   uint64_t v, int fp_out) {
  void *pc = ctx->pc, *fp = ctx->fp, *bp = ctx->bp;
  if (fp_out) {
    __asm__ volatile(CACS__ISG_YIELD_ASM("")
                     : "+a"(v), "+D"(pc), "+S"(fp), "+c"(bp)
                     :
                     : CACS__ISG_CLOBBERS);
    ctx->fp = fp;
  } else {
    __asm__ volatile(CACS__ISG_YIELD_ASM(CACS__ISG_YIELD_MARK)
                     : "+a"(v), "+D"(pc), "+c"(bp)
                     : "S"(fp)
                     : CACS__ISG_CLOBBERS);
  }
  ctx->pc = pc;
  ctx->bp = bp;
  return v;
}

#endif // CACS_DETAIL_INSTACK_X86_64_H
