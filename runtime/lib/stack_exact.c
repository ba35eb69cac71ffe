//===- lib/stack_exact.c - Stacks of a proven size, from slabs -----------===//
//
// The stacks of coroutines whose entry has a proven bound (stack_bounds.c;
// coro.c sizes them): a stack of exactly the size asked and the control
// block right above it, one slot of a per-thread slab of slots of that
// size. Slots are packed, in multiples of 16 bytes: no guard page (an
// overflow is impossible by construction), no mapping of their own, no
// random start and no colour (slots whose size is not a multiple of the
// page spread their blocks over the cache's sets by themselves). The stack
// and its block are multiples of 8 bytes, and only the stack's top (the
// block's start) needs 16: a stack of 16n + 8 bytes under a block of
// 16m + 8 fills a slot of 16(n + m + 1) with no padding, the slab's slots
// starting 8 bytes into it (a class per size and start; x86-64's bounds
// are multiples of 8: 16 bytes less per coroutine in that case).
//
// A slab is one mapping of about EXACT_SLAB_BYTES, carved in order; freed
// slots go on the slab's free list (the link in the slot's first word) and
// are reused first, with their pages: slots are too small for their pages
// to be given back one by one. A slab with no slot in use is unmapped,
// unless it is its size's only one (a create/join loop then stays off
// mmap), or the thread has exited.
//
// Also here: the thread's exit stack. A coroutine on an exact stack runs
// its entry and nothing else of libcacs's there (cacs__bounded_start,
// trampoline_<arch>.S): it leaves for this stack to run cacs_exit, whose
// calls no bound covers. One guarded stack per thread is enough, since
// cacs_exit never returns and runs nothing that switches back to it.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "stack_exact.h"
#include "errors.h"
#include "stack_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define EXACT_SLAB_BYTES ((size_t)4 << 20)
#define EXACT_ALIGN 16 // the stack pointer's alignment on both targets
#define EXACT_GRAIN 8  // the sizes of a stack and of its block
// Fresh slots' pages are written ahead, from this many bytes at once up to
// as many as the slab has carved so far, and never more than MAX: one call
// instead of a page fault per few slots, a program with a few coroutines
// does not pay for more, and the pages written ahead of the last slot in
// use stay few (up to 2 MiB a slab before the cap: some 11 bytes per
// coroutine of 100,000 parked on 2 workers, bench/stackbound/pool.c).
#define EXACT_PREFAULT_MIN ((size_t)64 * 1024)
#define EXACT_PREFAULT_MAX ((size_t)256 * 1024)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
// cacs_exit's stack: it calls the scheduler's bookkeeping (and through it,
// rarely, malloc and munmap), nothing deep.
#define EXIT_STACK_SIZE ((size_t)16 * 1024)

typedef struct exact_slab exact_slab;
typedef struct exact_class exact_class;

struct exact_slab {
  char *base;                          // the mapping
  size_t size;                         // its length
  exact_class *cls;                    // its slot size
  exact_slab *avail_next, *avail_prev; // the class's slabs with a slot
  exact_slab *all_next;                // every slab of the class
  void *free;                          // freed slots, LIFO (link: first word)
  size_t prefaulted;                   // bytes from `base` written ahead
  uint32_t nslots, carved, live;
  unsigned in_avail;
};

struct exact_class {
  size_t slot; // stack + control block, rounded up to EXACT_ALIGN
  size_t off;  // where the slab's first slot starts: the stacks' tops align
  exact_slab *avail;
  exact_slab *all;
  exact_class *next;
};

static void avail_push(exact_class *c, exact_slab *s) {
  s->avail_prev = NULL;
  s->avail_next = c->avail;
  if (c->avail)
    c->avail->avail_prev = s;
  c->avail = s;
  s->in_avail = 1;
}

static void avail_remove(exact_class *c, exact_slab *s) {
  if (s->avail_prev)
    s->avail_prev->avail_next = s->avail_next;
  else
    c->avail = s->avail_next;
  if (s->avail_next)
    s->avail_next->avail_prev = s->avail_prev;
  s->in_avail = 0;
}

static exact_class *find_class(size_t slot, size_t off) {
  for (exact_class *c = T.exact; c; c = c->next)
    if (c->slot == slot && c->off == off)
      return c;
  exact_class *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->slot = slot;
  c->off = off;
  c->next = T.exact;
  T.exact = c;
  return c;
}

