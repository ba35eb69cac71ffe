//===- lib/instack_x86_64.S - In-stack generator entry, x86-64 --*- asm -*-===//
//
// cacs__isg_entry: called by cacs_isg_start (cacs/instack_x86_64.h) with
//   rdi = consumer resume address, rsi = consumer frame pointer, rcx =
//   consumer rbx, rdx = fn, r8 = arg, rsp = the consumer's stack pointer - 8 (16-aligned
//   before the call).
// It keeps the generator's cacs_isg_ctx {pc, fp} in its own frame, at the
// top of the generator's frames, and calls fn(&ctx, arg). When fn returns
// the generator has ended: resume the consumer at the address it left in
// ctx last, with its frame pointer and rbx, rax = fn's value, rdx = 0 (finished) and
// the stack pointer it had at start (the generator's frames are gone).
// The return address of the call is never used (the consumer has moved on):
// CFI marks it undefined, so unwinders stop here.
//
//===----------------------------------------------------------------------===//

#if defined(__x86_64__)
#if defined(__CET__) && (__CET__ & 1)
#define ENDBR endbr64
#else
#define ENDBR
#endif

        .text
        .p2align 4
        .globl  cacs__isg_entry
        .type   cacs__isg_entry,@function
cacs__isg_entry:
        .cfi_startproc
        .cfi_undefined %rip
        ENDBR
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
        xorl    %edx, %edx
        jmpq    *%rdi
        .cfi_endproc
        .size   cacs__isg_entry, .-cacs__isg_entry

#if defined(__CET__) && (__CET__ & 1)
        .section .note.gnu.property,"a"
        .p2align 3
        .long   4
        .long   16
        .long   5
        .asciz  "GNU"
        .long   0xc0000002
        .long   4
        .long   1
        .p2align 3
#endif
        .section .note.GNU-stack,"",@progbits
#endif // __x86_64__
