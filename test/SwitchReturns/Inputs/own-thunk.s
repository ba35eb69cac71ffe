# A program's own __x86_return_thunk (kernel-style code built with
# -mfunction-return=thunk-extern): a plain return, and a count of its uses.
        .text
        .globl  __x86_return_thunk
        .type   __x86_return_thunk,@function
__x86_return_thunk:
        .cfi_startproc
        incq    own_thunk_uses(%rip)
        ret
        .cfi_endproc
        .size   __x86_return_thunk, .-__x86_return_thunk
        .bss
        .globl  own_thunk_uses
own_thunk_uses:
        .quad   0
        .section .note.GNU-stack,"",@progbits