static exact_slab *slab_new(exact_class *c) {
  exact_slab *s = calloc(1, sizeof *s);
  if (!s)
    return NULL;
  size_t n = (EXACT_SLAB_BYTES - c->off) / c->slot;
  if (n == 0)
    n = 1;
  if (n > UINT32_MAX)
    n = UINT32_MAX;
  s->size = cacs__round_up(c->off + n * c->slot, page_size);
  s->base = mmap(NULL, s->size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (s->base == MAP_FAILED) {
    free(s);
    cacs__set_errno(ENOMEM);
    return NULL;
  }
  s->cls = c;
  s->nslots = (uint32_t)n;
  s->all_next = c->all;
  c->all = s;
  avail_push(c, s);
  return s;
}

static void slab_release(exact_slab *s) {
  exact_class *c = s->cls;
  if (s->in_avail)
    avail_remove(c, s);
  exact_slab **pp = &c->all;
  while (*pp != s)
    pp = &(*pp)->all_next;
  *pp = s->all_next;
  munmap(s->base, s->size);
  free(s);
}

// The classes without a slab left.
static void free_empty_classes(void) {
  for (exact_class **pp = &T.exact; *pp;) {
    exact_class *c = *pp;
    if (c->all) {
      pp = &c->next;
    } else {
      *pp = c->next;
      free(c);
    }
  }
}

void *cacs__exact_alloc(size_t stack_bytes, size_t hdr_size, size_t desc_off) {
  cacs__stack_thread_init();
  if (hdr_size < desc_off + CACS__EXACT_SHORT_DESC_SIZE)
    hdr_size = desc_off + CACS__EXACT_SHORT_DESC_SIZE;
  // The short descriptor (stack_exact.h) when the block ends before the
  // name: the pool's 32 bytes less per coroutine.
  int short_desc = hdr_size < desc_off + sizeof(cacs_stack);
  hdr_size = cacs__round_up(hdr_size, EXACT_GRAIN);
  size_t slot;
  if (stack_bytes % EXACT_GRAIN ||
      __builtin_add_overflow(stack_bytes, hdr_size, &slot) ||
      slot > ((size_t)1 << 40)) {
    cacs__set_errno(ENOMEM);
    return NULL;
  }
  slot = cacs__round_up(slot, EXACT_ALIGN);
  // The top, `stack_bytes` into a slot, 16-byte aligned.
  exact_class *c = find_class(slot, (EXACT_ALIGN - stack_bytes % EXACT_ALIGN) %
                                        EXACT_ALIGN);
  exact_slab *s = c ? c->avail : NULL;
  if (c && !s)
    s = slab_new(c);
  if (!s)
    return NULL;
  char *p;
  if (s->free) {
    p = s->free;
    s->free = *(void **)s->free;
  } else {
    p = s->base + c->off + (size_t)s->carved++ * slot;
    if ((size_t)(p + slot - s->base) > s->prefaulted && !cacs__on_valgrind()) {
      size_t ahead = s->prefaulted > EXACT_PREFAULT_MIN ? s->prefaulted
                                                        : EXACT_PREFAULT_MIN;
      if (ahead > EXACT_PREFAULT_MAX)
        ahead = EXACT_PREFAULT_MAX;
      size_t from = s->prefaulted & ~(page_size - 1);
      if (ahead > s->size - from)
        ahead = s->size - from;
      (void)madvise(s->base + from, ahead, MADV_POPULATE_WRITE); // or faults
      s->prefaulted = from + ahead;
    }
  }
  s->live++;
  if (!s->free && s->carved == s->nslots)
    avail_remove(c, s);

  // memcheck may hold a reused slot's stack as no-access (it saw the stack
  // pointer leave it): plain, undefined memory again.
  VALGRIND_MAKE_MEM_UNDEFINED(p, slot);
  char *hdr = p + stack_bytes; // the rest of the slot, if any, above it
  cacs_stack *d = (cacs_stack *)(hdr + desc_off);
  memset(d, 0, short_desc ? CACS__EXACT_SHORT_DESC_SIZE : sizeof *d);
  d->flags = CACS__STACK_EXACT | CACS_STACK_NOGUARD | CACS_STACK_NORANDOM |
             (short_desc ? CACS__STACK_UNNAMED : 0);
  d->pool = s;
  d->map = p;
  d->map_size = slot;
  d->lo = p;
  d->top = hdr; // 16-byte aligned: the slab is, the class's start
  d->vg_id = VALGRIND_STACK_REGISTER(p, p + slot);
  return hdr;
}

void cacs__exact_free(cacs_stack *d) {
  VALGRIND_STACK_DEREGISTER(d->vg_id);
  exact_slab *s = d->pool;
  exact_class *c = s->cls;
  char *p = d->map; // below the block `d` is in: write it last
  *(void **)p = s->free;
  s->free = p;
  s->live--;
  if (!s->in_avail)
    avail_push(c, s);
  if (s->live == 0 && (c->avail != s || s->avail_next || T.exited)) {
    slab_release(s);
    if (T.exited)
      free_empty_classes();
  }
}

void *cacs__exact_thread_ready(void) {
  if (!T.exit_stack) {
    cacs__stack_thread_init(); // the alternate signal stack among others
    stack_t ss;
    if (sigaltstack(NULL, &ss) != 0 || (ss.ss_flags & SS_DISABLE))
      return NULL;
    cacs_stack *x = cacs_stack_alloc(EXIT_STACK_SIZE, sizeof(cacs_stack),
                                     CACS_STACK_NORANDOM);
    if (!x)
      return NULL;
    cacs_stack_set_owner(x, "cacs exit stack", 0);
    T.exit_stack = x;
  }
  return (void *)((uintptr_t)T.exit_stack->top & ~(uintptr_t)15);
}

void cacs__exact_thread_exit(void) {
  if (T.exit_stack) {
    cacs_stack_free(T.exit_stack);
    T.exit_stack = NULL;
  }
  for (exact_class *c = T.exact; c; c = c->next)
    for (exact_slab *s = c->all, *next; s; s = next) {
      next = s->all_next;
      if (s->live == 0)
        slab_release(s);
    }
  free_empty_classes();
}
