//===- lib/syncblock.c - Sync blocks (cacs/syncblock.h) -------------------===//
//
// A block is a depth counter and the innermost block's location, per
// thread, and a bit of S.slow (core.h: SLOW_SYNC) while the depth is not 0:
// cacs_yield's assembly then takes its slow branch, which tests that bit
// before anything else and jumps to cacs__sync_yield_abort. So the fast
// path of a yield outside blocks is unchanged, and every wait of the core
// scheduler, which switches through that yield, is checked with it. The
// switches that do not go through it (cacs_exit, the pool's, effects')
// call cacs__sync_check.
//
//===----------------------------------------------------------------------===//

#include "cacs/syncblock.h"
#include "core.h"
#include "syncblock_open.h"

CACS_TLS_LE struct cacs__syncblk cacs__syncblk;

_Static_assert(SLOW_SYNC == 1 << 1, "yield_aarch64.S tests bit 1");

void cacs__sync_enter(struct cacs__sync_saved *save, const char *file,
                      int line, const char *call) {
  struct cacs__syncblk *b = &cacs__syncblk;
  save->file = b->file;
  save->line = b->line;
  b->file = file;
  b->line = line;
  save->call = cacs__sync_open(call);
}

cacs_sync_token cacs_sync_begin(const char *file, int line) {
  struct cacs__sync_saved save;
  cacs__sync_enter(&save, file, line, NULL);
  cacs_sync_token t = {save.file, save.line, 1, save.call};
  return t;
}

void cacs__sync_spawn_deferred(void) {
  struct cacs__syncblk *b = &cacs__syncblk;
  struct cacs__ptask *list = b->deferred;
  b->deferred = NULL;
  b->deferred_tail = NULL;
  cacs__pool_spawn_deferred(list);
}

void cacs__sync_leave(const struct cacs__sync_saved *save) {
  struct cacs__syncblk *b = &cacs__syncblk;
  if (__builtin_expect(b->depth == 0, 0))
    cacs__fatal("cacs: cacs_sync_end: no sync block is open on this "
                "thread\n");
  b->file = save->file;
  b->line = save->line;
  cacs__sync_close(save->call);
}

void cacs_sync_end(cacs_sync_token *t) {
  struct cacs__sync_saved save = {t->file, t->call, t->line};
  cacs__sync_leave(&save);
}

unsigned cacs_sync_depth(void) { return cacs__syncblk.depth; }

void cacs__sync_violation(const char *call) {
  if (cacs__syncblk.call)
    cacs__fatalf("cacs: %s inside %s: a call on the thread's system stack "
                 "must not switch\n",
                 call, cacs__syncblk.call);
  cacs__fatalf("cacs: %s inside the sync block at %s:%d: no other "
               "coroutine may run until the block ends\n",
               call, cacs__syncblk.file, cacs__syncblk.line);
}

// Reached from yield_<arch>.S by a jump, with the yield's caller's return
// address on the stack (the abort's backtrace shows the caller).
__attribute__((noreturn, visibility("hidden"))) void
cacs__sync_yield_abort(void);
void cacs__sync_yield_abort(void) {
  cacs__sync_violation("a switch to another coroutine (cacs_yield, or a "
                       "wait of cacs/coro.h or cacs/sync.h)");
}
