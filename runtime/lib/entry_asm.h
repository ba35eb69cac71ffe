//===- lib/entry_asm.h - Shared by the assembly entries ---------*- asm -*-===//
//
// Included by every assembly file of libcacs (<name>_<arch>.S,
// io_entries.S), also where the file's own architecture is not the one
// being assembled (the file is then empty but for ENTRY_NOTES):
//
//   ENTRY_LANDING     endbr64 / bti c, when the build enables CET IBT / BTI
//   SAVE_BP entry     defines entry_bp: `entry` for callers whose compiler
//                     may keep a base pointer in rbx / x19 across a
//                     preserve_none call without saving it (stock clang
//                     without the cacs passes, ASan; cacs/coro.h binds them
//                     there). It saves the register around a call of
//                     `entry`; the arguments (r12, r13, ... / x20, x21, ...)
//                     and the result (rax / x0) pass through untouched. The
//                     nested call keeps the suspended-stack layout of
//                     cacs__yield_pn (coro_layout.h), through which every
//                     entry switches.
//   CORE_SAVE_BP      the _bp entries of cacs_yield and of the waiting
//                     calls of cacs/coro.h (wait.c, join.c), made by
//                     yield_<arch>.S (the I/O module's are in
//                     io_entries.S; cacs/sync.h has none)
//   ENTRY_NOTES       the GNU property note (IBT / BTI) and the
//                     non-executable-stack note, at the end of a file
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_ENTRY_ASM_H
#define CACS_LIB_ENTRY_ASM_H

#if defined(__x86_64__)

#if defined(__CET__) && (__CET__ & 1)
#define ENTRY_LANDING endbr64
#define BP_JMP_RDX notrack jmpq *%rdx
#else
#define ENTRY_LANDING
#define BP_JMP_RDX jmpq *%rdx
#endif

.macro SAVE_BP entry
        .text
        .p2align 4
        .globl  \entry\()_bp
        .type   \entry\()_bp,@function
\entry\()_bp:
        .cfi_startproc
        ENTRY_LANDING
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbx, 0
        callq   \entry
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbx
        // This return follows a switch: `pop; jmp`, not `ret` (see
        // yield_x86_64.S); notrack under IBT, the target is a return site.
        popq    %rdx
        .cfi_adjust_cfa_offset -8
        BP_JMP_RDX
        .cfi_endproc
        .size   \entry\()_bp, .-\entry\()_bp
.endm

// IBT only: resumption by `ret` into another stack is not shadow-stack
// compatible (SHSTK unsupported), so SHSTK is not claimed.
.macro ENTRY_NOTES
#if defined(__CET__) && (__CET__ & 1)
        .section .note.gnu.property,"a"
        .p2align 3
        .long   4
        .long   16
        .long   5               // NT_GNU_PROPERTY_TYPE_0
        .asciz  "GNU"
        .long   0xc0000002      // GNU_PROPERTY_X86_FEATURE_1_AND
        .long   4
        .long   1               // GNU_PROPERTY_X86_FEATURE_1_IBT
        .p2align 3
#endif
        .section .note.GNU-stack,"",@progbits
.endm

#elif defined(__aarch64__)

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define ENTRY_LANDING hint #34
#else
#define ENTRY_LANDING
#endif

.macro SAVE_BP entry
        .text
        .p2align 4
        .globl  \entry\()_bp
        .type   \entry\()_bp,%function
\entry\()_bp:
        .cfi_startproc
        ENTRY_LANDING
        stp     x19, x30, [sp, #-16]!
        .cfi_adjust_cfa_offset 16
        .cfi_rel_offset x19, 0
        .cfi_rel_offset x30, 8
        bl      \entry
        ldp     x19, x30, [sp], #16
        .cfi_adjust_cfa_offset -16
        .cfi_restore x19
        .cfi_restore x30
        ret
        .cfi_endproc
        .size   \entry\()_bp, .-\entry\()_bp
.endm

.macro ENTRY_NOTES
#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
        .section .note.gnu.property,"a"
        .p2align 3
        .long   4
        .long   16
        .long   5               // NT_GNU_PROPERTY_TYPE_0
        .asciz  "GNU"
        .long   0xc0000000      // GNU_PROPERTY_AARCH64_FEATURE_1_AND
        .long   4
        .long   1               // GNU_PROPERTY_AARCH64_FEATURE_1_BTI
        .p2align 3
#endif
        .section .note.GNU-stack,"",%progbits
.endm

#else

// Another target: the files are empty there; still no executable stack.
.macro ENTRY_NOTES
        .section .note.GNU-stack,"",%progbits
.endm

#endif

.macro CORE_SAVE_BP
        SAVE_BP cacs__yield_pn
        SAVE_BP cacs__park_pn
        SAVE_BP cacs__park_timeout_pn
        SAVE_BP cacs__park_until_pn
        SAVE_BP cacs__sleep_pn
        SAVE_BP cacs__join_pn
.endm

#endif // CACS_LIB_ENTRY_ASM_H
