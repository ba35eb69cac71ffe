//===- lib/effect_aarch64.S - Perform and resume, AArch64 fast paths -*- asm -*-===//
//
// cacs__effect_perform_pn and cacs__effect_resume_pn on AArch64, where
// effect_layout.h's CACS_EFFECT_ASM holds: the same round as
// effect_x86_64.S (read its header for the cases and the tests, which are
// effect.c's fast paths' tests, named there), in the same order; every
// other case branches, with every register as the caller left it, to the
// C entry of lib/effect.c (cacs__effect_*_c). This file differs only
// where the architecture does:
//
//   Arguments (preserve_none, AArch64): perform(e = x20, payload = x21),
//     resume(k = x20, handled = x21, result = x22); the request comes
//     back in x0:x1, the result in x0. x9-x15 are scratch: neither C path
//     reads them (its arguments are x20-x22).
//   Resume points are the C paths' (CACS__TAIL_SAVE_FP and the header's
//     CACS__TAIL_JUMP_ASM, which loads every field): sp, pc (x30, the
//     return address of our caller's `bl`), fp (x29), bp (x19, which
//     LLVM does not save around a preserve_none call, cacs/switch.h) and
//     pr (x18: libcacs is built with -ffixed-x18, and a coroutine's
//     shadow call stack travels in it, cacs_effect_create). So either
//     side may be resumed by a C path's tail jump, and the C paths' need
//     no change for this file. The jump is `br`, as the header's: the
//     target is not the return of the call on this stack.
//   The call path (effect_x86_64.S's, from the same test: the sync depth
//     fails only by k's SYNC_CALLS bit, calls[0] or calls[1] is e's):
//     the call keeps k, p, up and up's old `calling` in x20-x23, which
//     the C convention preserves (our caller's preserve_none call keeps
//     nothing there), and x29 and x30 in a frame record on our caller's
//     stack, as the C convention's call needs; x18 as the C path leaves
//     it (the call's to keep, as any call of libcacs's). The thread
//     pointer is read again after the call, which may have moved the
//     coroutine to another thread (a pool's worker).
//   Thread-local blocks (local-exec only): the thread pointer (mrs), then
//     per block its high 12 bits of offset (add); the low 12 go into the
//     loads and stores, except for effect_thread, whose full address the
//     indexed load of top_lo needs.
//
//===----------------------------------------------------------------------===//

#include "effect_layout.h"
#include "entry_asm.h"
#if CACS_EFFECT_ASM && defined(__aarch64__)
#include "coro_layout.h"

// pend and owner are read in a pair (ldp), as are a call's fn and env.
#if CACS_ET_OWNER != CACS_ET_PEND + 8
#error "effect_layout.h: pend and owner are adjacent words"
#endif
#if CACS_CALL_ENV != CACS_CALL_FN + 8
#error "effect_layout.h: a call's fn and env are adjacent words"
#endif

// x10 = &cacs__effect_thread, from the thread pointer in x9.
#define ET_ADDR                                                                \
        add     x10, x9, #:tprel_hi12:cacs__effect_thread, lsl #12;            \
        add     x10, x10, #:tprel_lo12_nc:cacs__effect_thread
// \reg = the high part of a block's address; SCHED(\reg, off) and
// SYNCBLK(\reg, off) its fields.
#define SCHED_HI(reg) add reg, x9, #:tprel_hi12:cacs__sched, lsl #12
#define SCHED(reg, off) [reg, #:tprel_lo12_nc:cacs__sched+off]
#define SYNCBLK_HI(reg) add reg, x9, #:tprel_hi12:cacs__syncblk, lsl #12
#define SYNCBLK(reg, off) [reg, #:tprel_lo12_nc:cacs__syncblk+off]

