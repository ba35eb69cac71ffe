//===- cacs/instack.h - In-stack generators ----------------------*- C -*-===//
//
// The in-stack generator of "Stackful Coroutine Made Fast" (section 3.2):
// the generator runs as ordinary frames on its consumer's stack, right below
// the consumer's frame, and a switch in either direction moves only the
// resume address, the frame pointer and rbx / x19 (x86-64: lea; xchg rbp;
// xchg rbx; call or ret), with every other register but a few the generator
// keeps declared clobbered (CACS: the compiler spills what is live).
// Nothing is allocated; a generator may yield from any call depth.
//
//   static uint64_t seq(cacs_isg_ctx *ctx, void *arg) {
//     for (uint64_t c = (uintptr_t)arg; c; --c)
//       cacs_isg_yield(ctx, c);            // any depth: pass ctx down
//     return 0;
//   }
//   uint64_t sum(uint64_t n) {
//     cacs_isg g;
//     uint64_t s = 0;
//     for (uint64_t v = cacs_isg_start(&g, seq, (void *)n); !cacs_isg_done(&g);
//          v = cacs_isg_next(&g))          // or cacs_isg_resume(&g, in)
//       s += v;
//     return s;
//   }
//
// How it works. The consumer's stack pointer stays below the generator's
// frames while both are alive: after a yield the consumer continues with the
// generator's stack pointer, so whatever it calls lands below the generator
// frames and nothing of them is overwritten. That is correct because the
// consumer addresses its own frame through its frame pointer:
// cacs_isg_start() puts a zero-byte dynamic allocation into the consumer,
// which makes the compiler do so.
//
// Rules (each one is what the design relies on):
//   - cacs_isg_start, every cacs_isg_resume and the end of the generator's
//     use must be in the same function (the consumer), which must not grow its
//     stack (alloca, VLAs) between start and the generator's end.
//   - A cacs_isg may not be copied or used from another function; when the
//     consumer returns, an unfinished generator's frames are discarded
//     without running anything (no unwinding: the C++ wrapper in
//     instack.hpp unwinds them).
//   - Not under ASan (its instrumented frames are realigned). Under SafeStack
//     only when compiled by cacs (see CACS__ISG_CONSUMER_MARK).
//   - The generator function may call anything and recurse; it yields
//     through the ctx it was given (or a copy it hands back by returning:
//     see cacs_isg_fn).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_INSTACK_H
#define CACS_INSTACK_H

#include "cacs/detail/contract.h"
#include "cacs/switch.h"

#include <stddef.h>
#include <stdint.h>

#if !defined(__clang__)
// gcc does not keep the frame-pointer addressing the design relies on.
#error "cacs/instack.h needs clang (use cacs/generator.h with gcc)"
#endif

