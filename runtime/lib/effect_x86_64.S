//===- lib/effect_x86_64.S - Perform and resume, x86-64 fast paths -*- asm -*-===//
//
// cacs__effect_perform_pn and cacs__effect_resume_pn, the preserve_none
// entries of cacs/effect.h, where effect_layout.h's CACS_EFFECT_ASM holds:
// the common round of a handler loop, a perform handled by a coroutine of
// the running chain and the handler's resume of that coroutine with the
// same set, in assembly; every other case jumps, with every register as
// the caller left it, to the C entry of lib/effect.c (cacs__effect_*_c),
// which takes it from the start. The rules live in effect.c: each test
// below is one of its fast paths' tests (named there), so a case the
// assembly declines, the C fast path takes or declines the same way.
// What the assembly saves is the C's frame (a frame record that its tail
// switch reads the caller's sp, pc and fp from) and the copies between
// registers around it: a round of the up1 shape of bench/effect (the two
// entries, the handler's loop and the performer's) went from 110
// instructions to 93 (callgrind); the state shape's from 111 to 93.
// (85 for both since: the resume point in the segment's head, no stores
// of tail and running, the inline entries, no pc in the saves; 8 fewer
// since: `cur` and the tail left to settle, effect.c's `cur`, and the
// effect's slot, which needs no test of the id's range.)
//
// perform(e = r12, payload = r13), fast when:
//   no segment is pending (pend == NULL: else settle first),
//   e's slot's entry of the thread block (top_lo) is set: k (else the
//     heap's table, for the slot of ids from CACS_ET_TOP_INLINE on, or
//     an id not numbered yet, or the default handler, or the abort naming
//     the effect, in the C path),
//   the chain's owner is the running coroutine of the scheduler (foreign),
//   the sync depth is k's resume's (not inside a block opened since, and
//     no tool: SYNC_ANNOTATE makes it differ).
// Then, as effect.c's leave + tail switch: pend = k (k->running stays set,
// cur stays the performer, until settled); k->self, the segment's, gets
// our caller's resume point; jump to k->caller with the request in
// rax:rdx.
//
// The call path (cacs_effect_resume_with's call handlers), when the
// sync-depth test above fails only by k's SYNC_CALLS bit and calls[0] or
// calls[1] of k is e's: effect.c's call_handler without the tools' `phys`
// (a tool sets SYNC_ANNOTATE, so never here): leave, in_call, the
// resumer's `calling`, the call with the C convention on our caller's
// stack, then the segment back (pend still k: in place; else
// cacs__effect_call_rejoin) and a plain return with the call's result.
//
// resume(k = r12, handled = r13, result = r14), fast when:
//   pend == k (the handler answers the request it just got: k's perform
//     was the table's last operation, so k is neither running nor done),
//   `handled` is k's set, of one or two effects: handled[0] == set[0]
//     (not NULL: k handled the request's effect), handled[1] == set[1],
//     and if that is not NULL, k's set has two effects and handled[2] ==
//     NULL (sets of three or more: the C path),
//   the chain's owner is the running coroutine (own()'s usual case; a
//     chain that starts, cur == NULL, takes the C path, as a foreign one).
// Then, as effect.c's fast resume + tail switch: pend = NULL, k->sync_base
// = the sync depth (cur is the performer already; k->running is still
// set); k->caller gets our caller's resume point; jump to k->self (the
// segment's resume point) with the result in rax.
//
// Resume points are effect.c's (CACS__TAIL_SAVE): sp as after our return
// (rsp + 8), fp rbp, and bp the caller's rbx, which LLVM 19 does not save
// around a preserve_none call (cacs/switch.h, cacs__bp_get); the pc, our
// return address, is left in place below sp (effect.c's EFFECT_JUMP_ASM:
// the C paths' tail jumps go through it too, and cacs_effect_create puts
// a fresh coroutine's there). Either side may be resumed by the C path's
// tail jump; never by cacs_switch, whose ASan and TSan runs never come
// here (a perform under them takes the C path: SYNC_ANNOTATE).
//
//===----------------------------------------------------------------------===//

#include "effect_layout.h"
#include "entry_asm.h"
#if CACS_EFFECT_ASM && defined(__x86_64__)
#include "coro_layout.h"

