//===- lib/sysstack_x86_64.S - A call on another stack ------*- asm -*-===//
//
// cacs__sysstack_call(fn, arg, sp) (sysstack.c): calls fn(arg) with the
// stack pointer at sp (16-byte aligned) and returns on the caller's stack.
//
// The frame is an ordinary rbp frame: rbp keeps the caller's stack pointer
// across the call (fn preserves it), and the CFA is defined from rbp, not
// from rsp, for the whole time rsp is on the other stack. So unwinders
// (the C++ runtime, gdb, ASan's and perf's frame-pointer walks) go from fn
// back through this frame into the caller's frames on the coroutine's
// stack, as across any call.
//
//   on the caller's stack:   [rbp+8] return address  [rbp] caller's rbp
//   on the other stack:      [sp-8] return address into this function
//
//===----------------------------------------------------------------------===//

#include "entry_asm.h"
#if defined(__x86_64__)

        .text
        .p2align 4
        .globl  cacs__sysstack_call
        .hidden cacs__sysstack_call
        .type   cacs__sysstack_call,@function
cacs__sysstack_call:
        .cfi_startproc
        .cfi_signal_frame
        ENTRY_LANDING
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        movq    %rdx, %rsp
        movq    %rdi, %rax
        movq    %rsi, %rdi
        callq   *%rax
        movq    %rbp, %rsp
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        retq
        .cfi_endproc
        .size   cacs__sysstack_call, .-cacs__sysstack_call

#endif // __x86_64__

// The notes in every build of this file, for whichever architecture it is
// assembled (entry_asm.h): libcacs holds both architectures' files, and one
// object without them gives a program that links the archive whole
// (--whole-archive) an executable stack and drops IBT / BTI for all of it.
        ENTRY_NOTES
