//===- lib/trampoline_x86_64.S - Start of a fresh context -----*- asm -*-===//
//
// cacs__trampoline: where the first switch into a context prepared by
// cacs_context_init (switch.c) or a fresh coroutine (coro.c) lands. It is
// entered with rsp 16-byte aligned pointing at {fn, arg}, rbp = 0 and
// rax = the value carried by the switch, and calls fn(arg, value). fn never
// returns (it switches away for good); ud2 catches one that does.
//
// The CFI marks the return address undefined, so unwinders, debuggers and
// profilers stop here instead of walking into whatever lies above the
// stack. A switch reaches it by an indirect jump (a generator's first
// resume) or a `ret` (a coroutine's first cacs_yield): under CET IBT it
// starts with endbr64.
//
//===----------------------------------------------------------------------===//

#include "entry_asm.h"
#if defined(__x86_64__)
#include "coro_layout.h"

        .text
        .p2align 4
        .globl  cacs__trampoline
        .hidden cacs__trampoline
        .type   cacs__trampoline,@function
cacs__trampoline:
        .cfi_startproc
        .cfi_undefined %rip
        ENTRY_LANDING
        movq    8(%rsp), %rdi
        movq    %rax, %rsi
        callq   *(%rsp)
        ud2
        .cfi_endproc
        .size   cacs__trampoline, .-cacs__trampoline

// cacs__bounded_start: where a fresh coroutine on an exact stack lands
// (coro.c), reached like cacs__trampoline, with rsp at its frame
// (coro_layout.h: CACS_BOUNDED_*). It calls the entry itself, so that the
// entry's bound starts right below that frame, and when the entry returns
// leaves for the thread's exit stack to run cacs_exit there: cacs_exit's
// calls are not in the bound (stack_exact.c).
        .p2align 4
        .globl  cacs__bounded_start
        .hidden cacs__bounded_start
        .type   cacs__bounded_start,@function
cacs__bounded_start:
        .cfi_startproc
        .cfi_undefined %rip
        ENTRY_LANDING
        movq    CACS_BOUNDED_ARG(%rsp), %rdi
        callq   *CACS_BOUNDED_ENTRY(%rsp)
        movq    CACS_BOUNDED_EXIT(%rsp), %rsp
        xorl    %ebp, %ebp
        callq   cacs_exit@PLT
        ud2
        .cfi_endproc
        .size   cacs__bounded_start, .-cacs__bounded_start

// cacs__pool_bounded_start: the same for a pool coroutine on an exact
// stack (pool_worker.c), with no frame: entered at the stack's top with its
// task in rbx (coro_layout.h, CACS_PTASK_*), which the entry keeps. When the
// entry returns, the coroutine may be on another worker than the one that
// started it (CACS_POOL_MIGRATE_RUNNING): it leaves for the system
// stack of the worker it is on, found through the thread's scheduler
// (cacs__sched.pool_home: the worker loop's context, whose saved stack
// pointer it goes CACS_SYSTEM_STACK_GAP below), and ends there
// (cacs__pool_task_end, pool_park.c), which switches to that loop for good.
// Nothing of libcacs's but the frame is on the exact stack.
// TLS: local-exec, as yield_x86_64.S (CACS_TLS_INITIAL_EXEC for a shared
// object).
        .p2align 4
        .globl  cacs__pool_bounded_start
        .hidden cacs__pool_bounded_start
        .type   cacs__pool_bounded_start,@function
cacs__pool_bounded_start:
        .cfi_startproc
        .cfi_undefined %rip
        ENTRY_LANDING
        movq    CACS_PTASK_ARG(%rbx), %rdi
        callq   *CACS_PTASK_ENTRY(%rbx)
        movq    %rbx, %rdi
#ifdef CACS_TLS_INITIAL_EXEC
        movq    cacs__sched@gottpoff(%rip), %rax
        movq    %fs:CACS_SCHED_POOL_HOME(%rax), %rax
#else
        movq    %fs:cacs__sched@tpoff+CACS_SCHED_POOL_HOME, %rax
#endif
        movq    (%rax), %rsp
        subq    $CACS_SYSTEM_STACK_GAP, %rsp
        andq    $-16, %rsp
        xorl    %ebp, %ebp
        callq   cacs__pool_task_end
        ud2
        .cfi_endproc
        .size   cacs__pool_bounded_start, .-cacs__pool_bounded_start

#endif // __x86_64__

// The notes in every build of this file, for whichever architecture it is
// assembled (entry_asm.h): libcacs holds both architectures' files, and one
// object without them gives a program that links the archive whole
// (--whole-archive) an executable stack and drops IBT / BTI for all of it.
        ENTRY_NOTES