// The three thread-local blocks through one base register, the thread
// pointer (yield_x86_64.S, "The chain"): local-exec only (CACS_EFFECT_ASM).
#define ET(off) cacs__effect_thread@tpoff+off(%r11)
#define SCHED(off) cacs__sched@tpoff+off(%r11)
#define SYNCBLK(off) cacs__syncblk@tpoff+off(%r11)

// Suspend our caller into the cacs_context at \off(\base): the stack
// pointer our return would leave (effect.c's CACS__TAIL_SAVE), rbp and
// rbx; not the pc, our return address, which stays the word below that
// stack pointer (effect.c's EFFECT_JUMP_ASM). Entered by a jump (\jmp = 1),
// rsp is that stack pointer already.
.macro SUSPEND off, base, jmp
.if \jmp
        movq    %rsp, \off+CACS_CTX_SP(\base)
.else
        leaq    8(%rsp), %rax
        movq    %rax, \off+CACS_CTX_SP(\base)
.endif
        movq    %rbp, \off+CACS_CTX_FP(\base)
        movq    %rbx, \off+CACS_CTX_BP(\base)
.endm
// Continue the cacs_context at \off(\base) (CACS__TAIL_JUMP_ASM).
.macro CONTINUE off, base
        movq    \off+CACS_CTX_FP(\base), %rbp
        movq    \off+CACS_CTX_BP(\base), %rbx
        movq    \off+CACS_CTX_SP(\base), %rsp
        jmpq    *-8(%rsp)
.endm

// The entries come in pairs: cacs__effect_<op>_pn, entered by a call, and
// cacs__effect_<op>_pn_jmp (\jmp = 1), entered by a jump from a site the
// compiler made of a call under -fswitch-site-jumps (SwitchSiteJump.cpp;
// cacs/detail/contract.h), as cacs__yield_pn_jmp is (yield_x86_64.S, whose
// comment says why: the call is never returned to, and costs there):
//
//   site:   leaq 1f(%rip), %r11
//           movq %r11, -8(%rsp)         (the resume address, where a call
//           jmpq *cacs__effect_<op>_pn_jmp@GOTPCREL(%rip)   would have
//   1:                                                      pushed it)
//
// (never through a PLT, whose lazy resolver would push over the resume
// address; the linker makes the jump direct where this entry is in the
// same module: SwitchSiteJump.cpp.)
//
// with the arguments and results in the call's registers. The jump entry's
// rsp is the call entry's plus 8, and that is the only difference: its fast
// path saves rsp itself as the stack pointer after the return (one
// instruction fewer than the call entry's lea and store), and every slow
// branch moves rsp down to the resume address first (`leaq -8(%rsp), %rsp`,
// or 8 more in the call handler's frame), so that the C paths and the call
// handler run as if called, with a call's alignment (the site is an
// `alignstack` statement: rsp is 16-byte aligned there); the call handler
// returns by a jump, not a `ret` (CALL_RETURN). So the suspended
// layout is the same, and any entry resumes what any other suspended.
// Unwinding: in the jump entry the CFA is rsp itself (the return address in
// the word below, the site's store) until a slow branch's lea, then as in
// the call entry. CET: the site's jump is direct, or an indirect one from
// another module (ENTRY_LANDING); the resume point `1:` has no endbr64, as
// for the call entries' return sites. CONTINUE's plain
// indirect jump reaches it only where IBT is off: CACS_EFFECT_ASM is 0
// under IBT, and then the fallback entries at the end of this file take
// every case through effect.c.

// The call handler's return to the performer, from its frame (CFA =
// rsp+16). Entered by a call: `ret`. Entered by a jump: no call pushed the
// resume address, so a `ret` would miss the return stack buffer every time
// (callstate 4.4 -> 14.2 ns in bench/results/effect/jump-entry.md's first
// run); jump to it, as CONTINUE does (the word below rsp: signal frames
// skip the red zone on x86-64).
.macro CALL_RETURN jmp
.if \jmp
        addq    $16, %rsp
        .cfi_adjust_cfa_offset -16
        jmpq    *-8(%rsp)
.else
        addq    $8, %rsp
        .cfi_adjust_cfa_offset -8
        ret
.endif
.endm