// Suspend our caller into the cacs_context at \off(\base): sp, the return
// address, fp, bp and pr (CACS__TAIL_SAVE_FP and the jump's stores).
.macro SUSPEND off, base
        mov     x15, sp
        stp     x15, x30, [\base, #\off+CACS_CTX_SP]
        stp     x29, x19, [\base, #\off+CACS_CTX_FP]
        str     x18, [\base, #\off+CACS_CTX_PR]
.endm
// Continue the cacs_context at \off(\base) (CACS__TAIL_JUMP_ASM's loads).
.macro CONTINUE off, base
        ldp     x29, x19, [\base, #\off+CACS_CTX_FP]
        ldr     x18, [\base, #\off+CACS_CTX_PR]
        ldp     x15, x14, [\base, #\off+CACS_CTX_SP]
        mov     sp, x15
        br      x14
.endm

        .text
        .p2align 4
        .globl  cacs__effect_perform_pn
        .type   cacs__effect_perform_pn,%function
cacs__effect_perform_pn:
        .cfi_startproc
        ENTRY_LANDING
        mrs     x9, tpidr_el0
        ET_ADDR
        ldp     x11, x13, [x10, #CACS_ET_PEND]  // pend, owner
        cbnz    x11, 1f
        ldr     w11, [x20, #CACS_EFFECT_SLOT]
        ldr     x12, [x10, x11, lsl #3]         // k (top_lo at 0)
        cbz     x12, 1f
        SCHED_HI(x14)
        ldr     x14, SCHED(x14, CACS_SCHED_CURRENT)
        cmp     x13, x14
        b.ne    1f
        SYNCBLK_HI(x14)
        ldr     w14, SYNCBLK(x14, CACS_SYNCBLK_DEPTH)
        ldr     w11, [x12, #CACS_EK_SYNC_BASE]
        cmp     w11, w14
        b.ne    4f
        str     x12, [x10, #CACS_ET_PEND]       // pend = k (cur stays p)
        SUSPEND CACS_EK_SELF, x12
        mov     x0, x20                         // the request: effect,
        mov     x1, x21                         // payload
        CONTINUE CACS_EK_CALLER, x12
1:
        b       cacs__effect_perform_c

        // A call handler (effect.c's call_handler): k's sync base is the
        // depth with SYNC_CALLS (no tool, no block since its resume), and
        // calls[0] or calls[1] is e's (find_call).
4:
        orr     w14, w14, #CACS_SYNC_CALLS
        cmp     w11, w14
        b.ne    1b
        ldr     w11, [x20, #CACS_EFFECT_ID]
        ldr     x15, [x12, #CACS_EK_CALLS]
        ldr     w14, [x15, #CACS_CALL_ID]       // calls[0].id (ncalls >= 1)
        cmp     w14, w11
        b.eq    5f
        ldr     w14, [x12, #CACS_EK_NCALLS]
        cmp     w14, #2
        b.lo    1b
        add     x15, x15, #CACS_CALL_SIZE
        ldr     w14, [x15, #CACS_CALL_ID]       // calls[1].id
        cmp     w14, w11
        b.ne    1b
5:
        // leave: pend = k (cur stays p); k->in_call; up (k->parent)
        // ->calling = k, its old value kept in x23. Across the call (C
        // convention): k in x20, p in x21, up in x22.
        mov     x0, x21                         // payload
        ldp     x16, x1, [x15, #CACS_CALL_FN]   // fn, env
        ldr     x13, [x10, #CACS_ET_CUR]        // p
        ldr     x22, [x12, #CACS_EK_PARENT]     // up
        str     x12, [x10, #CACS_ET_PEND]
        mov     w14, #CACS_CALL_RUNS
        strb    w14, [x12, #CACS_EK_IN_CALL]
        mov     x20, x12
        mov     x21, x13
        cbz     x22, 6f
        ldr     x23, [x22, #CACS_EK_CALLING]
        str     x12, [x22, #CACS_EK_CALLING]
6:
        stp     x29, x30, [sp, #-16]!
        .cfi_def_cfa_offset 16
        .cfi_offset w29, -16
        .cfi_offset w30, -8
        blr     x16
        strb    wzr, [x20, #CACS_EK_IN_CALL]
        cbz     x22, 7f
        str     x23, [x22, #CACS_EK_CALLING]
7:
        mrs     x9, tpidr_el0
        ET_ADDR
        ldr     x11, [x10, #CACS_ET_PEND]
        cmp     x11, x20
        b.ne    8f
        str     xzr, [x10, #CACS_ET_PEND]       // pend = NULL: the segment's
        .cfi_remember_state                     // entries are in place, cur
        ldp     x29, x30, [sp], #16             // is p
        .cfi_def_cfa_offset 0
        .cfi_restore w29
        .cfi_restore w30
        ret
8:
        .cfi_restore_state
        mov     x22, x0                         // the call touched the
        mov     x0, x20                         // table: rejoin in C
        mov     x1, x21
        bl      cacs__effect_call_rejoin
        mov     x0, x22
        ldp     x29, x30, [sp], #16
        .cfi_def_cfa_offset 0
        .cfi_restore w29
        .cfi_restore w30
        ret
        .cfi_endproc
        .size   cacs__effect_perform_pn, .-cacs__effect_perform_pn

        .p2align 4
        .globl  cacs__effect_resume_pn
        .type   cacs__effect_resume_pn,%function
cacs__effect_resume_pn:
        .cfi_startproc
        ENTRY_LANDING
        mrs     x9, tpidr_el0
        ET_ADDR
        ldp     x11, x14, [x10, #CACS_ET_PEND]  // pend, owner
        cmp     x11, x20
        b.ne    1f
        ldp     x12, x13, [x20, #CACS_EK_SET0]  // k's set[0], set[1]
        ldr     x11, [x21]
        cmp     x11, x12
        b.ne    1f
        ldr     x11, [x21, #8]                  // handled[0] is not NULL
        cmp     x11, x13
        b.ne    1f
        cbz     x11, 2f                         // a set of one
        ldr     w11, [x20, #CACS_EK_NSAVED]
        cmp     w11, #2
        b.ne    1f                              // of three or more
        ldr     x11, [x21, #16]
        cbnz    x11, 1f
2:
        // The owner: the running coroutine, falling through; a chain that
        // starts, or a foreign resume, is the C path's (own()).
        SCHED_HI(x13)
        ldr     x13, SCHED(x13, CACS_SCHED_CURRENT)
        cmp     x14, x13
        b.ne    1f
        SYNCBLK_HI(x13)
        ldr     w13, SYNCBLK(x13, CACS_SYNCBLK_DEPTH)
        str     w13, [x20, #CACS_EK_SYNC_BASE]
        str     xzr, [x10, #CACS_ET_PEND]       // pend = NULL (cur is p)
        SUSPEND CACS_EK_CALLER, x20
        mov     x0, x22                         // what the perform returns
        CONTINUE CACS_EK_SELF, x20
1:
        b       cacs__effect_resume_c
        .cfi_endproc
        .size   cacs__effect_resume_pn, .-cacs__effect_resume_pn
#endif // CACS_EFFECT_ASM && __aarch64__

// The notes in every build of this file, for whichever architecture it is
// assembled (entry_asm.h): libcacs holds both architectures' files, and one
// object without them gives a program that links the archive whole
// (--whole-archive) an executable stack and drops IBT / BTI for all of it.
        ENTRY_NOTES
