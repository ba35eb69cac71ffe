//===- lib/coro_blocks.c - Control blocks of coroutines without a stack ---===//
//
// A coroutine created before its stack (coro.c, "Stacks bound at the first
// run") keeps its control block here: per-thread chunks of one size of
// block, each a 64 KiB mapping aligned to its size (a block finds its chunk
// by masking its address), blocks taken from a chunk's free list or carved
// in order. Not malloc's: a burst of 100,000 coroutines takes 17 MB of
// blocks, which malloc's heap keeps resident as soon as anything is
// allocated above them (the stack cache's array, the program's next
// allocation).
//
// A chunk whose blocks are all free stays for the thread's next blocks while
// fewer than a bound are kept, and goes back beyond it. The bound is learned
// as the stack cache's is (stack.c): one at first, raised by one for each
// chunk needed again while chunks given back have not been forgiven (by an
// epoch without a miss), lowered at an epoch's end by the chunks that stayed
// spare all through it (the epochs of the live-handle table, coro.c, which
// every creation counts, lazy or not), and forgotten past what the cache's
// limit of coroutines takes (a burst). So rounds of many coroutines that run to
// their end one after the other (10,000 created, then joined: one stack, 27
// chunks) make no mmap and munmap a round (issue 38), and RSS after a burst
// returns to where it was.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "core.h"
#include "errors.h"

#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>

#define CHUNK_BYTES ((size_t)64 * 1024)
// 16-byte aligned, not to lines: a switch reads the first 16 bytes of a
// block (sp, next), which never straddle a line at this stride; 176 bytes.
#define BLOCK_BYTES ((sizeof(cacs_coro) + 15) & ~(size_t)15)

typedef struct chunk chunk;
struct chunk {
  chunk *next, *prev; // the thread's chunks with a free block
  void *free;         // freed blocks, LIFO (the first word of each)
  uint32_t used;      // blocks handed out and not freed
  uint32_t carved;    // blocks [0, carved) were handed out once
};

#define FIRST_BLOCK ((sizeof(chunk) + 63) & ~(size_t)63)
#define NBLOCKS ((CHUNK_BYTES - FIRST_BLOCK) / BLOCK_BYTES)
#define NBLOCKS_CONST ((size_t)NBLOCKS)

static CACS_TLS struct {
  chunk *avail; // chunks with a block to give
  chunk *spare; // empty chunks kept for the next blocks (through `next`)
  size_t nspare;
  // The learned bound (keep - 1 over one), the chunks given back since the
  // last epoch without a miss, the fewest spare during this epoch and
  // whether it missed (see the top of this file).
  size_t grown, given, low;
  unsigned char missed;
} B;

static void avail_push(chunk *k) {
  k->prev = NULL;
  k->next = B.avail;
  if (B.avail)
    B.avail->prev = k;
  B.avail = k;
}

static void avail_remove(chunk *k) {
  if (k->prev)
    k->prev->next = k->next;
  else
    B.avail = k->next;
  if (k->next)
    k->next->prev = k->prev;
}

// A mapping of CHUNK_BYTES aligned to its size: twice that, trimmed.
static chunk *chunk_new(void) {
  char *p = mmap(NULL, 2 * CHUNK_BYTES, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  char *k = (char *)(((uintptr_t)p + CHUNK_BYTES - 1) & ~(CHUNK_BYTES - 1));
  if (k != p)
    munmap(p, (size_t)(k - p));
  if (k + CHUNK_BYTES != p + 2 * CHUNK_BYTES)
    munmap(k + CHUNK_BYTES, (size_t)(p + 2 * CHUNK_BYTES - (k + CHUNK_BYTES)));
  return (chunk *)(void *)k; // zero, as mapped
}

static size_t keep(void) { return 1 + B.grown; }

// The chunks a steady state may keep: those of the stack cache's limit of
// coroutines (internal.h); needing more is a burst.
static size_t keep_limit(void) {
  return __atomic_load_n(&cacs__cache_limit, __ATOMIC_RELAXED) / NBLOCKS_CONST +
         1;
}

static void spare_release(size_t n) {
  while (n-- && B.spare) {
    chunk *k = B.spare;
    B.spare = k->next;
    B.nspare--;
    munmap(k, CHUNK_BYTES);
  }
}

void cacs__block_epoch_end(void) {
  if (!B.missed)
    B.given = 0;
  B.missed = 0;
  if (B.low) {
    size_t drop = B.low < B.grown ? B.low : B.grown;
    B.grown -= drop;
    if (B.nspare > keep())
      spare_release(B.nspare - keep());
  }
  B.low = B.nspare;
}

// A chunk for the next blocks: a spare one, else a new mapping; a miss
// while chunks given back are unforgiven raises the bound.
__attribute__((noinline)) static chunk *chunk_take(void) {
  if (B.spare) {
    chunk *k = B.spare;
    B.spare = k->next;
    if (--B.nspare < B.low)
      B.low = B.nspare;
    return k;
  }
  B.low = 0;
  B.missed = 1;
  if (B.given) {
    B.given--;
    if (keep() < keep_limit()) {
      B.grown++;
    } else { // a burst: forget
      B.grown = 0;
      B.given = 0;
    }
  }
  return chunk_new();
}

void *cacs__block_alloc(void) {
  chunk *k = B.avail;
  if (__builtin_expect(!k, 0)) {
    if (!(k = chunk_take())) {
      cacs__set_errno(ENOMEM);
      return NULL;
    }
    avail_push(k);
  }
  void *p;
  if (k->free) {
    p = k->free;
    k->free = *(void **)p;
  } else {
    p = (char *)k + FIRST_BLOCK + (size_t)k->carved++ * BLOCK_BYTES;
  }
  if (++k->used == NBLOCKS)
    avail_remove(k);
  return p;
}

void cacs__block_free(void *p) {
  chunk *k = (chunk *)((uintptr_t)p & ~(CHUNK_BYTES - 1));
  *(void **)p = k->free;
  k->free = p;
  if (k->used-- == NBLOCKS)
    avail_push(k);
  if (k->used)
    return;
  avail_remove(k);
  if (B.nspare >= keep()) { // (>: a bound lowered since)
    munmap(k, CHUNK_BYTES);
    B.given++;
    return;
  }
  k->free = NULL; // carved again from the start: its first pages are warm
  k->carved = 0;
  k->next = B.spare;
  B.spare = k;
  B.nspare++;
}

void cacs__block_thread_exit(void) {
  spare_release(B.nspare);
  B.grown = B.given = B.low = 0;
  B.missed = 0;
}
