//===- lib/coro_layout.h - Offsets shared by coro.c and yield_*.S -*- C -*-===//
//
// The symmetric-coroutine switch (cacs_yield) is written in assembly, one
// file per architecture (yield_x86_64.S, yield_aarch64.S). This table is the
// only place the assembly learns where the fields it touches live; coro.c
// pins every entry with _Static_assert(offsetof(...)), so a reordered struct
// fails to compile instead of corrupting stacks.
//
// A suspended coroutine is fully described by its saved stack pointer. Its
// stack holds, from that pointer up:
//   x86-64:  [sp] saved rbp, [sp+8] resume address (the return address the
//            `call cacs_yield` pushed: resumption is a plain `ret`)
//   AArch64: [sp] saved x29, [sp+8] resume address (x30 at the `bl`)
// A fresh coroutine's stack is prepared the same way, with the resume
// address pointing at cacs__trampoline.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_CORO_LAYOUT_H
#define CACS_LIB_CORO_LAYOUT_H

// struct cacs_coro
#define CACS_CORO_SP 0   // saved stack pointer while switched out
#define CACS_CORO_NEXT 8 // next coroutine of the ready ring

// struct sched (thread-local `cacs__sched`)
#define CACS_SCHED_CURRENT 0 // running coroutine
#define CACS_SCHED_SLOW 8    // nonzero: every yield takes cacs__yield_slow

// Bytes the suspended frame occupies above the saved sp.
#define CACS_CORO_FRAME 16

#endif // CACS_LIB_CORO_LAYOUT_H
