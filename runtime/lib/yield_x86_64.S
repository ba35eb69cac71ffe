//===- lib/yield_x86_64.S - cacs_yield for x86-64 SysV ----------*- asm -*-===//
//
// cacs__yield_pn: the preserve_none `cacs_yield` (see coro.h). Round-robin:
// switch to current->next. Hot path, 12 instructions including the jump
// that lands in the resumed coroutine:
//
//   mov  %fs:0 -> r11 (the thread pointer: see "The chain" below)
//   mov  current -> rax; mov rax->next -> rcx
//   cmpb slow flag; jne (FP environments, ASan, shared stacks, or not set
//        up yet: the slow branch, which also returns at once when alone)
//   mov  rcx -> current
//   mov rbp -> -8(rsp); mov rsp -> rax->sp; mov rcx->sp -> rsp;
//   mov -8(rsp) -> rbp; pop rdx; jmp *rdx
//
// cacs__yield_pn_none, for callers whose call carries the empty register
// mask (-fpreserve-none-callee-saved=none, LLVM 22): the same without the
// store of rbp, 11 instructions.
//
// The chain (issue 35): from one switch to the next, the only value that
// carries over is `current`: each switch loads what the previous one
// stored there, then its `next`. That store -> load -> load recurrence
// bounds a ring's switch rate; the loads of `to->sp` and of the resume
// address hang off it and overlap with the next switch (lengthening them
// by a load changed nothing measurable; lengthening the recurrence by one
// cost 1.4 ns per switch: bench/results/ANALYSIS.md). So the accesses to
// the scheduler go through a base register holding the thread pointer
// (read from %fs:0, which nothing stores to: that load is off the chain)
// rather than %fs:disp32. On AMD family 26 a store and a later load with
// the same base register and displacement are renamed, the load taking
// the stored value without waiting for the store; with the %fs: segment
// and no base register they are not, and the forwarding took ~2 ns. A
// ring of one function went from 3.3 to 2.1 ns per switch for the one
// instruction more. Where the coroutines resume at different sites
// (ping-pong, a ring of different functions) the bound is then the one
// `jmp *%rdx` below, shared by every switch, whose target changes at each
// (bench/results/ANALYSIS.md: what a jump at each site would give).
//
// Resuming by `pop; jmp`, not `ret` (issue 22): the return stack buffer
// predicts a `ret` to go back to the call site that pushed its top entry,
// i.e. to the caller of *this* yield; that is right only when both sides
// yield from the same call site of the same function (one function running
// in every coroutine of a ring: bench/yield). In the patterns real programs
// have (bench/patterns: two functions ping-ponging, pipelines, servers) it
// mispredicts on every switch. The indirect jump is predicted from the
// branch target history instead, which learns these patterns: ping-pong of
// two functions went from 15.9 to 4.2 ns per switch, and no pattern got
// slower (bench/results/ANALYSIS.md). The call that entered the yield leaves one
// entry on the return stack buffer that no `ret` consumes; the buffer is a
// ring and the returns after a switch belong to another stack anyway.
// CET: the resume point is a return site, which has no endbr64; under IBT
// the jump is `notrack` (as compilers emit for jump tables). Shadow stacks
// are not supported either way (see ENTRY_NOTES). The alone path (`je 1f`)
// and the slow path (coro_swap_x86_64.h) keep `ret`: the first does not
// switch; the second is rare, and either resumer reaches the same address.
//
// Suspended layout (coro_layout.h): the saved sp points at the resume
// address; the word below it holds the saved rbp. rbp is stored below sp
// (in the red zone: signal frames skip it) rather than pushed, so that an
// entry that need not save rbp leaves the same layout with one instruction
// less; the word then holds garbage, which the resumer loads into the rbp
// of a caller that treats rbp as clobbered. Every entry and sched.c's slow
// path resume through that word, so any of them may resume any other.
//
// Registers, and why each is or is not saved:
//   rsp  stored in the coroutine (the only field a suspended coroutine has).
//   rip  not stored: the return address the caller's `call` pushed is the
//        resume point; the `pop; jmp` at the end consumes the one of the
//        coroutine we resume (see above for why not `ret`).
//   rbp  stored by cacs__yield_pn: preserve_none keeps rbp callee-saved on
//        x86-64. Always reloaded: the coroutine resumed may need it.
//   rbx  NOT saved. preserve_none callers treat it as clobbered; the one
//        exception is a caller that uses rbx as base pointer (realigned
//        frame + dynamic alloca), which LLVM 19 does not save around a
//        preserve_none call: cacs's preserve-none-safety pass routes such
//        calls through a shield that saves it (LLVM 22 saves it itself).
//        Callers compiled by stock clang 19 without that pass get
//        cacs__yield_pn_bp (entry_asm.h; coro.h selects it, CACS_YIELD_SAVE_BP).
//   everything else: clobbered, as preserve_none allows; the caller's
//        compiler spilled what is live (this is CACS).
//   MXCSR / x87 CW: shared by the thread's coroutines unless one was created
//        with CACS_CORO_SAVE_FPENV; while such a coroutine lives, the slow
//        flag routes every yield through cacs__yield_slow, which switches
//        them. The flag test is the only cost the policy adds here.
//   DF is clear on both sides (ABI).
//
// TLS: local-exec (the thread pointer plus a link-time constant), valid
// because libcacs is a static library linked into the executable. Build it
// with -DCACS_TLS_INITIAL_EXEC to link it into a shared object instead.
//
//===----------------------------------------------------------------------===//

