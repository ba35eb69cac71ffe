//===- lib/instack_aarch64.S - In-stack generator entry, AArch64 -*- asm -*-===//
//
// cacs__isg_entry (see instack_x86_64.S): called with x1 = consumer resume
// address, x2 = consumer frame pointer, x5 = consumer x19, x3 = fn,
// x4 = arg, sp = the consumer's stack pointer. Ends the generator by
// branching to the alternate entry ("finished", CACS__ISG_ALT_SIZE bytes)
// before the latest consumer resume address with x0 = fn's value, x29 and
// x19 the consumer's, and sp as at start.
//
//===----------------------------------------------------------------------===//

#include "entry_asm.h"
#if defined(__aarch64__)

        .text
        .p2align 4
        .globl  cacs__isg_entry
        .type   cacs__isg_entry,%function
cacs__isg_entry:
        .cfi_startproc
        .cfi_undefined x30
        ENTRY_LANDING
        sub     sp, sp, #32
        .cfi_adjust_cfa_offset 32
        stp     x1, x2, [sp]            // ctx.pc, ctx.fp
        str     x5, [sp, #16]           // ctx.bp
        mov     x0, sp
        mov     x1, x4
        blr     x3
        ldp     x1, x29, [sp]
        ldr     x19, [sp, #16]
        add     sp, sp, #32
        .cfi_adjust_cfa_offset -32
        sub     x1, x1, #8              // CACS__ISG_ALT_SIZE
        br      x1
        .cfi_endproc
        .size   cacs__isg_entry, .-cacs__isg_entry

// cacs__isg_cancelled_c (cacs/instack.h): the cancel path of a C
// generator's yield, which nothing takes; should it happen, say so and abort.
        .p2align 4
        .globl  cacs__isg_cancelled_c
        .type   cacs__isg_cancelled_c,%function
cacs__isg_cancelled_c:
        .cfi_startproc
        ENTRY_LANDING
        stp     x29, x30, [sp, #-16]!
        .cfi_def_cfa_offset 16
        .cfi_offset x29, -16
        .cfi_offset x30, -8
        mov     x29, sp
        mov     x0, #2
        adrp    x1, .Lcancelled_msg
        add     x1, x1, :lo12:.Lcancelled_msg
        mov     x2, #.Lcancelled_len
        bl      write
        bl      abort
        .cfi_endproc
        .size   cacs__isg_cancelled_c, .-cacs__isg_cancelled_c

        .section .rodata
.Lcancelled_msg:
        .asciz  "cacs: a C in-stack generator was resumed with a cancel request\n"
        .set    .Lcancelled_len, . - .Lcancelled_msg - 1
        .text

#endif // __aarch64__

// The notes in every build of this file, for whichever architecture it is
// assembled (entry_asm.h): libcacs holds both architectures' files, and one
// object without them gives a program that links the archive whole
// (--whole-archive) an executable stack and drops IBT / BTI for all of it.
        ENTRY_NOTES
