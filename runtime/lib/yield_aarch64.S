//===- lib/yield_aarch64.S - cacs_yield for AArch64 AAPCS64 -----*- asm -*-===//
//
// cacs__yield_pn: the preserve_none `cacs_yield` (see coro.h and
// yield_x86_64.S, whose design this follows). Hot path, 14 instructions
// including the `ret` that lands in the resumed coroutine:
//
//   mrs tpidr_el0; add (TLS offset, high bits); ldr current; ldr next;
//   ldrb slow flag; cbnz (FP environments, ASan, shared stacks, not set up
//   yet; alone is tested there);
//   str current; stp x29, x30 (push); mov x12, sp; str sp; ldr sp;
//   mov sp, x12; ldp x29, x30 (pop); ret
//
// AArch64 cannot store or load sp directly (hence the two movs) and the
// local-exec TLS address takes three instructions (mrs, add high, low
// offset folded into the loads and stores). The store of `current` and the
// next switch's load of it therefore share a base register and offset, the
// form x86-64 adopted for its chain (yield_x86_64.S, "The chain"); whether
// an AArch64 core renames such a pair was not measured (only qemu here).
//
// Registers, and why each is or is not saved:
//   sp   stored in the coroutine.
//   x30  pushed with x29: it holds the resume point (the return address of
//        the caller's `bl`); the final `ret` goes through the x30 popped from
//        the resumed coroutine's stack.
//   x29  pushed: preserve_none keeps the frame pointer on AArch64.
//   x19  NOT saved: as rbx on x86-64 (LLVM 19 and 22 do not save a base
//        pointer in x19 around preserve_none calls; cacs's safety pass
//        shields them); cacs__yield_pn_bp saves it for other callers.
//   x18  NOT saved: an ordinary temporary on Linux (preserve_none callers
//        treat it as clobbered). Platforms reserving it (shadow call stack)
//        are not supported.
//   everything else (x0-x17, x20-x28, v0-v31 including d8-d15, NZCV):
//        clobbered, as preserve_none allows.
//   FPCR: as MXCSR on x86-64, switched by cacs__yield_slow only while a
//        CACS_CORO_SAVE_FPENV coroutine lives.
//
//===----------------------------------------------------------------------===//

#include "entry_asm.h"
#if defined(__aarch64__)
#include "coro_layout.h"

#ifdef CACS_TLS_INITIAL_EXEC
#define TLS_SETUP                                                              \
        adrp    x9, :gottprel:cacs__sched;                                     \
        ldr     x9, [x9, #:gottprel_lo12:cacs__sched];                         \
        mrs     x10, tpidr_el0;                                                \
        add     x9, x9, x10
#define SCHED(off) [x9, #off]
#else
#define TLS_SETUP                                                              \
        mrs     x9, tpidr_el0;                                                 \
        add     x9, x9, #:tprel_hi12:cacs__sched, lsl #12
#define SCHED(off) [x9, #:tprel_lo12_nc:cacs__sched+off]
#endif

        .text
        .p2align 4
        .globl  cacs__yield_pn
        .type   cacs__yield_pn,%function
cacs__yield_pn:
        .cfi_startproc
        ENTRY_LANDING
        TLS_SETUP
        ldr     x10, SCHED(CACS_SCHED_CURRENT)
        ldr     x11, [x10, #CACS_CORO_NEXT]
        ldrb    w12, SCHED(CACS_SCHED_SLOW)
        cbnz    w12, .Lslow
        // Alone (x11 == x10): the switch to itself returns to our caller;
        // before the scheduler is set up, S.slow is set (yield_x86_64.S).
        str     x11, SCHED(CACS_SCHED_CURRENT)
        stp     x29, x30, [sp, #-16]!
        .cfi_adjust_cfa_offset 16
        mov     x12, sp
        str     x12, [x10, #CACS_CORO_SP]
        ldr     x12, [x11, #CACS_CORO_SP]
        mov     sp, x12
        ldp     x29, x30, [sp], #16
        .cfi_adjust_cfa_offset -16
.Lalone:
        ret
.Lslow:
        // A sync block is open (syncblock.c): no switch, even alone.
        tbnz    w12, #1, .Lsync
        cmp     x10, x11
        b.eq    .Lalone         // alone: cacs__yield_slow must not switch
        ldrb    w12, SCHED(CACS_SCHED_OFFSTACK)
        cbnz    w12, .Loffstack
        // Default-convention C; it returns to our caller through x30.
        mov     x0, x10
        mov     x1, x11
        b       cacs__yield_slow
.Loffstack:
        // Shared stacks, no tools (core.h: offstack): suspend as the fast
        // path does, then leave this stack before running any C, so that
        // a shared-stack coroutine's saved copy ends at the saved x29/x30.
        // cacs__yield_offstack never returns: `from` is resumed by the
        // fast path's ldp/ret.
        stp     x29, x30, [sp, #-16]!
        mov     x12, sp
        str     x12, [x10, #CACS_CORO_SP]
        ldr     x12, SCHED(CACS_SCHED_SWITCHER)
        mov     sp, x12
        mov     x0, x10
        mov     x1, x11
        bl      cacs__yield_offstack
        brk     #1
.Lsync:
        b       cacs__sync_yield_abort
        .cfi_endproc
        .size   cacs__yield_pn, .-cacs__yield_pn

// The _bp entries of cacs_yield and of the waiting calls (entry_asm.h).
        CORE_SAVE_BP

// Resume the coroutine whose saved sp is x0 without saving anything.
        .p2align 4
        .globl  cacs__coro_resume
        .hidden cacs__coro_resume
        .type   cacs__coro_resume,%function
cacs__coro_resume:
        .cfi_startproc
        ENTRY_LANDING
        mov     sp, x0
        ldp     x29, x30, [sp], #16
        ret
        .cfi_endproc
        .size   cacs__coro_resume, .-cacs__coro_resume

// Where a fresh shared-stack coroutine starts (coro.c: its first frames are
// one image for all, {x29 0, x30 this}, right below the shared stack's
// top). Entered by the resume's `ret` with sp at that top; the coroutine is
// the running one. It calls entry(arg), then cacs_exit, with no frame of
// its own: what the coroutine saves at each switch-out is its entry's
// frames (cacs__trampoline and coro_main took 32 bytes more of every saved
// copy). Reached by `ret` only: no BTI landing pad. Not with a tool on:
// coro_main's ASan annotation is needed then (coro.c).
        .p2align 2
        .globl  cacs__shared_start
        .hidden cacs__shared_start
        .type   cacs__shared_start,%function
cacs__shared_start:
        .cfi_startproc
        .cfi_undefined x30
        TLS_SETUP
        ldr     x9, SCHED(CACS_SCHED_CURRENT)
        ldr     x0, [x9, #CACS_CORO_ARG]
        ldr     x10, [x9, #CACS_CORO_ENTRY]
        blr     x10
        bl      cacs_exit
        brk     #1
        .cfi_endproc
        .size   cacs__shared_start, .-cacs__shared_start

#endif // __aarch64__

// The notes in every build of this file, for whichever architecture it is
// assembled (entry_asm.h): libcacs holds both architectures' files, and one
// object without them gives a program that links the archive whole
// (--whole-archive) an executable stack and drops IBT / BTI for all of it.
        ENTRY_NOTES