// The call path from effect.c's call_handler, entered with k in rcx, its
// call entry in rdx, the thread pointer in r11 (see PERFORM). Its labels
// are local (1-3), so that the jump entry can have two copies of it.
.macro CALL_PATH jmp
        // leave: pend = k (cur stays p); k->in_call; up (k->parent)
        // ->calling = k, its old value kept in r15. Across the call
        // (default convention): k in r12, p in r13, up in r14.
        movq    %r13, %rdi                      // payload
        movq    CACS_CALL_ENV(%rdx), %rsi
        movq    CACS_CALL_FN(%rdx), %rax
        movq    ET(CACS_ET_CUR), %r13           // p
        movq    %rcx, ET(CACS_ET_PEND)
        movq    CACS_EK_PARENT(%rcx), %r14      // up
        movb    $CACS_CALL_RUNS, CACS_EK_IN_CALL(%rcx)
        movq    %rcx, %r12
        testq   %r14, %r14
        je      1f
        movq    CACS_EK_CALLING(%r14), %r15
        movq    %rcx, CACS_EK_CALLING(%r14)
1:
        // Entered by a jump, 8 more: rsp to the resume address first, as
        // if called (the `ret` below returns through it).
        subq    $8+8*\jmp, %rsp
        .cfi_adjust_cfa_offset 8+8*\jmp
        callq   *%rax
        movb    $0, CACS_EK_IN_CALL(%r12)
        testq   %r14, %r14
        je      2f
        movq    %r15, CACS_EK_CALLING(%r14)
2:
        movq    %fs:0, %r11
        cmpq    %r12, ET(CACS_ET_PEND)
        jne     3f
        movq    $0, ET(CACS_ET_PEND)            // the segment's entries
        CALL_RETURN \jmp                        // are in place, cur is p
3:
        .cfi_def_cfa_offset 16
        movq    %rax, %r15                      // the call touched the
        movq    %r12, %rdi                      // table: rejoin in C
        movq    %r13, %rsi
        callq   cacs__effect_call_rejoin
        movq    %r15, %rax
        CALL_RETURN \jmp
.endm

.macro PERFORM name, jmp
        .p2align 4
        .globl  \name
        .type   \name,@function
\name:
        .cfi_startproc
.if \jmp
        .cfi_def_cfa_offset 0
.endif
        ENTRY_LANDING
        movq    %fs:0, %r11
        cmpq    $0, ET(CACS_ET_PEND)
        jne     1f
        movl    CACS_EFFECT_SLOT(%r12), %eax
        movq    cacs__effect_thread@tpoff+CACS_ET_TOP_LO(%r11,%rax,8), %rcx // k
        testq   %rcx, %rcx
        je      1f
        movq    ET(CACS_ET_OWNER), %rax
        cmpq    SCHED(CACS_SCHED_CURRENT), %rax
        jne     1f
        movl    SYNCBLK(CACS_SYNCBLK_DEPTH), %eax
        cmpl    CACS_EK_SYNC_BASE(%rcx), %eax
        jne     4f
        movq    %rcx, ET(CACS_ET_PEND)
        SUSPEND CACS_EK_SELF, %rcx, \jmp
        movq    %r12, %rax                      // the request: effect,
        movq    %r13, %rdx                      // payload
        CONTINUE CACS_EK_CALLER, %rcx
1:
.if \jmp
        leaq    -8(%rsp), %rsp                  // as if called
        .cfi_def_cfa_offset 8
.endif
        jmp     cacs__effect_perform_c

        // A call handler (effect.c's call_handler): k's sync base is the
        // depth with SYNC_CALLS (no tool, no block since its resume), and
        // calls[0] or calls[1] is e's (find_call).
4:
.if \jmp
        .cfi_def_cfa_offset 0
.endif
        orl     $CACS_SYNC_CALLS, %eax
        cmpl    CACS_EK_SYNC_BASE(%rcx), %eax
        jne     1b
        movl    CACS_EFFECT_ID(%r12), %eax
        movq    CACS_EK_CALLS(%rcx), %rdx
        cmpl    CACS_CALL_ID(%rdx), %eax        // calls[0].id (ncalls >= 1)
        je      5f
        cmpl    $2, CACS_EK_NCALLS(%rcx)
        jb      1b
        addq    $CACS_CALL_SIZE, %rdx
        cmpl    CACS_CALL_ID(%rdx), %eax        // calls[1].id
        jne     1b
.if \jmp
        jmp     9f