#include "entry_asm.h"
#if defined(__x86_64__)
#include "cacs/detail/contract.h"
#include "coro_layout.h"

// Resume the coroutine whose saved sp (pointing at its resume address) was
// just loaded into rsp.
#if defined(__CET__) && (__CET__ & 1)
#define RESUME                                                                 \
  popq %rdx;                                                                   \
  notrack jmpq *%rdx
#else
#define RESUME                                                                 \
  popq %rdx;                                                                   \
  jmpq *%rdx
#endif

// The scheduler through r11 = its address or the thread pointer, not
// through the %fs: segment (see "The chain" above).
#ifdef CACS_TLS_INITIAL_EXEC
// The offset comes from the GOT.
#define TLS_SETUP                                                              \
  movq %fs:0, %r11;                                                            \
  addq cacs__sched@gottpoff(%rip), %r11
#define SCHED(off) off(%r11)
#else
#define TLS_SETUP movq %fs:0, %r11
#define SCHED(off) cacs__sched@tpoff+off(%r11)
#endif

// The head of every switching entry: rax = current, rcx = its next, r11
// the scheduler's base; to the entry's `2:` when the slow flag is set.
.macro SWITCH_HEAD
        ENTRY_LANDING
        TLS_SETUP
        movq    SCHED(CACS_SCHED_CURRENT), %rax
        movq    CACS_CORO_NEXT(%rax), %rcx
        cmpb    $0, SCHED(CACS_SCHED_SLOW)
        jne     2f
.endm

// The switch itself, after SWITCH_HEAD with rsp at our resume address:
// next becomes current, our sp (and rbp, by SAVE_RBP: its store, or
// nothing) is saved, next's loaded, and next resumed. One body for every
// entry of cacs_yield (call- or jump-entered), so their suspended layouts
// cannot drift apart: any entry resumes what any other suspended.
.macro SWITCH_TO SAVE_RBP:vararg
        movq    %rcx, SCHED(CACS_SCHED_CURRENT)
        \SAVE_RBP
        movq    %rsp, CACS_CORO_SP(%rax)
        movq    CACS_CORO_SP(%rcx), %rsp
        movq    -8(%rsp), %rbp
        RESUME
.endm

// The entries differ in whether they store rbp; the rest is one macro.
// SAVE_RBP is the instruction that stores it, or nothing.
.macro YIELD name, SAVE_RBP:vararg
        .p2align 4
        .globl  \name
        .type   \name,@function
\name:
        .cfi_startproc
        SWITCH_HEAD
        // Alone on the ring (rcx == rax) needs no test here: the switch to
        // itself stores and reloads the same sp and rbp and jumps back to
        // our caller. The yields before the thread's scheduler is set up
        // (current == &cacs__idle, one global for all threads, which must
        // not be written) take the slow branch: S.slow starts set (sched.c).
        SWITCH_TO \SAVE_RBP
1:
        ret
