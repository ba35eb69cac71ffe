//===- lib/coro_swap_aarch64.h - Slow coroutine switch, AArch64 ---*- C -*-===//
//
// Included by sched.c only, on AArch64.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_CORO_SWAP_AARCH64_H
#define CACS_LIB_CORO_SWAP_AARCH64_H

// Suspend `from` in the layout the yield entries leave (coro_layout.h) and
// resume `to`.
// Used by the slow paths in C; returns when `from` is resumed, by either
// this function or the assembly. Every register is declared clobbered but
// the frame pointer (pushed) and sp; rbx/x19 too, which the compiler saves
// in the prologue of this (base-pointer-free) code. x18 is left alone when
// libcacs is built to leave it alone (scs_switch moves it).
static inline void coro_swap(cacs_coro *from, cacs_coro *to) {
  register cacs_coro *x1 __asm__("x1") = from;
  register cacs_coro *x2 __asm__("x2") = to;
  __asm__ volatile("adr x9, 1f\n\t"
                   "stp x29, x9, [sp, #-16]!\n\t"
                   "mov x10, sp\n\t"
                   "str x10, [x1]\n\t"
                   "ldr x10, [x2]\n\t"
                   "mov sp, x10\n\t"
                   "ldp x29, x30, [sp], #16\n\t"
                   "ret\n"
                   "1:"
                   : "+r"(x1), "+r"(x2)
                   :
                   : "x0", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
                     "x11", "x12", "x13", "x14", "x15", "x16", "x17",
#if !defined(CACS_FIXED_X18)
                     "x18",
#endif
                     "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26",
                     "x27", "x28", "x30", "v0", "v1", "v2", "v3", "v4", "v5",
                     "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14",
                     "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22",
                     "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30",
                     "v31", "memory", "cc");
}

#endif // CACS_LIB_CORO_SWAP_AARCH64_H
