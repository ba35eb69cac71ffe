//===- cacs/detail/switch_x86_64.h - CACS for x86-64 SysV -------*- C -*-===//
//
// Internal: included by cacs/switch.h only; do not include it directly (its
// contents are not API and may change between releases).
//
// Register roles in the switch (SysV x86-64):
//   rdi = from, rsi = to, rax = carried value. They are passed as in/out
//     ("+D", "+S", "+a") operands rather than inputs: an input may not live
//     in a clobbered register, and with everything else clobbered there would
//     be no register left for it ("inline assembly requires more registers
//     than available"). As outputs the compiler knows they come back
//     garbage (rdi/rsi) or hold the received value (rax).
//   rsp, rip: stored in the context struct, not pushed (red zone, see
//     switch.h).
//   rbp: saved by hand; it is the frame pointer when frame pointers are on
//     and the compiler rejects or mishandles a clobber of it.
//   rbx: saved by hand; the compiler uses it as base pointer for functions
//     with both stack realignment and dynamic allocas, and may not accept it
//     clobbered there.
//   rcx, rdx, r8-r15: declared clobbered, the compiler spills what is live.
//   xmm0-15 (and xmm16-31, k0-7 under AVX-512): declared clobbered; clobbering
//     an xmm also clobbers the overlapping ymm/zmm.
//   st(0)-st(7), mm0-mm7: declared clobbered so no long double / MMX value is
//     kept in the x87 stack across the switch.
//   rflags ("cc") and "memory": clobbered; DF is clear on both sides per ABI.
//   MXCSR and x87 control word: not touched (shared FP-control policy).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DETAIL_SWITCH_X86_64_H
#define CACS_DETAIL_SWITCH_X86_64_H

#if defined(__CET__) && (__CET__ & 1)
#define CACS_ARCH_NEEDS_LANDING_PADS 1
#define CACS__LANDING_PAD "endbr64\n\t"
#else
#define CACS_ARCH_NEEDS_LANDING_PADS 0
#define CACS__LANDING_PAD ""
#endif

#if defined(__AVX512F__)
#define CACS__CLOBBER_AVX512                                                   \
  "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",      \
      "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31",  \
      "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7",
#else
#define CACS__CLOBBER_AVX512
#endif

// Every register the compiler may hold a value in, except rdi/rsi/rax
// (operands), rbx/rbp (saved by hand) and rsp.
#define CACS__CLOBBERS                                                         \
  "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "xmm0",  \
      "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",  \
      "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",                    \
      CACS__CLOBBER_AVX512 "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)",  \
      "st(6)", "st(7)", "mm0", "mm1", "mm2", "mm3", "mm4", "mm5", "mm6",       \
      "mm7", "memory", "cc"

/// Save the current context into `from`, resume `to` and hand it `val`.
/// Returns the value carried by the switch that later resumes `from`.
static CACS_ALWAYS_INLINE uint64_t cacs_switch(cacs_context *from,
                                               const cacs_context *to,
                                               uint64_t val) {
  __asm__ volatile("leaq 1f(%%rip), %%rcx\n\t"
                   "movq %%rsp, 0(%%rdi)\n\t"
                   "movq %%rcx, 8(%%rdi)\n\t"
                   "movq %%rbp, 16(%%rdi)\n\t"
                   "movq %%rbx, 24(%%rdi)\n\t"
                   "movq 16(%%rsi), %%rbp\n\t"
                   "movq 24(%%rsi), %%rbx\n\t"
                   "movq 0(%%rsi), %%rsp\n\t"
                   "jmpq *8(%%rsi)\n"
                   "1:\n\t" CACS__LANDING_PAD
                   : "+D"(from), "+S"(to), "+a"(val)
                   :
                   : CACS__CLOBBERS);
  return val;
}

// CACS__CLOBBERS without r12 and r13, which carry the tail jump's operands,
// and rdx, which carries cacs__tail_jump2's second value.
#define CACS__CLOBBERS_TAIL2                                                   \
  "rcx", "r8", "r9", "r10", "r11", "r14", "r15", "xmm0", "xmm1", "xmm2",       \
      "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",         \
      "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", CACS__CLOBBER_AVX512 "st",  \
      "st(1)", "st(2)", "st(3)", "st(4)", "st(5)", "st(6)", "st(7)", "mm0",    \
      "mm1", "mm2", "mm3", "mm4", "mm5", "mm6", "mm7", "memory", "cc"
#define CACS__CLOBBERS_TAIL "rdx", CACS__CLOBBERS_TAIL2

