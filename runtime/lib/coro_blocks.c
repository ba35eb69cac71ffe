//===- lib/coro_blocks.c - Control blocks of coroutines without a stack ---===//
//
// A coroutine created before its stack (coro.c, "Stacks bound at the first
// run") keeps its control block here: per-thread chunks of one size of
// block, each a 64 KiB mapping aligned to its size (a block finds its chunk
// by masking its address), blocks taken from a chunk's free list or carved
// in order. Not malloc's: a burst of 100,000 coroutines takes 17 MB of
// blocks, which malloc's heap keeps resident as soon as anything is
// allocated above them (the stack cache's array, the program's next
// allocation); a chunk whose blocks are all free goes back at once, but one
// kept for the thread's next blocks.
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

static CACS_TLS struct {
  chunk *avail; // chunks with a block to give
  chunk *spare; // one empty chunk kept for the next blocks
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

void *cacs__block_alloc(void) {
  chunk *k = B.avail;
  if (__builtin_expect(!k, 0)) {
    if (B.spare) {
      k = B.spare;
      B.spare = NULL;
    } else if (!(k = chunk_new())) {
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
  if (B.spare) {
    munmap(k, CHUNK_BYTES);
    return;
  }
  k->free = NULL; // carved again from the start: its first pages are warm
  k->carved = 0;
  B.spare = k;
}

void cacs__block_thread_exit(void) {
  if (B.spare)
    munmap(B.spare, CHUNK_BYTES);
  B.spare = NULL;
}
