//===- lib/instack_x86_64.S - In-stack generator entry, x86-64 --*- asm -*-===//
//
// cacs__isg_entry: called by cacs_isg_start (cacs/detail/instack_x86_64.h) with
//   rdi = consumer resume address, rsi = consumer frame pointer, rcx =
//   consumer rbx, rdx = fn, r8 = arg, rsp = the consumer's stack pointer - 8 (16-aligned
//   before the call).
// It keeps the generator's cacs_isg_ctx {pc, fp, bp} in its own frame, at
// the top of the generator's frames, and calls fn(&ctx, arg). When fn
// returns the generator has ended: continue the consumer at the alternate
// entry ("finished", CACS__ISG_ALT_SIZE bytes) before the resume address it
// left in ctx last, with its frame pointer and rbx, rax = fn's value and the
// stack pointer it had at start (the generator's frames are gone).
// The return address of the call is never used (the consumer has moved on):
// CFI marks it undefined, so unwinders stop here.
//
//===----------------------------------------------------------------------===//

#include "entry_asm.h"
#if defined(__x86_64__)

        .text
        .p2align 4
        .globl  cacs__isg_entry
        .type   cacs__isg_entry,@function
cacs__isg_entry:
        .cfi_startproc
        .cfi_undefined %rip
        ENTRY_LANDING
        subq    $40, %rsp
        .cfi_adjust_cfa_offset 40
        movq    %rdi, (%rsp)            // ctx.pc
        movq    %rsi, 8(%rsp)           // ctx.fp
        movq    %rcx, 16(%rsp)          // ctx.bp
        movq    %rsp, %rdi
        movq    %r8, %rsi
        callq   *%rdx
        movq    (%rsp), %rdi
        movq    8(%rsp), %rbp
        movq    16(%rsp), %rbx
        addq    $48, %rsp               // and the return address
        .cfi_adjust_cfa_offset -48
        subq    $9, %rdi                // CACS__ISG_ALT_SIZE
        jmpq    *%rdi
        .cfi_endproc
        .size   cacs__isg_entry, .-cacs__isg_entry

// cacs__isg_cancelled_c (cacs/instack.h): the cancel path of a C
// generator's yield, which nothing takes; should it happen, say so and abort.
        .p2align 4
        .globl  cacs__isg_cancelled_c
        .type   cacs__isg_cancelled_c,@function
cacs__isg_cancelled_c:
        .cfi_startproc
        ENTRY_LANDING
        pushq   %rax                    // align the stack for the calls
        .cfi_adjust_cfa_offset 8
        movl    $2, %edi
        leaq    .Lcancelled_msg(%rip), %rsi
        movl    $.Lcancelled_len, %edx
        callq   write@PLT
        callq   abort@PLT
        .cfi_endproc
        .size   cacs__isg_cancelled_c, .-cacs__isg_cancelled_c

        .section .rodata
.Lcancelled_msg:
        .asciz  "cacs: a C in-stack generator was resumed with a cancel request\n"
        .set    .Lcancelled_len, . - .Lcancelled_msg - 1
        .text

#endif // __x86_64__

// The notes in every build of this file, for whichever architecture it is
// assembled (entry_asm.h): libcacs holds both architectures' files, and one
// object without them gives a program that links the archive whole
// (--whole-archive) an executable stack and drops IBT / BTI for all of it.
        ENTRY_NOTES
