//===- lib/trampoline_aarch64.S - Start of a fresh context ----*- asm -*-===//
//
// cacs__trampoline: where the first switch into a context prepared by
// cacs_context_init (switch.c) or a fresh coroutine (coro.c) lands. It is
// entered with sp 16-byte aligned pointing at {fn, arg}, x29 = 0 and x0 =
// the value carried by the switch, and calls fn(arg, value). fn never
// returns (it switches away for good); brk catches one that does.
//
// The CFI marks the return address undefined, so unwinders, debuggers and
// profilers stop here. Switches reach it by `br` (cacs_switch) or `ret`:
// under BTI it starts with `bti j` (hint #36), the landing pad for br,
// not the `bti c` of the other entries, which are called.
//
//===----------------------------------------------------------------------===//

#include "entry_asm.h"
#if defined(__aarch64__)
#include "coro_layout.h"

#if defined(__ARM_FEATURE_BTI_DEFAULT) && __ARM_FEATURE_BTI_DEFAULT
#define JUMP_LANDING hint #36
#else
#define JUMP_LANDING
#endif

        .text
        .p2align 2
        .globl  cacs__trampoline
        .hidden cacs__trampoline
        .type   cacs__trampoline,%function
cacs__trampoline:
        .cfi_startproc
        .cfi_undefined x30
        JUMP_LANDING
        mov     x1, x0
        ldp     x9, x0, [sp]
        blr     x9
        brk     #1
        .cfi_endproc
        .size   cacs__trampoline, .-cacs__trampoline

// cacs__bounded_start: where a fresh coroutine on an exact stack lands
// (coro.c), reached like cacs__trampoline, with sp at its frame
// (coro_layout.h: CACS_BOUNDED_*). It calls the entry itself, so that the
// entry's bound starts right below that frame, and when the entry returns
// leaves for the thread's exit stack to run cacs_exit there: cacs_exit's
// calls are not in the bound (stack_exact.c).
        .p2align 2
        .globl  cacs__bounded_start
        .hidden cacs__bounded_start
        .type   cacs__bounded_start,%function
cacs__bounded_start:
        .cfi_startproc
        .cfi_undefined x30
        JUMP_LANDING
        ldr     x0, [sp, #CACS_BOUNDED_ARG]
        ldr     x9, [sp, #CACS_BOUNDED_ENTRY]
        blr     x9
        ldr     x9, [sp, #CACS_BOUNDED_EXIT]
        mov     sp, x9
        mov     x29, xzr
        bl      cacs_exit
        brk     #1
        .cfi_endproc
        .size   cacs__bounded_start, .-cacs__bounded_start

// cacs__pool_bounded_start: the same for a pool coroutine on an exact
// stack, with its task in x19 and no frame; see trampoline_x86_64.S. x18 is
// not touched (the AArch64 libcacs never uses it).
        .p2align 2
        .globl  cacs__pool_bounded_start
        .hidden cacs__pool_bounded_start
        .type   cacs__pool_bounded_start,%function
cacs__pool_bounded_start:
        .cfi_startproc
        .cfi_undefined x30
        JUMP_LANDING
        ldr     x0, [x19, #CACS_PTASK_ARG]
        ldr     x9, [x19, #CACS_PTASK_ENTRY]
        blr     x9
        mov     x0, x19
#ifdef CACS_TLS_INITIAL_EXEC
        adrp    x9, :gottprel:cacs__sched
        ldr     x9, [x9, #:gottprel_lo12:cacs__sched]
        mrs     x10, tpidr_el0
        add     x9, x9, x10
        ldr     x9, [x9, #CACS_SCHED_POOL_HOME]
#else
        mrs     x9, tpidr_el0
        add     x9, x9, #:tprel_hi12:cacs__sched+CACS_SCHED_POOL_HOME, lsl #12
        ldr     x9, [x9, #:tprel_lo12_nc:cacs__sched+CACS_SCHED_POOL_HOME]
#endif
        ldr     x9, [x9]
        sub     x9, x9, #CACS_SYSTEM_STACK_GAP
        and     sp, x9, #~15
        mov     x29, xzr
        bl      cacs__pool_task_end
        brk     #1
        .cfi_endproc
        .size   cacs__pool_bounded_start, .-cacs__pool_bounded_start

#endif // __aarch64__

// The notes in every build of this file, for whichever architecture it is
// assembled (entry_asm.h): libcacs holds both architectures' files, and one
// object without them gives a program that links the archive whole
// (--whole-archive) an executable stack and drops IBT / BTI for all of it.
        ENTRY_NOTES
