//===- cacs/syncblock.h - Blocks that no other coroutine interrupts -*- C -*-===//
//
// Charcoal's sync blocks ("Recovering Atomicity"): cooperative coroutines
// lose what async/await gives for free, knowing which calls can switch. A
// sync block restores it: from its start to its end, no other coroutine of
// the thread runs.
//
//   CACS_SYNC {
//     balance -= amount;   // no coroutine of this thread sees the middle
//     log_write(...);      // plain calls only
//   }
//
// The block is left by its end, return, goto, or break and continue, which
// leave the block itself (CACS_SYNC is a loop run once), not an enclosing
// loop; a cleanup closes it. Inside it:
//   - A switch to another coroutine is an error. At compile time, with
//     cacs, a call that can reach one, naming the path (docs/flags.md,
//     -fno-sync-block-check); calls it cannot see are assumed not to.
//     At run time every switch of libcacs checks the thread's depth of
//     blocks and aborts with a message naming the innermost block's file
//     and line: cacs_yield (even alone on its ring), the waits of
//     cacs/coro.h and cacs/sync.h, cacs_exit, the pool's yields and waits,
//     and CACS_PERFORM of an effect whose handler was resumed outside the
//     block (a perform inside a block always is).
//   - Allowed, by both checks (one mark on their declarations,
//     cacs/detail/contract.h): the I/O waits of cacs/io.h, which make the
//     blocking system call instead of parking (poll(2); in a pool
//     coroutine the worker blocks), and cacs_effect_resume, whose effect
//     coroutine comes back to the block (a switch it makes is checked at
//     run time). Generators' inline switches are no calls: allowed too.
//   - Spawns do not start before the block ends: cacs_create's coroutine
//     first runs at a switch, which the block forbids; cacs_pool_spawn's
//     is queued when the outermost block ends, where other workers may
//     take it. Deadlock: a block that waits, with a blocking call, for
//     what a coroutine spawned in it would do (a pipe it would write, a
//     cacs_pool_join from a plain thread) waits forever.
//   - A pool coroutine stays on its worker (it cannot switch, so it cannot
//     move).
//
// Blocks nest; the depth is per thread. Begin and end must pair on the same
// thread, in LIFO order (CACS_SYNC does it); an end without a begin aborts.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SYNCBLOCK_H
#define CACS_SYNCBLOCK_H

#ifdef __cplusplus
extern "C" {
#endif

/// What cacs_sync_end needs: the enclosing block's location.
typedef struct cacs_sync_token {
  const char *file;
  int line;
  int once;         // CACS_SYNC's loop runs its body once
  const char *call; // the enclosing block, a call on the system stack
} cacs_sync_token;

/// Open a block at file:line (named by the run-time checks).
cacs_sync_token cacs_sync_begin(const char *file, int line);
/// Close the block `t` came from.
void cacs_sync_end(cacs_sync_token *t);
/// The calling thread's depth of open blocks.
unsigned cacs_sync_depth(void);

/// A sync block: `CACS_SYNC { ... }`.
#define CACS_SYNC                                                              \
  for (cacs_sync_token cacs__sync_tok __attribute__((cleanup(cacs_sync_end))) = \
           cacs_sync_begin(__FILE__, __LINE__);                                \
       cacs__sync_tok.once; cacs__sync_tok.once = 0)

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_SYNCBLOCK_H
