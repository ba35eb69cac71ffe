//===- cacs/detail/switch_aarch64.h - CACS for AArch64 AAPCS64 --*- C -*-===//
//
// Internal: included by cacs/switch.h only; do not include it directly (its
// contents are not API and may change between releases).
//
// Register roles in the switch (AAPCS64, Linux):
//   x1 = from, x2 = to, x0 = carried value: bound with register variables
//     and passed as in/out operands, because inputs may not live in clobbered
//     registers and nearly all registers are clobbered.
//   sp, pc: stored in the context struct (sp cannot be stored directly, it
//     goes through x10).
//   x29: saved by hand; it is the frame pointer and the compiler may reserve
//     it (frame-record chain used by unwinders/profilers).
//   x19: saved by hand; the compiler uses it as base pointer for realigned
//     frames with dynamic allocas and refuses it as a clobber there.
//   x18: saved by hand; it is the platform register, reserved on some
//     platforms (-ffixed-x18) and then impossible to declare clobbered. On
//     Linux it is an ordinary temporary; saving it is harmless.
//   x3-x17, x20-x28, x30 (LR): declared clobbered.
//   v0-v31: declared clobbered. This is what makes the callee-saved d8-d15
//     (low halves of v8-v15) get spilled by the compiler when live.
//   z0-z31/p0-p15 under SVE: declared clobbered (SVE state is caller-saved
//     around a normal call, except d8-d15 halves covered above).
//   NZCV ("cc") and "memory": clobbered.
//   FPCR/FPSR: not touched (shared FP-control policy).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DETAIL_SWITCH_AARCH64_H
#define CACS_DETAIL_SWITCH_AARCH64_H

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define CACS_ARCH_NEEDS_LANDING_PADS 1
#define CACS__LANDING_PAD "bti j\n\t"
#else
#define CACS_ARCH_NEEDS_LANDING_PADS 0
#define CACS__LANDING_PAD ""
#endif

#if defined(__ARM_FEATURE_SVE)
#define CACS__CLOBBER_SVE                                                      \
  "z0", "z1", "z2", "z3", "z4", "z5", "z6", "z7", "z8", "z9", "z10", "z11",    \
      "z12", "z13", "z14", "z15", "z16", "z17", "z18", "z19", "z20", "z21",    \
      "z22", "z23", "z24", "z25", "z26", "z27", "z28", "z29", "z30", "z31",    \
      "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10",       \
      "p11", "p12", "p13", "p14", "p15",
#else
#define CACS__CLOBBER_SVE
#endif

#define CACS__CLOBBERS "x3", CACS__CLOBBERS_TAIL2
// Without x3 too (cacs__tail_jump2's operands are x0-x3).
#define CACS__CLOBBERS_TAIL2                                                   \
  "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14",       \
      "x15", "x16", "x17", "x20", "x21", "x22", "x23", "x24", "x25", "x26",    \
      "x27", "x28", "x30", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",     \
      "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17",      \
      "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27",    \
      "v28", "v29", "v30", "v31", CACS__CLOBBER_SVE "memory", "cc"

/// Save the current context into `from`, resume `to` and hand it `val`.
/// Returns the value carried by the switch that later resumes `from`.
static CACS_ALWAYS_INLINE uint64_t cacs_switch(cacs_context *from,
                                               const cacs_context *to,
                                               uint64_t val) {
  register uint64_t x0 __asm__("x0") = val;
  register cacs_context *x1 __asm__("x1") = from;
  register const cacs_context *x2 __asm__("x2") = to;
  __asm__ volatile("adr x9, 1f\n\t"
                   "mov x10, sp\n\t"
                   "stp x10, x9, [x1]\n\t"
                   "stp x29, x19, [x1, #16]\n\t"
                   "str x18, [x1, #32]\n\t"
                   "ldp x29, x19, [x2, #16]\n\t"
                   "ldr x18, [x2, #32]\n\t"
                   "ldp x10, x9, [x2]\n\t"
                   "mov sp, x10\n\t"
                   "br x9\n"
                   "1:\n\t" CACS__LANDING_PAD
                   : "+r"(x0), "+r"(x1), "+r"(x2)
                   :
                   : CACS__CLOBBERS);
  return x0;
}