2:
.L\name\()_slow:                // cacs__yield_pn_jmp's slow branch too
        // A sync block is open (syncblock.c): no switch, even alone.
        testb   $CACS_SCHED_SLOW_SYNC, SCHED(CACS_SCHED_SLOW)
        jne     cacs__sync_yield_abort
        cmpq    %rax, %rcx
        je      1b              // alone: cacs__yield_slow must not switch
        cmpb    $0, SCHED(CACS_SCHED_OFFSTACK)
        jne     3f
        // Default-convention C: it saves what it uses of rbx, r12-r15 and
        // rbp, and returns to our caller (rsp is as at our entry).
        movq    %rax, %rdi
        movq    %rcx, %rsi
        jmp     cacs__yield_slow
3:
        // Shared stacks, no tools (core.h: offstack): suspend as the fast
        // path does, then leave this stack before running any C, so that
        // a shared-stack coroutine's saved copy ends at our return address.
        // The call keeps the ABI's alignment (the switcher top is 16-byte
        // aligned); it never returns: `from` is resumed by a plain ret.
        \SAVE_RBP
        movq    %rsp, CACS_CORO_SP(%rax)
        movq    SCHED(CACS_SCHED_SWITCHER), %rsp
        movq    %rax, %rdi
        movq    %rcx, %rsi
        call    cacs__yield_offstack
        ud2
        .cfi_endproc
        .size   \name, .-\name
.endm

        .text
        YIELD cacs__yield_pn, movq %rbp, -8(%rsp)
        // Only for calls with the empty register mask (coro.h).
        YIELD cacs__yield_pn_none

// cacs__yield_pn_jmp: the entry of a jump-entered yield, which the compiler
// makes of a call of cacs__yield_pn under -fswitch-site-jumps
// (SwitchSiteJump.cpp; cacs/detail/contract.h):
//
//   site:   leaq 1f(%rip), %r11
//           movq %r11, -8(%rsp)         (the resume address, where a call
//           jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)   would have pushed it)
//   1:
//
// (never through a PLT, whose lazy resolver would push over the resume
// address; the linker makes the jump direct where this entry is in the
// same module: SwitchSiteJump.cpp.)
//
// cacs__yield_pn's switch, entered by a jump instead of a call. A `call`
// that is never returned to (cacs__yield_pn leaves by `pop; jmp`) cost ~2 ns
// per switch on AMD Zen 5 against the same switch entered by a jump
// (bench/results/switch-returns/jmp-entry.md): ping-pong 3.7 -> 2.2-2.4 ns,
// a ring of ten different functions at the inline switch's speed, for 3
// instructions more (the site's lea and store, our lea). Hot path, 13
// instructions, and the site's 3.
//
// After `leaq -8(%rsp), %rsp` rsp points at the resume address as after a
// call, and the rest is cacs__yield_pn's (its slow branch included), so the
// suspended layout is the same and any entry resumes what any other
// suspended. The lea sits after the scheduler's loads (it changes no flag),
// as measured; the slow branch makes the same adjustment first.
//
// The site's rsp need not be 16-byte aligned: the compiler keeps the
// frame of a function that calls nothing else as it is (no `alignstack` on
// the site, JumpEnteredEntry::AlignedSite: a handler's read() that yields
// and returns saves a push and a pop per switch, issue 35), and the fast
// path needs no alignment. The slow branch runs C, which does: where rsp
// is 8 off a call's alignment after the lea, it is entered by a call here,
// whose return address realigns it (test/SwitchSiteJump/
// yield-slow-align.c). No red zone at the site either: the store above
// writes the word a red zone would use, and the function is `noredzone`.
//
// Unwinding: from our first instruction to the lea the CFA is rsp itself,
// the return address in the word below it (the site's store); after the
// lea, as in any function entered by a call. At the site nothing moves rsp,
// so the caller's own CFI holds up to the jump. Suspended coroutines unwind
// as with cacs__yield_pn (the resume address is in the site's function,
// after the jump; an unwinder looks up the address before it, the jump).
// CET: IBT: entered by a direct jump, or an indirect one from another
// module (ENTRY_LANDING); the resume point `1:` has no endbr64,
// which every resumer reaches by a `notrack` jump or a `ret`, as for
// cacs__yield_pn's return sites. No shadow stack: the compiler does not
// lower under -fcf-protection=return.
        .p2align 4
        .globl  cacs__yield_pn_jmp
        .type   cacs__yield_pn_jmp,@function
cacs__yield_pn_jmp:
        .cfi_startproc
        .cfi_def_cfa_offset 0
        SWITCH_HEAD
        leaq    -8(%rsp), %rsp
        .cfi_def_cfa_offset 8
        SWITCH_TO movq %rbp, -8(%rsp)
