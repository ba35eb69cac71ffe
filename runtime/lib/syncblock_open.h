//===- lib/syncblock_open.h - Opening and closing a sync block ---*- C -*-===//
//
// What every sync block does as it opens and closes, inline for the hot
// path of a call on the system stack (sysstack.c) and for syncblock.c: it
// writes the scheduler's state (core.h), which the files that include
// syncblock.h, the pool's among them, do not see.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_SYNCBLOCK_OPEN_H
#define CACS_LIB_SYNCBLOCK_OPEN_H

#include "core.h"
#include "syncblock.h"

/// The depth and the name of a block, without its file and line: what
/// every block opens, and all that a call on the system stack opens (its
/// hot path, sysstack.c, stores this and nothing else). The file and line
/// are read only while `call` is NULL, and a CACS_SYNC inside the call
/// saves and restores them: they may keep the enclosing block's. Returns
/// the enclosing block's name, for cacs__sync_close. Depth != 0 is SLOW_SYNC
/// set, so the bit is set whatever the depth was.
static inline const char *cacs__sync_open(const char *call) {
  const char *prev = cacs__syncblk.call;
  cacs__syncblk.call = call;
  ++cacs__syncblk.depth;
  cacs__sched.slow |= SLOW_SYNC;
  return prev;
}
static inline void cacs__sync_close(const char *prev) {
  cacs__syncblk.call = prev;
  if (--cacs__syncblk.depth == 0) {
    cacs__sched.slow &= (unsigned char)~SLOW_SYNC;
    if (__builtin_expect(cacs__syncblk.deferred != NULL, 0))
      cacs__sync_spawn_deferred();
  }
}

#endif // CACS_LIB_SYNCBLOCK_OPEN_H
