//===- cacs/switch.h - Context-aware context switching ----------*- C -*-===//
//
// Context-Aware Context Switching (CACS): an inline-assembly context switch
// that declares (almost) every register clobbered, so the *compiler* spills
// exactly the values that are live across the switch at this call site,
// instead of a hand-written routine blindly saving every callee-saved
// register.
//
// A switch saves into `from` and loads from `to` only what the compiler is
// not allowed to treat as clobbered:
//   - the stack pointer and the resume address (stored in the context
//     struct, never pushed: pushing would write into the x86-64 red zone,
//     where a leaf-like caller may keep spilled values),
//   - the frame pointer (rbp / x29) and the base pointer (rbx / x19), which
//     the compiler may reserve and therefore refuses to see clobbered,
//   - on AArch64 the platform register x18 (reserved on some platforms).
// Everything else is listed as clobbered and handled by the compiler.
//
// One 64-bit value travels with every switch in a register (rax / x0):
// cacs_switch(from, to, v) delivers v to whoever is resumed, and returns the
// value passed by whoever resumes us later.
//
// Policies (see runtime/README.md):
//   - FP control (MXCSR + x87 control word, FPCR) is *shared* by all contexts
//     of a thread; it is not switched here. coro.h offers per-coroutine save.
//   - CET IBT / BTI: resume labels get `endbr64` / `bti j` when the build
//     enables them; CACS_TAIL_SWITCH_BP then degrades to the plain switch since
//     return sites carry no landing pad. Shadow stacks (CET SHSTK) and the
//     AArch64 shadow call stack are NOT supported.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SWITCH_H
#define CACS_SWITCH_H

#include "cacs/detail/contract.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef __has_attribute
#define __has_attribute(x) 0
#endif

// preserve_none: the callee preserves no register but the stack/frame
// pointer (and LR on AArch64). Functions that switch context clobber every
// register anyway, so callers must not expect anything preserved; this lets
// them spill only what is live. Falls back to the default convention on
// compilers without it (gcc), which is slower but still correct.
#if __has_attribute(preserve_none) && !defined(CACS_NO_PRESERVE_NONE)
#define CACS_PRESERVE_NONE __attribute__((preserve_none))
#define CACS_HAS_PRESERVE_NONE 1
#else
#define CACS_PRESERVE_NONE
#define CACS_HAS_PRESERVE_NONE 0
#endif

#define CACS_ALWAYS_INLINE inline __attribute__((always_inline))

/// Saved execution context. The layout is shared by all architectures and
/// by the assembly in switch_<arch>.h: do not reorder.
typedef struct cacs_context {
  void *sp; ///< 0: stack pointer to resume with
  void *pc; ///< 8: resume address
  void *fp; ///< 16: rbp / x29 (frame pointer, cannot be declared clobbered)
  void *bp; ///< 24: rbx / x19 (base pointer, cannot be declared clobbered)
  void *pr; ///< 32: x18 (AArch64 platform register); unused on x86-64
  void *reserved;
} cacs_context;

/// Entry function of a fresh context: receives the `arg` given to
/// cacs_context_init and the value of the first switch into it. It must
/// never return (switch away for good instead).
typedef void (*cacs_context_fn)(void *arg, uint64_t first_value);

/// Prepare `ctx` so that the first switch to it calls fn(arg, value) on the
/// stack whose highest usable address is `stack_top`. Defined in libcacs
/// (the start trampoline carries the unwind info that ends backtraces).
void cacs_context_init(cacs_context *ctx, void *stack_top, cacs_context_fn fn,
                       void *arg);

// Code built with the empty callee-saved list for preserve_none
// (-fpreserve-none-callee-saved=none: x86-64, LLVM 22; the front door
// defines __CACS_PRESERVE_NONE_CALLEE_SAVED_NONE__): the tail switch saves
// neither rbp nor rbx (see CACS__TAIL_SAVE).
#if defined(__x86_64__) && CACS_HAS_PRESERVE_NONE &&                           \
    defined(__CACS_PRESERVE_NONE_CALLEE_SAVED_NONE__) && __clang_major__ >= 22
#define CACS__TAIL_EMPTY_LIST 1
#else
#define CACS__TAIL_EMPTY_LIST 0
#endif

#if defined(__x86_64__)
#include "cacs/detail/switch_x86_64.h"
#elif defined(__aarch64__)
#include "cacs/detail/switch_aarch64.h"
#else
#error "cacs: unsupported architecture (x86-64 and AArch64 only)"
#endif

