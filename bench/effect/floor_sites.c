// The floor of a perform + resume round with the switch inlined or a jump
// per site (issue 33): floor_effects.c's rounds (floor_rounds.h), but
// not through floor_switch, the called switch whose one `jmpq *-8(%rsp)`
// serves every switch of both sides. An indirect jump is predicted from
// its own address's history: one shared jump sees the targets of every
// site, a jump per site sees one (bench/results/ANALYSIS.md, "The yield's
// chain"). Which way, chosen when compiling (FLOOR_SITE_CALL):
//   0 sites: the switch inlined at each site, cacs_switch of cacs/switch.h
//     (save sp, a resume label, rbp, rbx; load the other side's; `jmpq
//     *pc` at the site)
//   1 sitecall: a call of one shared switch routine followed by the site's
//     own `jmpq *%rdx`, as the compiler's -fswitch-site-jumps lowers
//     cacs_yield (CACS_CONTRACT_SITE_ENTRY, lib/yield_x86_64.S's
//     cacs__yield_pn_site): the routine returns, by a `ret` the return
//     stack predicts, to its call site on the other side's stack with that
//     side's resume address in rdx; the site jumps there. What a
//     perform/resume entry with site jumps would cost.
//   2 sharedjump, a control: the site stores its resume label and enters
//     one shared switch routine by a direct `jmp` (no call), which ends in
//     one `jmpq *8(%rsi)` for all.
//   3 perdir: floor_switch itself, one copy per direction (the performer's
//     and the handler's), as effect_x86_64.S has one CONTINUE in perform
//     and one in resume.
//   4 perdirpc: perdir, with the resume address kept in the context (pc)
//     and the jump through it, not through the word below the other
//     stack's sp.
//   5 jmpentry: floor_switch's layout and jump (the resume address the
//     word below the saved sp, one shared `jmpq *-8(%rsp)`), but entered
//     by a jump: the site writes its resume label below its sp itself
//     instead of a call pushing a return address there.
// Built with -mno-red-zone: the inline call and jump leave the site with
// the caller's frame live below its sp.

#include "cacs/switch.h"

#if !defined(__x86_64__)
#error "floor_sites.c: x86-64 only"
#endif

#ifndef FLOOR_SITE_CALL
#define FLOOR_SITE_CALL 0
#endif

// The stack switch of modes 1, 2 and 5's routines: rsp, rbp, rbx into
// *rdi (after `pre`, an instruction between the stores); theirs from *rsi.
#define SWAP_STACKS(pre)                                                       \
  "  movq %rsp, 0(%rdi)\n" pre "  movq %rbp, 16(%rdi)\n"                       \
  "  movq %rbx, 24(%rdi)\n  movq 16(%rsi), %rbp\n  movq 24(%rsi), %rbx\n"     \
  "  movq 0(%rsi), %rsp\n"

#if FLOOR_SITE_CALL == 0
#define FLOOR_IMPL "sites"
#define site_switch cacs_switch

#elif FLOOR_SITE_CALL == 1
#define FLOOR_IMPL "sitecall"
// floor_site_switch(from = rdi, to = rsi, value = rax), called from the
// site `call floor_site_switch; jmpq *%rdx; resume:`. A suspended side's
// sp points at its resume address, as cacs__yield_pn's coroutines'.
__asm__(".text\n"
        ".p2align 4\n"
        "floor_site_switch:\n"
        "  movq (%rsp), %r10\n" // the site's jump
        "  leaq 3(%r10), %r9\n" // our resume point: after it
        "  movq %r9, (%rsp)\n" SWAP_STACKS("")
        "  movq (%rsp), %rdx\n" // the other side's resume point
        "  movq %r10, (%rsp)\n" // returned to our site, on its stack
        "  ret\n");
#define SITE_ENTER "call floor_site_switch\n\t.byte 0x3e\n\tjmpq *%%rdx\n\t"