/// The jump of both tail forms, one text so that they cannot drift: store
/// the base pointer (x19) and x18 in `from`, load the resumed side's fp,
/// x19, x18 and sp from `to`, and jump to its pc.
#define CACS__TAIL_JUMP_ASM                                                    \
  "str x19, [%[from], #24]\n\t"                                               \
  "str x18, [%[from], #32]\n\t"                                               \
  "ldp x29, x19, [%[to], #16]\n\t"                                            \
  "ldr x18, [%[to], #32]\n\t"                                                 \
  "ldp x10, x9, [%[to]]\n\t"                                                  \
  "mov sp, x10\n\t"                                                           \
  "br x9\n\t"

/// Jump to `to` without saving a resume point (the caller filled `from`'s
/// sp/pc/fp already). `bp` is what `from` gets back in x19 on resumption;
/// x18 is stored from the register since C cannot read it.
static CACS_ALWAYS_INLINE uint64_t cacs__tail_jump(cacs_context *from,
                                                   const cacs_context *to,
                                                   uint64_t val, void *bp) {
  register uint64_t x0 __asm__("x0") = val;
  register cacs_context *x1 __asm__("x1") = from;
  register const cacs_context *x2 __asm__("x2") = to;
  register void *x19 __asm__("x19") = bp;
  __asm__ volatile(CACS__TAIL_JUMP_ASM
                   : "+r"(x0)
                   : [from] "r"(x1), [to] "r"(x2), "r"(x19)
                   // Full list although nothing is live after the jump: an
                   // interprocedural register allocator must not conclude
                   // that the enclosing function preserves anything.
                   : CACS__CLOBBERS);
  // Never reached, but must look like it returns (see switch_x86_64.h).
  return x0;
}

/// cacs__tail_jump carrying two values, in x0 and x1: where `to` resumes
/// after a call returning a two-word struct, that call's return value
/// (cacs/effect.h: a perform lands in the handler's cacs_effect_resume
/// call with the request). Never returns.
static CACS_ALWAYS_INLINE void cacs__tail_jump2(cacs_context *from,
                                                const cacs_context *to,
                                                uint64_t v0, uint64_t v1,
                                                void *bp) {
  register uint64_t x0 __asm__("x0") = v0;
  register uint64_t x1 __asm__("x1") = v1;
  register cacs_context *x2 __asm__("x2") = from;
  register const cacs_context *x3 __asm__("x3") = to;
  register void *x19 __asm__("x19") = bp;
  __asm__ volatile(CACS__TAIL_JUMP_ASM
                   : "+r"(x0), "+r"(x1), [from] "+r"(x2), [to] "+r"(x3)
                   : "r"(x19)
                   : CACS__CLOBBERS_TAIL2);
}

/// Read / set the base-pointer register (x19). A preserve_none switching
/// function reads it first thing and hands it back to its caller on every
/// path: LLVM 19 and 22 do not save x19 around a preserve_none call even
/// when the caller uses it as base pointer (realigned frame + dynamic
/// alloca). "memory" keeps loads from being hoisted above the read.
static CACS_ALWAYS_INLINE void *cacs__bp_get(void) {
  register void *x19 __asm__("x19");
  __asm__ volatile("" : "=r"(x19) : : "memory");
  return x19;
}
static CACS_ALWAYS_INLINE void cacs__bp_set(void *v) {
  register void *x19 __asm__("x19") = v;
  __asm__ volatile("" : : "r"(x19) : "memory");
}

// The start trampoline that cacs_context_init points a fresh context at is
// libcacs's (lib/trampoline_aarch64.S).

#endif // CACS_DETAIL_SWITCH_AARCH64_H
