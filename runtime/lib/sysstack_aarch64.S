//===- lib/sysstack_aarch64.S - A call on another stack -----*- asm -*-===//
//
// cacs__sysstack_call(fn, arg, sp) (sysstack.c): calls fn(arg) with the
// stack pointer at sp (16-byte aligned) and returns on the caller's stack.
//
// The frame is an ordinary frame record: x29 keeps the caller's stack
// pointer across the call (fn preserves it), and the CFA is defined from
// x29, not from sp, for the whole time sp is on the other stack. So
// unwinders (the C++ runtime, gdb, frame-record walks) go from fn back
// through this frame into the caller's frames on the coroutine's stack.
//
//   on the caller's stack:   [x29] caller's x29  [x29+8] return address
//
//===----------------------------------------------------------------------===//

#include "entry_asm.h"
#if defined(__aarch64__)

        .text
        .p2align 2
        .globl  cacs__sysstack_call
        .hidden cacs__sysstack_call
        .type   cacs__sysstack_call,%function
cacs__sysstack_call:
        .cfi_startproc
        .cfi_signal_frame
        ENTRY_LANDING
        stp     x29, x30, [sp, #-16]!
        .cfi_def_cfa_offset 16
        .cfi_offset x29, -16
        .cfi_offset x30, -8
        mov     x29, sp
        .cfi_def_cfa w29, 16
        mov     sp, x2
        mov     x9, x0
        mov     x0, x1
        blr     x9
        mov     sp, x29
        .cfi_def_cfa wsp, 16
        ldp     x29, x30, [sp], #16
        .cfi_def_cfa_offset 0
        .cfi_restore x29
        .cfi_restore x30
        ret
        .cfi_endproc
        .size   cacs__sysstack_call, .-cacs__sysstack_call

#endif // __aarch64__

// The notes in every build of this file, for whichever architecture it is
// assembled (entry_asm.h): libcacs holds both architectures' files, and one
// object without them gives a program that links the archive whole
// (--whole-archive) an executable stack and drops IBT / BTI for all of it.
        ENTRY_NOTES