#elif FLOOR_SITE_CALL == 2
#define FLOOR_IMPL "sharedjump"
// Entered by a jump from the site, the site's resume label in rcx.
__asm__(".text\n"
        ".p2align 4\n"
        "floor_shared_switch:\n" SWAP_STACKS("  movq %rcx, 8(%rdi)\n")
        "  jmpq *8(%rsi)\n");
#define SITE_ENTER "leaq 1f(%%rip), %%rcx\n\tjmp floor_shared_switch\n1:\n\t"

#elif FLOOR_SITE_CALL == 5
#define FLOOR_IMPL "jmpentry"
// floor_switch's body, rsp as the site left it (no return address).
__asm__(".text\n"
        ".p2align 4\n"
        "floor_jmp_switch:\n" SWAP_STACKS("")
        "  jmpq *-8(%rsp)\n");
#define SITE_ENTER                                                             \
  "leaq 1f(%%rip), %%rcx\n\tmovq %%rcx, -8(%%rsp)\n\t"                        \
  "jmp floor_jmp_switch\n1:\n\t"

#elif FLOOR_SITE_CALL == 3 || FLOOR_SITE_CALL == 4
// floor_effects.c's floor_switch (from = r12, to = r13, value = r14), one
// copy per direction; perdirpc first copies its return address to pc.
#if FLOOR_SITE_CALL == 3
#define FLOOR_IMPL "perdir"
#define SAVE_PC ""
#define JUMP "jmpq *-8(%rsp)"
#else
#define FLOOR_IMPL "perdirpc"
#define SAVE_PC "  movq (%rsp), %rcx\n  movq %rcx, 8(%r12)\n"
#define JUMP "jmpq *8(%r13)"
#endif
#define FLOOR_SWITCH_ASM(name)                                                 \
  ".text\n.p2align 4\n" name ":\n" SAVE_PC                                     \
  "  leaq 8(%rsp), %rax\n  movq %rax, 0(%r12)\n  movq %rbp, 16(%r12)\n"       \
  "  movq %rbx, 24(%r12)\n  movq %r14, %rax\n  movq 16(%r13), %rbp\n"        \
  "  movq 24(%r13), %rbx\n  movq 0(%r13), %rsp\n  " JUMP "\n"
__asm__(FLOOR_SWITCH_ASM("floor_switch_perform")
            FLOOR_SWITCH_ASM("floor_switch_resume"));
__attribute__((preserve_none)) uint64_t
floor_switch_perform(cacs_context *from, cacs_context *to, uint64_t v);
__attribute__((preserve_none)) uint64_t
floor_switch_resume(cacs_context *from, cacs_context *to, uint64_t v);
#define FLOOR_PERFORM floor_switch_perform
#define FLOOR_RESUME floor_switch_resume

#else
#error "floor_sites.c: FLOOR_SITE_CALL is 0 to 5"
#endif

#ifdef SITE_ENTER
// The switch at the site (from = rdi, to = rsi, value = rax), every other
// register clobbered as cacs_switch's.
static inline __attribute__((always_inline)) uint64_t
site_switch(cacs_context *from, cacs_context *to, uint64_t v) {
  __asm__ volatile(SITE_ENTER
                   : "+D"(from), "+S"(to), "+a"(v)
                   :
                   : CACS__CLOBBERS);
  return v;
}
#endif
#ifndef FLOOR_PERFORM
#define FLOOR_PERFORM site_switch
#define FLOOR_RESUME site_switch
#endif

#define FLOOR_CTX cacs_context
#define FLOOR_BODY_ATTRS
#include "floor_rounds.h"

static void start(void) {
  void **top = (void **)(stack + sizeof stack);
  top[-1] = NULL; // body's return address: rsp at its entry is top - 8
#if FLOOR_SITE_CALL == 1
  top[-2] = (void *)body; // the resume point, popped
  self.sp = &top[-2];
#else
  top[-2] = (void *)body; // the word below sp (floor_switch's jump)
  self.sp = &top[-1];
  self.pc = (void *)body; // pc (the others')
#endif
  self.fp = NULL;
  self.bp = NULL;
}