// Tail form: use as the last statement of a CACS_PRESERVE_NONE function
// returning uint64_t. The function's return address becomes the resume
// address of `from`, so the resumer lands directly in our caller (no extra
// jump back into this function), and the value carried by the resumer becomes
// our return value (it arrives in the return register, rax / x0). Only valid
// when the enclosing function really is preserve_none: a default-convention
// caller would expect its callee-saved registers back. Otherwise (gcc,
// CET/BTI) it expands to a plain switch followed by a return, which is always
// correct. (libcacs's cacs_yield also uses the plain switch under ASan, whose
// fiber annotation must run after resumption.) The enclosing function must be
// __attribute__((noinline)): inlined, the builtins below would describe the
// frame of the function it was inlined into.
#if CACS_HAS_PRESERVE_NONE && !CACS_ARCH_NEEDS_LANDING_PADS &&                 \
    !defined(CACS_NO_TAIL_SWITCH)
#define CACS_HAS_TAIL_SWITCH 1
// __builtin_frame_address(0) forces a frame record {caller fp, return
// address} in the enclosing function, at every -O level. A preserve_none
// function saves no other register, so that record sits right below the
// caller's stack pointer (the CFA): sp to resume with = record + 16, and the
// caller's frame pointer is the record's first slot. (__builtin_dwarf_cfa is
// not usable: LLVM 19 returns x29 itself on AArch64.) CACS__TAIL_SAVE_FP
// saves that frame pointer too, which is right under every callee-saved
// list: libcacs's exported entries use it (lib/effect.c).
#define CACS__TAIL_SAVE_FP(from)                                               \
  do {                                                                         \
    (from)->pc = __builtin_extract_return_addr(__builtin_return_address(0));   \
    (from)->sp = (char *)__builtin_frame_address(0) + 16;                      \
    (from)->fp = *(void **)__builtin_frame_address(0);                         \
  } while (0)
#if CACS__TAIL_EMPTY_LIST
// Under the empty callee-saved list (-fpreserve-none-callee-saved=none,
// x86-64, LLVM 22), `from` gets its resume address and stack pointer only:
// the fp and bp fields keep stale values, which a resumer loads into rbp
// and rbx. That is right only where every caller of the enclosing function
// saves rbp and rbx itself: where the cacs pass gives the function the
// empty list (local, every use a direct call that takes the empty mask;
// docs/callee-saved.md). A function that keeps rbp (exported, address
// taken, invoked, a result or argument in memory) would hand its callers
// a stale rbp through this form: the pass rejects it there, naming the
// function (CACS_CONTRACT_TAIL_EMPTY_LIST_MARK; docs/hazards.md).
#define CACS__TAIL_SAVE(from)                                                  \
  do {                                                                         \
    (from)->pc = __builtin_extract_return_addr(__builtin_return_address(0));   \
    (from)->sp = (char *)__builtin_frame_address(0) + 16;                      \
  } while (0)
#else
#define CACS__TAIL_SAVE(from) CACS__TAIL_SAVE_FP(from)
#endif
/// Tail switch ending a function that returns uint64_t (the value received)
/// and started with CACS_SAVE_CALLER_BP(bp).
#define CACS_TAIL_SWITCH_BP(from, to, val, bp)                                 \
  do {                                                                         \
    cacs_context *cacs_f_ = (from);                                            \
    CACS__TAIL_SAVE(cacs_f_);                                                  \
    return cacs__tail_jump(cacs_f_, (to), (val), (bp));                        \
  } while (0)
/// Same, ending a function that returns void.
#define CACS_TAIL_SWITCH_VOID_BP(from, to, bp)                                 \
  do {                                                                         \
    cacs_context *cacs_f_ = (from);                                            \
    CACS__TAIL_SAVE(cacs_f_);                                                  \
    cacs__tail_jump(cacs_f_, (to), 0, (bp));                                   \
    return;                                                                    \
  } while (0)
#else
#define CACS_HAS_TAIL_SWITCH 0
#define CACS_TAIL_SWITCH_BP(from, to, val, bp)                                 \
  do {                                                                         \
    uint64_t cacs_v_ = cacs_switch((from), (to), (val));                       \
    cacs__bp_set(bp);                                                          \
    return cacs_v_;                                                            \
  } while (0)
#define CACS_TAIL_SWITCH_VOID_BP(from, to, bp)                                 \
  do {                                                                         \
    cacs_switch((from), (to), 0);                                              \
    cacs__bp_set(bp);                                                          \
    return;                                                                    \
  } while (0)
#endif

/// First statement of a preserve_none switching function: remember the
/// caller's base-pointer register (see cacs__bp_get).
#define CACS_SAVE_CALLER_BP(bp) void *bp = cacs__bp_get()

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_SWITCH_H