.endif
5:
        CALL_PATH \jmp
.if \jmp
        // calls[1]'s own copy in the jump entry: each copy's return jump
        // (CALL_RETURN) then goes back to the sites that perform one
        // effect, not to those of both. A jump with one target is
        // predicted better than one whose target alternates between two
        // (callstate's get and put): the jump entry's call handlers were
        // 0.5 ns slower per perform than the call entry's, whose `ret` the
        // return stack predicts. Reached by a jump, not by falling through
        // from calls[1]'s test: that layout, one instruction fewer, timed
        // as the single path did (bench/results/effect/call-return-42.md).
9:
        .cfi_def_cfa_offset 0
        CALL_PATH \jmp
.endif
        .cfi_endproc
        .size   \name, .-\name
.endm

.macro RESUME name, jmp
        .p2align 4
        .globl  \name
        .type   \name,@function
\name:
        .cfi_startproc
.if \jmp
        .cfi_def_cfa_offset 0
.endif
        ENTRY_LANDING
        movq    %fs:0, %r11
        cmpq    %r12, ET(CACS_ET_PEND)
        jne     1f
        movq    (%r13), %rax
        cmpq    CACS_EK_SET0(%r12), %rax
        jne     1f
        movq    8(%r13), %rax
        cmpq    CACS_EK_SET1(%r12), %rax
        jne     1f
        testq   %rax, %rax
        je      2f                              // a set of one
        cmpl    $2, CACS_EK_NSAVED(%r12)
        jne     1f                              // of three or more
        cmpq    $0, 16(%r13)
        jne     1f
2:
        // The owner: the running coroutine, falling through (a taken
        // branch here cost every round one); a chain that starts, or a
        // foreign resume, is the C path's (own()).
        movq    SCHED(CACS_SCHED_CURRENT), %rcx
        cmpq    %rcx, ET(CACS_ET_OWNER)
        jne     1f
        movq    $0, ET(CACS_ET_PEND)
        movl    SYNCBLK(CACS_SYNCBLK_DEPTH), %eax
        movl    %eax, CACS_EK_SYNC_BASE(%r12)
        SUSPEND CACS_EK_CALLER, %r12, \jmp
        movq    %r14, %rax                      // what the perform returns
        CONTINUE CACS_EK_SELF, %r12
1:
.if \jmp
        leaq    -8(%rsp), %rsp                  // as if called
        .cfi_def_cfa_offset 8
.endif
        jmp     cacs__effect_resume_c
        .cfi_endproc
        .size   \name, .-\name
.endm

        .text
        PERFORM cacs__effect_perform_pn, 0
        PERFORM cacs__effect_perform_pn_jmp, 1
        RESUME  cacs__effect_resume_pn, 0
        RESUME  cacs__effect_resume_pn_jmp, 1
#elif defined(__x86_64__) && !defined(CACS_NO_PRESERVE_NONE)

// Without the assembly (effect_layout.h: CET's IBT, initial-exec TLS, a
// libcacs built with ASan), effect.c's C paths are the preserve_none entries
// cacs__effect_perform_pn and cacs__effect_resume_pn; a program compiled
// with -fswitch-site-jumps still jumps to the _jmp entries. These move rsp
// to the site's resume address, as if called, and are the C entries from
// there (in a shared libcacs that jump may go through a lazily bound PLT
// entry: its resolver pushes below the resume address, as for a call).
// CFI as in the jump entries above.
.macro JUMP_TO name, to
        .p2align 4
        .globl  \name
        .type   \name,@function
\name:
        .cfi_startproc
        .cfi_def_cfa_offset 0
        ENTRY_LANDING
        leaq    -8(%rsp), %rsp
        .cfi_def_cfa_offset 8
        jmp     \to
        .cfi_endproc
        .size   \name, .-\name
.endm

        .text
        JUMP_TO cacs__effect_perform_pn_jmp, cacs__effect_perform_pn
        JUMP_TO cacs__effect_resume_pn_jmp, cacs__effect_resume_pn
#endif // CACS_EFFECT_ASM && __x86_64__

// The notes in every build of this file, for whichever architecture it is
// assembled (entry_asm.h): libcacs holds both architectures' files, and one
// object without them gives a program that links the archive whole
// (--whole-archive) an executable stack and drops IBT / BTI for all of it.
        ENTRY_NOTES
