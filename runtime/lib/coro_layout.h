//===- lib/coro_layout.h - Offsets for sched.c and yield_*.S ---*- C -*-===//
//
// The symmetric-coroutine switch (cacs_yield) is written in assembly, one
// file per architecture (yield_x86_64.S, yield_aarch64.S). This table is the
// only place the assembly learns where the fields it touches live; sched.c
// pins every entry with _Static_assert(offsetof(...)), so a reordered struct
// fails to compile instead of corrupting stacks.
//
// A suspended coroutine is fully described by its saved stack pointer. Its
// stack holds, around that pointer:
//   x86-64:  [sp-8] saved rbp, [sp] resume address (the return address the
//            `call cacs_yield` pushed: resumption is a plain `ret`). The
//            rbp word lies below sp, in the red zone, so that
//            cacs__yield_pn_none can leave it unwritten (garbage) without
//            changing the layout; every resumer loads it.
//   AArch64: [sp] saved x29, [sp+8] resume address (x30 at the `bl`)
// A fresh coroutine's stack is prepared the same way, with the saved frame
// pointer 0 and the resume address pointing at cacs__trampoline.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_CORO_LAYOUT_H
#define CACS_LIB_CORO_LAYOUT_H

// struct cacs_coro
#define CACS_CORO_SP 0   // saved stack pointer while switched out
#define CACS_CORO_NEXT 8 // next coroutine of the ready ring
#define CACS_CORO_ENTRY 24 // entry function (cacs__shared_start)
#define CACS_CORO_ARG 32   // its argument

// struct sched (thread-local `cacs__sched`)
#define CACS_SCHED_CURRENT 0 // running coroutine
#define CACS_SCHED_SLOW 8    // nonzero: every yield takes cacs__yield_slow
#define CACS_SCHED_SLOW_SYNC 2 // bit of SLOW: a sync block is open
#define CACS_SCHED_OFFSTACK 9 // with SLOW: cacs__yield_offstack instead
#define CACS_SCHED_SWITCHER 16 // the stack cacs__yield_offstack runs on
#define CACS_SCHED_POOL_HOME 24 // a pool worker's loop context (pool_home)

// The frame a fresh coroutine on an exact stack (stack_exact.h) starts
// from, at the 16-byte aligned sp cacs__bounded_start (trampoline_<arch>.S)
// is entered with: its entry, the argument, and the top of the thread's
// exit stack, where it runs cacs_exit once the entry returns. The entry's
// bound starts right below it; the frame is all libcacs keeps above.
#define CACS_BOUNDED_ENTRY 0
#define CACS_BOUNDED_ARG 8
#define CACS_BOUNDED_EXIT 16
#define CACS_BOUNDED_FRAME 32 // bytes, a multiple of 16

// A pool coroutine on an exact stack has no such frame: its context
// (cacs_context, which the first switch loads) starts it at the stack's
// top with its task in the base-pointer register (rbx / x19), which
// cacs__pool_bounded_start reads the entry and argument from and which
// the entry, as every C function, gives back: the task it ends with
// (pool_worker.c, bounded_init). It ends on the system stack of whichever
// worker it finishes on (CACS_SCHED_POOL_HOME), not on a stack chosen when
// it was created. The task's fields (struct cacs__ptask, pool_internal.h,
// which pins them):
#define CACS_PTASK_ENTRY 56
#define CACS_PTASK_ARG 64

// How far below a saved stack pointer of the thread's own stack (the main
// context's, or a pool worker loop's) code that moves there starts:
// x86-64's 128-byte red zone, which holds the saved rbp, and a margin
// (sysstack.c, and a pool coroutine's end on an exact stack).
#define CACS_SYSTEM_STACK_GAP 256

// How far the saved sp lies above the suspended frame's first word (the
// saved frame pointer).
#if defined(__x86_64__)
#define CACS_CORO_SP_TO_FRAME 8
#else
#define CACS_CORO_SP_TO_FRAME 0
#endif

#endif // CACS_LIB_CORO_LAYOUT_H
