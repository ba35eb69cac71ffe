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

#if defined(__x86_64__)
#include "entry_asm.h"

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

        ENTRY_NOTES
#endif // __x86_64__
