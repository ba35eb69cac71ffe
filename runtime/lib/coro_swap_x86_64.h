//===- lib/coro_swap_x86_64.h - Slow coroutine switch, x86-64 -----*- C -*-===//
//
// Included by sched.c only, on x86-64.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_CORO_SWAP_X86_64_H
#define CACS_LIB_CORO_SWAP_X86_64_H

// Suspend `from` in the layout the yield entries leave (coro_layout.h) and
// resume `to`.
// Used by the slow paths in C; returns when `from` is resumed, by either
// this function or the assembly. Every register is declared clobbered but
// the frame pointer (pushed) and sp; rbx/x19 too, which the compiler saves
// in the prologue of this (base-pointer-free) code. x18 is left alone when
// libcacs is built to leave it alone (scs_switch moves it).
static inline void coro_swap(cacs_coro *from, cacs_coro *to) {
  __asm__ volatile("leaq -128(%%rsp), %%rsp\n\t" // keep our red zone intact
                   "leaq 1f(%%rip), %%rcx\n\t"
                   "pushq %%rcx\n\t"
                   "movq %%rbp, -8(%%rsp)\n\t"
                   "movq %%rsp, (%%rdi)\n\t"
                   "movq (%%rsi), %%rsp\n\t"
                   "movq -8(%%rsp), %%rbp\n\t"
                   "ret\n"
                   "1:\n\t"
                   "leaq 128(%%rsp), %%rsp"
                   : "+D"(from), "+S"(to)
                   :
                   : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11",
                     "r12", "r13", "r14", "r15", "xmm0", "xmm1", "xmm2",
                     "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
                     "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
                     "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)",
                     "st(6)", "st(7)", "mm0", "mm1", "mm2", "mm3", "mm4",
                     "mm5", "mm6", "mm7", "memory", "cc");
}

#endif // CACS_LIB_CORO_SWAP_X86_64_H