#ifdef __cplusplus
extern "C" {
#endif

/// Generator side: where the consumer continues (resume address, frame
/// pointer and rbx / x19, which either side may use as base pointer).
/// Updated by every cacs_isg_yield.
typedef struct cacs_isg_ctx {
  void *pc;
  void *fp;
  void *bp;
} cacs_isg_ctx;

/// Consumer side: the generator's frame pointer, rbx / x19 and the
/// registers it keeps across its yields (instack_<arch>.h); pc == NULL once
/// finished (x86-64: 1 while suspended, its resume address is on the stack).
typedef struct cacs_isg {
  void *pc;
  void *fp;
  void *bp; ///< the generator's rbx / x19
  void *keep[4];
} cacs_isg;

/// A generator: runs on the consumer's stack; its return value is what
/// cacs_isg_start/cacs_isg_resume return when it ends. It must leave the
/// latest consumer resume point in *ctx when it returns (it does when it
/// yields through ctx itself; a generator that works on a local copy for
/// speed copies it back before returning).
typedef uint64_t (*cacs_isg_fn)(cacs_isg_ctx *ctx, void *arg);

// The switch exchanges rbx / x19 like the frame pointer: a frame with a
// dynamic allocation and over-aligned locals (or, on AArch64, 256 bytes of
// locals or more) is addressed through it (base pointer). Should a base
// pointer still end up in a clobber list, the compiler's warning (which
// would hide a miscompile) is an error here.
// Helpers of instack_<arch>.h, over the registers it names:
// CACS__ISG_KEEP_REGS, the generator's registers, which the consumer's
// switches take and give back as operands (its compiler holds them for the
// generator between switches), and CACS__ISG_RET_REG.
#define CACS__ISG_KEEP_DECL_(g, r0, r1, r2, r3)                                \
  register void *cacs_k0_ __asm__(r0) = (g)->keep[0];                          \
  register void *cacs_k1_ __asm__(r1) = (g)->keep[1];                          \
  register void *cacs_k2_ __asm__(r2) = (g)->keep[2];                          \
  register void *cacs_k3_ __asm__(r3) = (g)->keep[3]
#define CACS__ISG_KEEP_DECL_X_(g, regs) CACS__ISG_KEEP_DECL_(g, regs)
#define CACS__ISG_KEEP_DECL(g) CACS__ISG_KEEP_DECL_X_(g, CACS__ISG_KEEP_REGS)
#define CACS__ISG_KEEP_OPS                                                     \
  "+r"(cacs_k0_), "+r"(cacs_k1_), "+r"(cacs_k2_), "+r"(cacs_k3_)
#define CACS__ISG_KEEP_STORE(g)                                                \
  ((g)->keep[0] = cacs_k0_, (g)->keep[1] = cacs_k1_, (g)->keep[2] = cacs_k2_,  \
   (g)->keep[3] = cacs_k3_)

// The "finished" path of an asm goto (the generator has ended) uses none of
// the asm's outputs: LLVM (19 and 22) loses outputs on the indirect edge of
// an asm goto when they flow into a phi (seen on AArch64: the generator's
// return value replaced by the last yielded one). The return value is read
// from its register by an asm of its own, the first statement of the path;
// the rest of *g is dead, overwritten so that the old values are too.
#define CACS__ISG_FINISHED(g)                                                  \
  do {                                                                         \
    register uint64_t cacs_r_ __asm__(CACS__ISG_RET_REG);                      \
    __asm__ volatile("" : "=r"(cacs_r_));                                      \
    (g)->pc = (g)->fp = (g)->bp = 0;                                           \
    (g)->keep[0] = (g)->keep[1] = (g)->keep[2] = (g)->keep[3] = 0;             \
    return cacs_r_;                                                            \
  } while (0)

// Does the frame of a function that yields need the cold call of
// cacs_isg_yield below? On x86-64 it must be a call-aligned frame without a
// red zone (instack_x86_64.h). Compiled by cacs (the front door defines
// __CACS__ and loads the pass plugin), the pass gives the marked yield such
// a frame: the marker, an `.error` line that the pass removes, stops the
// build if the plugin did not run (the pass matches the text exactly:
// cacs/detail/contract.h). AArch64 needs neither: its stack pointer is
// always 16-byte aligned and Linux has no red zone there.
#if defined(__x86_64__) && defined(__CACS__)
#define CACS__ISG_YIELD_NEEDS_CALL 0
#define CACS__ISG_YIELD_MARK CACS_CONTRACT_INSTACK_YIELD_MARKER
#elif defined(__x86_64__)
#define CACS__ISG_YIELD_NEEDS_CALL 1
#define CACS__ISG_YIELD_MARK ""
#else
#define CACS__ISG_YIELD_NEEDS_CALL 0
#endif

#pragma clang diagnostic push
#pragma clang diagnostic error "-Winline-asm"
#if defined(__x86_64__)
#include "cacs/detail/instack_x86_64.h"
#elif defined(__aarch64__)
#include "cacs/detail/instack_aarch64.h"
#endif
#pragma clang diagnostic pop

/// After a yield: was it resumed by cacs__isg_cancel? (The request is bit 63
/// of the consumer's resume address, never set in a user-space address;
/// cleared here.)
static CACS_ALWAYS_INLINE int cacs__isg_cancelled(cacs_isg_ctx *ctx) {
  if (__builtin_expect((intptr_t)ctx->pc >= 0, 1))
    return 0;
  ctx->pc = (void *)((uintptr_t)ctx->pc & ~((uintptr_t)1 << 63));
  return 1;
}

/// The cancel path of a C generator's yield where CACS__ISG_YIELD_NEEDS_CALL,
/// which nothing takes (only the C++ wrapper cancels): reports and aborts.
/// The call is what makes every function that yields a non-leaf
/// (instack_x86_64.h: stack alignment, red zone); an asm goto would do it
/// without the test, but LLVM then saves the callee-saved registers on every
/// path of the function (no shrink-wrapping), and a noreturn call has the
/// same effect. So it is declared returning. It never returns, so it may
/// claim to preserve every register (preserve_all): the call then costs the
/// hot path nothing but the test.
#if __has_attribute(preserve_all)
__attribute__((preserve_all))
#endif
void cacs__isg_cancelled_c(void);

/// Generator: hand `v` to the consumer and wait; returns the value of the
/// resume that continues us.
static CACS_ALWAYS_INLINE uint64_t cacs_isg_yield(cacs_isg_ctx *ctx,
                                                  uint64_t v) {
#if CACS__ISG_YIELD_NEEDS_CALL
  uint64_t in;
  // A loop, so that the cold path joins before the yield: joining after it
  // the compiler duplicates the code that follows into both paths.
  for (;;) {
    in = cacs__isg_yield(ctx, v, 0);
    if (__builtin_expect((intptr_t)ctx->pc >= 0, 1))
      return in;
    cacs__isg_cancelled_c();
  }
#else
  return cacs__isg_yield(ctx, v, 0);
#endif
}

/// Consumer: run the generator until its next yield (returns the value) or
/// its end (returns its return value; cacs_isg_done becomes true). `in` is
/// what the pending cacs_isg_yield returns. Never call it on a finished one.
static CACS_ALWAYS_INLINE uint64_t cacs_isg_resume(cacs_isg *g, uint64_t in) {
  return cacs__isg_resume(g, in, 0);
}

// Under SafeStack the allocation below must stay on the real stack, where
// it makes the frame-pointer addressing; an allocation whose address reaches
// inline assembly goes to the unsafe stack instead, and the consumer then
// addresses its frame from the stack pointer that the generator moves
// (silent wrong values). The cacs pass plugin tells SafeStack that the
// assembly neither keeps nor reads the address (it removes this marker, an
// `.error` line, so that a build without the plugin stops instead:
// cacs/detail/contract.h).
#if defined(__has_feature)
#if __has_feature(safe_stack)
#define CACS__ISG_CONSUMER_MARK CACS_CONTRACT_INSTACK_CONSUMER_MARKER
#endif
#endif
#ifndef CACS__ISG_CONSUMER_MARK
#define CACS__ISG_CONSUMER_MARK ""
#endif

/// A dynamic zero-byte allocation the optimizer cannot remove: it makes the
/// enclosing function address its frame through the frame pointer, which
/// the in-stack switch relies on (see above). A macro so that the
/// allocation is in the consumer itself. Its address goes straight to the
/// assembly: kept in a variable at -O0, it would be stored, which SafeStack
/// takes as an escape.
#define CACS_ISG_CONSUMER_FRAME()                                              \
  __extension__({                                                              \
    size_t cacs_z_ = 0;                                                        \
    __asm__("" : "+r"(cacs_z_));                                               \
    __asm__ volatile(CACS__ISG_CONSUMER_MARK                                   \
                     :                                                         \
                     : "r"(__builtin_alloca(cacs_z_))                          \
                     : "memory");                                              \
    (void)0;                                                                   \
  })

/// Start fn(ctx, arg) below the calling function's frame; returns its first
/// yielded value, or its return value if it ends at once (then
/// cacs_isg_done is true). A macro: the marker must be in the consumer
/// itself; inside an inlined function it would be followed by a stack
/// restore that puts the consumer's stack pointer back above the generator.
#define cacs_isg_start(g, fn, arg)                                             \
  (CACS_ISG_CONSUMER_FRAME(), cacs__isg_start((g), (fn), (arg)))

/// Consumer: whether the generator has ended (its function returned).
/// \return 1 once cacs_isg_start or a resume has returned the generator's
/// return value, else 0.
static CACS_ALWAYS_INLINE int cacs_isg_done(const cacs_isg *g) {
  return g->pc == 0;
}

/// cacs_isg_resume without a value for the generator (its pending
/// cacs_isg_yield returns an unspecified value): the value register is left
/// as it is, one instruction less.
static CACS_ALWAYS_INLINE uint64_t cacs_isg_next(cacs_isg *g) {
#if defined(__x86_64__)
  uint64_t any;
  __asm__ volatile("" : "=a"(any)); // whatever rax holds here
#else
  register uint64_t any __asm__("x0");
  __asm__ volatile("" : "=r"(any)); // whatever x0 holds here
#endif
  return cacs_isg_resume(g, any);
}

/// Resume the generator with a cancel request (the C++ wrapper's yield then
/// throws to unwind it: cacs__isg_cancelled). Returns when the generator
/// has finished, or yielded again.
static CACS_ALWAYS_INLINE void cacs__isg_cancel(cacs_isg *g) {
  cacs__isg_resume(g, 0, 1);
}


#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_INSTACK_H
