//===- lib/effect_layout.h - Offsets for effect.c and effect_*.S -*- C -*-===//
//
// The fast paths of perform and resume are written in assembly, one file
// per architecture (effect_x86_64.S, effect_aarch64.S); lib/effect.c is
// everything else, and the fallback of every case the assembly does not
// take. This table is the only place the assembly learns where the fields
// it touches live; effect.c pins every entry with
// _Static_assert(offsetof(...)), so a reordered struct fails to compile
// instead of corrupting stacks.
//
// CACS_EFFECT_ASM says whether the assembly defines the preserve_none
// entries cacs__effect_perform_pn and cacs__effect_resume_pn, jumping to
// effect.c's C paths (cacs__effect_perform_c, cacs__effect_resume_c) for
// the rest; otherwise effect.c's C paths are those entries. The
// assembly's switches are effect.c's tail switches, so it is there only
// where effect.c takes them (EFFECT_TAIL, which effect.c checks against
// this): not under CET's or BTI's landing pads, not in a build of libcacs
// with ASan; and only with local-exec TLS (offsets from the thread pointer
// for the three thread-local blocks it reads). Under every callee-saved
// list, the empty one (-fpreserve-none-callee-saved=none, x86-64)
// included: the C paths' resume points hold rbp and rbx as the assembly's
// do (effect.c, EFFECT_TAIL).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_EFFECT_LAYOUT_H
#define CACS_LIB_EFFECT_LAYOUT_H

#if (defined(__x86_64__) && !(defined(__CET__) && (__CET__ & 1)) ||          \
     defined(__aarch64__) && !(defined(__ARM_FEATURE_BTI_DEFAULT) &&           \
                               __ARM_FEATURE_BTI_DEFAULT)) &&                  \
    !defined(CACS_TLS_INITIAL_EXEC) && !defined(CACS_NO_TAIL_SWITCH) &&        \
    !defined(CACS_NO_PRESERVE_NONE) && !defined(__SANITIZE_ADDRESS__)
#if defined(__has_feature)
#if !__has_feature(address_sanitizer)
#define CACS_EFFECT_ASM 1
#endif
#else
#define CACS_EFFECT_ASM 1
#endif
#endif
#ifndef CACS_EFFECT_ASM
#define CACS_EFFECT_ASM 0
#endif

// cacs_context (cacs/switch.h)
#define CACS_CTX_SP 0
#define CACS_CTX_PC 8
#define CACS_CTX_FP 16
#define CACS_CTX_BP 24
#define CACS_CTX_PR 32 // x18 (AArch64)

// struct cacs_effect (cacs/effect.h)
#define CACS_EFFECT_ID 8
#define CACS_EFFECT_SLOT 12 // 32 bits: its entry in top_lo (effect_slot)

// struct cacs_effect_coro
#define CACS_EK_SELF 112      // cacs_context: where it continues as a tail
#define CACS_EK_CALLER 160    // cacs_context: where its resumer continues
#define CACS_EK_PARENT 208    // its resumer
#define CACS_EK_TAIL 224      // the performer of its request
#define CACS_EK_NSAVED 240    // 32 bits: the number of effects it handles
#define CACS_EK_SET0 248      // its handled set's first effect
#define CACS_EK_SET1 256      // and second (NULL for a set of one)
#define CACS_EK_RUNNING 392   // byte
#define CACS_EK_SYNC_BASE 396 // 32 bits

// The call handlers' fields, for the assembly's call path (the same on
// both targets: the tools' fields before them are the same size).
#define CACS_EK_CALLS 456     // struct call_entry *: k's call handlers
#define CACS_EK_NCALLS 464    // 32 bits: how many
#define CACS_EK_CALLING 480   // the coroutine whose call runs with k innermost
#define CACS_EK_IN_CALL 488   // byte: CACS_CALL_RUNS while a call of k's runs
#define CACS_CALL_RUNS 1      // effect.c's CALL_RUNS
#define CACS_CALL_SIZE 24     // struct call_entry:
#define CACS_CALL_ID 0        // id (32 bits),
#define CACS_CALL_FN 8        // fn,
#define CACS_CALL_ENV 16      // env, right after fn (an ldp on AArch64)
#define CACS_SYNC_CALLS 0x40000000 // effect.c's SYNC_CALLS (sync_base)

// struct effect_thread (thread-local cacs__effect_thread)
#define CACS_ET_TOP_INLINE 16
// top_lo: the entries of ids below CACS_ET_TOP_INLINE, and
// [CACS_ET_TOP_INLINE], never set (effect.c's effect_slot)
#define CACS_ET_TOP_LO 0
#define CACS_ET_CUR 136
#define CACS_ET_PEND 144
#define CACS_ET_OWNER 152
#define CACS_ET_TOP 160
#define CACS_ET_TOP_CAP 168 // 32 bits

// struct cacs__syncblk (thread-local cacs__syncblk, syncblock.h)
#define CACS_SYNCBLK_DEPTH 0 // 32 bits

#endif // CACS_LIB_EFFECT_LAYOUT_H
