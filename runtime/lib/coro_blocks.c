//===- lib/coro_blocks.c - Control blocks of coroutines without a stack ---===//
//
// A coroutine created before its stack (coro.c, "Stacks bound at the first
// run") keeps its control block here: per-thread chunks of one size of
// block, each 64 KiB aligned to its size (a block finds its chunk
// by masking its address), blocks taken from a chunk's free list or carved
// in order. Not malloc's: a burst of 100,000 coroutines takes 17 MB of
// blocks, which malloc's heap keeps resident as soon as anything is
// allocated above them (the stack cache's array, the program's next
// allocation).
//
// Chunks are carved in order from 2 MiB regions (one mmap per 32 chunks), and
// those that go back are unmapped in batches, neighbours merged into one
// range: each munmap of touched pages flushes the TLB, which in a VM with
// shadow paging cost 120-270 us a call, more than the 16 pages it freed
// (issue 38's first use: 100,000 coroutines created at once, then joined,
// unmapped 275 chunks one call each). A region mapped while the thread
// already uses a region's worth of chunks (a burst, some 11,000 blocks)
// asks for a transparent huge page: its first touch is one fault for 512
// pages instead of 512 (some 12 us each in that VM); what of it was not
// carved goes back when the burst is over. Regions of a steady state below
// that size stay in small pages, so RSS follows what is used.
//
// A chunk whose blocks are all free stays for the thread's next blocks while
// fewer than a bound are kept, and goes back beyond it: at once when the
// thread has no block left, else in a batch of 32 or at the end of an epoch
// (chunks pending are taken again first when blocks are needed). The bound
// is learned
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
#define REGION_BYTES ((size_t)2 * 1024 * 1024)
#define REGION_CHUNKS (REGION_BYTES / CHUNK_BYTES)
// Empty chunks beyond the bound gathered before one batch of munmaps.
#define PEND_MAX 32
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
  size_t inuse;            // chunks taken and not emptied since
  char *carve, *carve_end; // the current region's chunks not carved yet
  unsigned char huge;      // the current region asked for a huge page
  unsigned npend;          // empty chunks to go back at the next batch
  chunk *pend[PEND_MAX];
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

// The pending chunks unmapped, neighbours as one range (chunks are carved
// in address order and a burst frees them in that order): one TLB flush
// for many.
static void pend_flush(void) {
  unsigned n = B.npend;
  if (!n)
    return;
  for (unsigned i = 1; i < n; ++i) { // sort by address (n <= PEND_MAX)
    chunk *k = B.pend[i];
    unsigned j = i;
    for (; j && (uintptr_t)B.pend[j - 1] > (uintptr_t)k; --j)
      B.pend[j] = B.pend[j - 1];
    B.pend[j] = k;
  }
  for (unsigned i = 0; i < n;) {
    char *lo = (char *)B.pend[i], *hi = lo + CHUNK_BYTES;
    for (++i; i < n && (char *)B.pend[i] == hi; ++i)
      hi += CHUNK_BYTES;
    munmap(lo, (size_t)(hi - lo));
  }
  B.npend = 0;
}

// The current region's chunks not carved yet go back: resident, as the
// rest of its huge page, once a chunk of it was touched.
static void carve_drop(void) {
  if (B.carve != B.carve_end)
    munmap(B.carve, (size_t)(B.carve_end - B.carve));
  B.carve = B.carve_end = NULL;
  B.huge = 0;
}

// The thread has no block left: what is pending goes back, and a huge
// region's rest.
static void burst_end(void) {
  pend_flush();
  if (B.huge)
    carve_drop();
}

static void pend_push(chunk *k) {
  if (B.npend == PEND_MAX)
    pend_flush();
  B.pend[B.npend++] = k;
}

void *cacs__map_aligned(size_t bytes, size_t align, int huge) {
  char *p = mmap(NULL, bytes + align, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  char *r = (char *)(((uintptr_t)p + align - 1) & ~(align - 1));
  if (r != p)
    munmap(p, (size_t)(r - p));
  if (r + bytes != p + bytes + align)
    munmap(r + bytes, (size_t)(p + align - r));
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
  // Best effort, and either way: where transparent huge pages are "always",
  // a steady state's few blocks would hold a whole 2 MiB page resident.
  (void)madvise(r, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#else
  (void)huge;
#endif
  return r;
}

// A fresh chunk from the current region, else from a new one, a huge page
// where the thread already uses a region's worth of chunks.
static chunk *chunk_carve(void) {
  if (B.carve == B.carve_end) {
    int huge = B.inuse >= REGION_CHUNKS - 1;
    char *r = cacs__map_aligned(REGION_BYTES, REGION_BYTES, huge);
    if (!r)
      return NULL;
    B.huge = (unsigned char)huge;
    B.carve = r;
    B.carve_end = r + REGION_BYTES;
  }
  chunk *k = (chunk *)(void *)B.carve; // zero, as mapped
  B.carve += CHUNK_BYTES;
  return k;
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
    pend_push(k);
  }
  pend_flush();
}

void cacs__block_epoch_end(void) {
  pend_flush();
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

// A chunk for the next blocks: a spare one, one pending to go back, else a
// fresh one; a miss while chunks given back are unforgiven raises the bound.
__attribute__((noinline)) static chunk *chunk_take(void) {
  chunk *k;
  if (B.spare) {
    k = B.spare;
    B.spare = k->next;
    if (--B.nspare < B.low)
      B.low = B.nspare;
  } else if (B.npend) { // its pages still there: not given back after all
    k = B.pend[--B.npend];
    if (B.given)
      B.given--;
  } else {
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
    if (!(k = chunk_carve()))
      return NULL;
  }
  B.inuse++;
  return k;
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
  k->free = NULL; // carved again from the start: its first pages are warm
  k->carved = 0;
  if (B.nspare >= keep()) { // (>: a bound lowered since)
    pend_push(k);
    B.given++;
  } else {
    k->next = B.spare;
    B.spare = k;
    B.nspare++;
  }
  if (--B.inuse == 0) // no block left: the end of a burst
    burst_end();
}

void cacs__block_thread_exit(void) {
  spare_release(B.nspare);
  carve_drop();
  B.grown = B.given = B.low = 0;
  B.missed = 0;
}