2:
        .cfi_def_cfa_offset 0
        leaq    -8(%rsp), %rsp
        .cfi_def_cfa_offset 8
        // A site leaves rsp as its function had it (the 16-byte alignment
        // above): 8 above a multiple of 16 is a call's.
        testl   $8, %esp
        jnz     .Lcacs__yield_pn_slow
        // Misaligned by 8: enter the slow branch by a call, whose return
        // address realigns it and comes back here to resume the site. The
        // C it runs (cacs__yield_slow, the sync abort) returns here with a
        // `ret`; the offstack path suspends with rsp at that return
        // address, which the resumer's `pop; jmp` reaches as any resume
        // point; the word below it holds rbp as usual.
        call    .Lcacs__yield_pn_slow
        RESUME
        .cfi_endproc
        .size   cacs__yield_pn_jmp, .-cacs__yield_pn_jmp

// The _bp entries of cacs_yield and of the waiting calls (entry_asm.h).
        CORE_SAVE_BP

// Resume the coroutine whose saved sp is `to_sp` (rdi) without saving
// anything: cacs_exit. Never returns.
        .p2align 4
        .globl  cacs__coro_resume
        .hidden cacs__coro_resume
        .type   cacs__coro_resume,@function
cacs__coro_resume:
        .cfi_startproc
        ENTRY_LANDING
        movq    %rdi, %rsp
        movq    -8(%rsp), %rbp
        RESUME
        .cfi_endproc
        .size   cacs__coro_resume, .-cacs__coro_resume

// Where a fresh shared-stack coroutine starts (coro.c: its first frames are
// one image for all, {rbp 0, this}, right below the shared stack's top).
// Entered by the resume's jump with rsp at that top, 16-byte aligned; the
// coroutine is the running one. It calls entry(arg), then cacs_exit, with
// no frame of its own: what the coroutine saves at each switch-out is its
// entry's frames and one return address (cacs__trampoline and coro_main
// took 32 bytes more of every saved copy). Not with a tool on: coro_main's
// ASan annotation is needed then (coro.c).
        .p2align 4
        .globl  cacs__shared_start
        .hidden cacs__shared_start
        .type   cacs__shared_start,@function
cacs__shared_start:
        .cfi_startproc
        .cfi_undefined %rip
        ENTRY_LANDING
        TLS_SETUP
        movq    SCHED(CACS_SCHED_CURRENT), %rax
        movq    CACS_CORO_ARG(%rax), %rdi
        callq   *CACS_CORO_ENTRY(%rax)
        callq   cacs_exit@PLT
        ud2
        .cfi_endproc
        .size   cacs__shared_start, .-cacs__shared_start

// cacs_yield under its public name, for default-convention callers (gcc,
// stock clang without cacs's binding in coro.h): saves the callee-saved
// registers preserve_none clobbers (cacs__yield_pn keeps rbp) and leaves by
// `pop; jmp`, not `ret`, for the reason above: this function's return
// follows a switch, so the return stack buffer's top entry is the other
// side's, and a `ret` here mispredicted on every resume (issue 22: the
// ping-pong pattern built by gcc went from 13.9 to 5.0 ns per switch).
// sched.c defines it in C on other targets.
        .p2align 4
        .globl  cacs_yield
        .type   cacs_yield,@function
cacs_yield:
        .cfi_startproc
        ENTRY_LANDING
        pushq   %rbx
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %rbx, 0
        pushq   %r12
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r12, 0
        pushq   %r13
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r13, 0
        pushq   %r14
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r14, 0
        pushq   %r15
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset %r15, 0
        callq   cacs__yield_pn
        popq    %r15
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r15
        popq    %r14
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r14
        popq    %r13
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r13
        popq    %r12
        .cfi_adjust_cfa_offset -8
        .cfi_restore %r12
        popq    %rbx
        .cfi_adjust_cfa_offset -8
        .cfi_restore %rbx
        RESUME
        .cfi_endproc
        .size   cacs_yield, .-cacs_yield

#endif // __x86_64__

// The notes in every build of this file, for whichever architecture it is
// assembled (entry_asm.h): libcacs holds both architectures' files, and one
// object without them gives a program that links the archive whole
// (--whole-archive) an executable stack and drops IBT / BTI for all of it.
        ENTRY_NOTES