/// Jump to `to` without saving a resume point (the caller filled `from`'s
/// sp/pc, and fp unless CACS__TAIL_EMPTY_LIST, already). `bp` is what `from`
/// gets back in rbx on resumption: it is bound to rbx by the "b" constraint
/// and stored from there (not under CACS__TAIL_EMPTY_LIST: there the caller
/// of the enclosing function saves its rbx itself, and what a resumer loads
/// into rbx is garbage it does not read). Control comes back, in the caller
/// of the enclosing function, only.
///
/// The jump of both tail forms, one text so that they cannot drift: load
/// the resumed side's rbp, rbx and sp from `to` (operand 1) and jump to its
/// pc.
#define CACS__TAIL_JUMP_ASM                                                    \
  "movq 16(%1), %%rbp\n\t"                                                     \
  "movq 24(%1), %%rbx\n\t"                                                     \
  "movq 0(%1), %%rsp\n\t"                                                      \
  "jmpq *8(%1)\n\t"

/// Under CACS__TAIL_EMPTY_LIST the jump starts with a comment that names
/// the form (detail/contract.h): the cacs callee-saved pass rejects it in
/// a function that keeps rbp, whose callers expect it back.
#define CACS__TAIL_EMPTY_LIST_MARK CACS_CONTRACT_TAIL_EMPTY_LIST_MARK "\n\t"

/// `from` and `to` are bound to r12 and r13, where a preserve_none function
/// receives its first two arguments (the usual shape,
/// f(from, to, val)): no move before the jump. They are in/out operands so
/// that the compiler sees them clobbered like every other register.
static CACS_ALWAYS_INLINE uint64_t cacs__tail_jump(cacs_context *from,
                                                   const cacs_context *to,
                                                   uint64_t val, void *bp) {
  register cacs_context *f __asm__("r12") = from;
  register const cacs_context *t __asm__("r13") = to;
#if CACS__TAIL_EMPTY_LIST
  (void)bp;
  __asm__ volatile(CACS__TAIL_EMPTY_LIST_MARK CACS__TAIL_JUMP_ASM
                   : "+r"(f), "+r"(t), "+a"(val)
                   :
                   : CACS__CLOBBERS_TAIL);
#else
  __asm__ volatile("movq %%rbx, 24(%0)\n\t" CACS__TAIL_JUMP_ASM
                   : "+r"(f), "+r"(t), "+a"(val)
                   : "b"(bp)
                   // Full list although nothing is live after the jump: an
                   // interprocedural register allocator must not conclude
                   // that the enclosing function preserves anything.
                   : CACS__CLOBBERS_TAIL);
#endif
  // Never reached, but the function must look like it returns: with
  // __builtin_unreachable() the optimizer infers the enclosing function is
  // noreturn and deletes its callers' code after the call.
  return val;
}

/// cacs__tail_jump carrying two values, in rax and rdx: where `to` resumes
/// after a call returning a two-word struct, that call's return value
/// (cacs/effect.h: a perform lands in the handler's cacs_effect_resume
/// call with the request). Never returns.
static CACS_ALWAYS_INLINE void cacs__tail_jump2(cacs_context *from,
                                                const cacs_context *to,
                                                uint64_t v0, uint64_t v1,
                                                void *bp) {
  register cacs_context *f __asm__("r12") = from;
  register const cacs_context *t __asm__("r13") = to;
#if CACS__TAIL_EMPTY_LIST
  (void)bp;
  __asm__ volatile(CACS__TAIL_EMPTY_LIST_MARK CACS__TAIL_JUMP_ASM
                   : "+r"(f), "+r"(t), "+a"(v0), "+d"(v1)
                   :
                   : CACS__CLOBBERS_TAIL2);
#else
  __asm__ volatile("movq %%rbx, 24(%0)\n\t" CACS__TAIL_JUMP_ASM
                   : "+r"(f), "+r"(t), "+a"(v0), "+d"(v1)
                   : "b"(bp)
                   : CACS__CLOBBERS_TAIL2);
#endif
}

/// Read / set the base-pointer register (rbx). A preserve_none switching
/// function reads it first thing and hands it back to its caller on every
/// path: LLVM 19 does not save rbx around a preserve_none call even when the
/// caller uses it as base pointer (realigned frame + dynamic alloca, e.g.
/// every ASan frame); LLVM 22 does. "memory" keeps loads from being hoisted
/// above the read.
static CACS_ALWAYS_INLINE void *cacs__bp_get(void) {
  void *v;
  __asm__ volatile("" : "=b"(v) : : "memory");
  return v;
}
static CACS_ALWAYS_INLINE void cacs__bp_set(void *v) {
  __asm__ volatile("" : : "b"(v) : "memory");
}

// The start trampoline that cacs_context_init points a fresh context at is
// libcacs's (lib/trampoline_x86_64.S).

#endif // CACS_DETAIL_SWITCH_X86_64_H
