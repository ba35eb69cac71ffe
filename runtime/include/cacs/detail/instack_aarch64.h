//===- cacs/detail/instack_aarch64.h - In-stack switch, AArch64 -*- C -*-===//
//
// Internal: included by cacs/instack.h only; do not include it directly (its
// contents are not API and may change between releases).
//
// Register protocol (see instack_x86_64.h):
//   consumer -> generator: x1 = consumer resume address, x2 = consumer frame
//     pointer, x5 = consumer x19, x0 = value passed in; branch to x3 with
//     x29 = x4, x19 = x6 (the generator's).
//   generator -> consumer: x3 = generator resume address,
//     x4 = generator frame pointer, x6 = generator x19, x0 = value yielded;
//     branch to x1 with x29 = x2, x19 = x5.
// x19 is exchanged like the frame pointer because a frame with a dynamic
// allocation and 256 bytes of locals or more is addressed through it (base
// pointer), and a base pointer cannot be declared clobbered. 6 instructions
// each way (AArch64 has no exchange: adr, 4 moves, br). x20-x23 are the
// generator's (the consumer holds them, as operands). Every other register
// is declared clobbered (x18 too: a temporary on Linux). There is no red
// zone on AArch64 Linux. A consumer resume address with bit 63 set is a
// cancel request (instack.h).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DETAIL_INSTACK_AARCH64_H
#define CACS_DETAIL_INSTACK_AARCH64_H

// All but x0-x6 (operands), x19 and x29 (exchanged), x20-x23 (the
// generator's, see CACS__ISG_KEEP_DECL), sp.
#define CACS__ISG_CLOBBERS                                                     \
  "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16", "x17",    \
      "x18", "x24", "x25", "x26", "x27", "x28", "x30", "v0", "v1", "v2", "v3", \
      "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14",   \
      "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",    \
      "v25", "v26", "v27", "v28", "v29", "v30", "v31",                         \
      CACS__CLOBBER_SVE "memory", "cc"

/// Bytes of the "finished" entry before every consumer resume address (see
/// instack_x86_64.h): `bti j` (a no-op without BTI; the size must not depend
/// on the build's setting) and a branch to the asm goto label.
#define CACS__ISG_ALT_SIZE 8
#define CACS__ISG_ALT(label)                                                   \
  "hint #36\n\t"                                                               \
  "b %l[" label "]\n"                                                          \
  "1:\n\t" CACS__LANDING_PAD

/// x20-x23 belong to the generator: its yield does not clobber them, and
/// the consumer's switches take and give them back as operands
/// (CACS__ISG_KEEP_DECL in instack.h). x0: the return register.
#define CACS__ISG_KEEP_REGS "x20", "x21", "x22", "x23"
#define CACS__ISG_RET_REG "x0"

/// In lib/instack_aarch64.S (see instack_x86_64.h).
void cacs__isg_entry(void);

static CACS_ALWAYS_INLINE uint64_t cacs__isg_start(cacs_isg *g, cacs_isg_fn fn,
                                                   void *arg) {
  register uint64_t x0 __asm__("x0");
  register void *x1 __asm__("x1");
  register void *x2 __asm__("x2");
  register void *x3 __asm__("x3") = (void *)fn;
  register void *x4 __asm__("x4") = arg;
  register void *x5 __asm__("x5");
  register void *x6 __asm__("x6");
  CACS__ISG_KEEP_DECL(g);
  __asm__ goto("adr x1, 1f\n\t"
               "mov x2, x29\n\t"
               "mov x5, x19\n\t"
               "bl cacs__isg_entry\n\t" CACS__ISG_ALT("finished")
               : "=r"(x0), "=r"(x1), "=r"(x2), "+r"(x3), "+r"(x4), "=r"(x5),
                 "=r"(x6), CACS__ISG_KEEP_OPS
               :
               : CACS__ISG_CLOBBERS
               : finished);
  if (!x3)
    __builtin_unreachable(); // a resume address: lets cacs_isg_done fold
  g->pc = x3;
  g->fp = x4;
  g->bp = x6;
  CACS__ISG_KEEP_STORE(g);
  return x0;
finished:
  CACS__ISG_FINISHED(g);
}

/// CANCEL: "orr x1, x1, #(1 << 63)\n\t" (a cancel request for the pending
/// yield), or "".
#define CACS__ISG_RESUME_ASM(CANCEL)                                           \
  __asm__ goto("adr x1, 1f\n\t" CANCEL "mov x2, x29\n\t"                       \
               "mov x5, x19\n\t"                                               \
               "mov x29, x4\n\t"                                               \
               "mov x19, x6\n\t"                                               \
               "br x3\n\t" CACS__ISG_ALT("finished")                           \
               : "+r"(x0), "=&r"(x1), "=&r"(x2), "+r"(x3), "+r"(x4),           \
                 "=&r"(x5), "+r"(x6), CACS__ISG_KEEP_OPS                       \
               :                                                               \
               : CACS__ISG_CLOBBERS                                            \
               : finished)

static CACS_ALWAYS_INLINE uint64_t cacs__isg_resume(cacs_isg *g, uint64_t in,
                                                    int cancel) {
  register uint64_t x0 __asm__("x0") = in;
  register void *x1 __asm__("x1");
  register void *x2 __asm__("x2");
  register void *x3 __asm__("x3") = g->pc;
  register void *x4 __asm__("x4") = g->fp;
  register void *x5 __asm__("x5");
  register void *x6 __asm__("x6") = g->bp;
  CACS__ISG_KEEP_DECL(g);
  if (cancel)
    CACS__ISG_RESUME_ASM("orr x1, x1, #(1 << 63)\n\t");
  else
    CACS__ISG_RESUME_ASM("");
  if (!x3)
    __builtin_unreachable();
  g->pc = x3;
  g->fp = x4;
  g->bp = x6;
  CACS__ISG_KEEP_STORE(g);
  return x0;
finished:
  CACS__ISG_FINISHED(g);
}

/// (See instack_x86_64.h; fp_out makes no difference here.)
static CACS_ALWAYS_INLINE uint64_t cacs__isg_yield(cacs_isg_ctx *ctx,
                                                   uint64_t v, int fp_out) {
  (void)fp_out;
  register uint64_t x0 __asm__("x0") = v;
  register void *x1 __asm__("x1") = ctx->pc;
  register void *x2 __asm__("x2") = ctx->fp;
  register void *x3 __asm__("x3");
  register void *x4 __asm__("x4");
  register void *x5 __asm__("x5") = ctx->bp;
  register void *x6 __asm__("x6");
  __asm__ volatile("adr x3, 1f\n\t"
                   "mov x4, x29\n\t"
                   "mov x6, x19\n\t"
                   "mov x29, x2\n\t"
                   "mov x19, x5\n\t"
                   "br x1\n"
                   "1:\n\t" CACS__LANDING_PAD
                   : "+r"(x0), "+r"(x1), "=&r"(x3), "=&r"(x4), "+r"(x5),
                     "=&r"(x6)
                   // x2 is not an output: the resume hands back the
                   // consumer's frame pointer, which does not change.
                   : "r"(x2)
                   : CACS__ISG_CLOBBERS);
  ctx->pc = x1;
  ctx->bp = x5;
  return x0;
}

#endif // CACS_DETAIL_INSTACK_AARCH64_H
