//===- cacs/instack.h - In-stack generators ----------------------*- C -*-===//
//
// The in-stack generator of "Stackful Coroutine Made Fast" (section 3.2):
// the generator runs as ordinary frames on its consumer's stack, right below
// the consumer's frame, and a switch in either direction moves only the
// resume address and the frame pointer (x86-64: lea; xchg rbp; jmp), with
// every other register declared clobbered (CACS: the compiler spills what is
// live). Nothing is allocated; a generator may yield from any call depth.
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
//   - Not under ASan (its instrumented frames are realigned).
//   - The generator function may call anything and recurse; it yields
//     through the ctx it was given (or a copy it hands back by returning:
//     see cacs_isg_fn).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_INSTACK_H
#define CACS_INSTACK_H

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

/// Consumer side: where the generator continues; pc == NULL once finished.
typedef struct cacs_isg {
  void *pc;
  void *fp;
  void *bp; ///< the generator's rbx / x19
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
#pragma clang diagnostic push
#pragma clang diagnostic error "-Winline-asm"
#if defined(__x86_64__)
#include "cacs/instack_x86_64.h"
#elif defined(__aarch64__)
#include "cacs/instack_aarch64.h"
#endif
#pragma clang diagnostic pop

/// A dynamic zero-byte allocation the optimizer cannot remove: it makes the
/// enclosing function address its frame through the frame pointer, which
/// the in-stack switch relies on (see above). A macro so that the
/// allocation is in the consumer itself.
#define CACS_ISG_CONSUMER_FRAME()                                              \
  __extension__({                                                              \
    size_t cacs_z_ = 0;                                                        \
    __asm__("" : "+r"(cacs_z_));                                               \
    void *cacs_p_ = __builtin_alloca(cacs_z_);                                 \
    __asm__ volatile("" : : "r"(cacs_p_) : "memory");                          \
    (void)0;                                                                   \
  })

/// Start fn(ctx, arg) below the calling function's frame; returns its first
/// yielded value, or its return value if it ends at once (then
/// cacs_isg_done is true). A macro: the marker must be in the consumer
/// itself; inside an inlined function it would be followed by a stack
/// restore that puts the consumer's stack pointer back above the generator.
#define cacs_isg_start(g, fn, arg)                                             \
  (CACS_ISG_CONSUMER_FRAME(), cacs__isg_start((g), (fn), (arg)))

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

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_INSTACK_H
