//===- lib/syncblock.h - The thread's sync blocks, for libcacs ---*- C -*-===//
//
// What the switches of libcacs read of cacs/syncblock.h: the thread's depth
// of open blocks and the innermost one's location. yield_<arch>.S does not
// read it: a block sets a bit of S.slow (core.h), which sends every yield
// to the slow branch, where the bit is tested first.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_SYNCBLOCK_H
#define CACS_LIB_SYNCBLOCK_H

#include "internal.h"

struct cacs__syncblk {
  unsigned depth;
  int line;
  const char *file;
  // Not NULL: the innermost block is a call on the system stack
  // (sysstack.c), named by this text ("fn at file:line"), not a CACS_SYNC.
  const char *call;
  // cacs_pool_spawn's coroutines held until the outermost block ends
  // (pool/pool.c), linked through their queue link.
  struct cacs__ptask *deferred, **deferred_tail;
};

extern CACS_HIDDEN CACS_TLS_LE struct cacs__syncblk cacs__syncblk;

/// What a block hides of the enclosing one while it is open.
struct cacs__sync_saved {
  const char *file, *call;
  int line;
};
/// Open a block: a CACS_SYNC at file:line (`call` NULL), or the call on
/// the system stack `call` names. cacs__sync_leave(save) closes it.
CACS_HIDDEN void cacs__sync_enter(struct cacs__sync_saved *save,
                                  const char *file, int line,
                                  const char *call);
CACS_HIDDEN void cacs__sync_leave(const struct cacs__sync_saved *save);

/// The outermost block has just closed: the coroutines spawned inside it
/// start (syncblock.c). Out of line: few blocks defer any.
__attribute__((cold)) CACS_HIDDEN void cacs__sync_spawn_deferred(void);

/// Abort: `call` would switch inside the innermost block.
__attribute__((noreturn, cold)) CACS_HIDDEN void
cacs__sync_violation(const char *call);

/// The check of a switch that is not cacs_yield's: one test of a TLS word.
static inline void cacs__sync_check(const char *call) {
  if (__builtin_expect(cacs__syncblk.depth != 0, 0))
    cacs__sync_violation(call);
}

/// pool.c: queue the coroutines spawned inside the block just ended.
/// Weak: a program without the pool links none of it.
CACS_HIDDEN void cacs__pool_spawn_deferred(struct cacs__ptask *list)
    __attribute__((weak));

#endif // CACS_LIB_SYNCBLOCK_H
