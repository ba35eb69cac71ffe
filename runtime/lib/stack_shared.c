//===- lib/stack_shared.c - Shared (copy) stacks --------------------------===//
//
// Coroutines created with CACS_STACK_SHARED (cacs/stack.h, "Shared
// stacks") run on one execution stack per size and thread, and their used
// part is copied off it when another takes it, and back before they run
// (the switch calls in through shared_stack.h, on its slow path only).
// What such a coroutine keeps of its own is a short descriptor and the
// saved copy, both in the heap: at millions of idle coroutines every byte
// counts, which is also why their names are shared (below).
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "cacs/stack.h"
#include "errors.h"
#include "internal.h"
#include "shared_stack.h"
#include "stack_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if CACS_ASAN
#include <sanitizer/asan_interface.h>
#endif

// --- names of shared-stack coroutines (stack.h: owner_ref) ------------------

// A name, truncated as owner[] truncates, after its reference count. The
// coroutines a thread creates in a row with the same name share one copy
// (T.last_name): a server's millions of connections typically do.
typedef struct shared_name {
  size_t refs;
  char s[];
} shared_name;

static shared_name *name_of(const char *s) {
  return (shared_name *)(void *)(s - offsetof(shared_name, s));
}

// The shared copy of `name`; NULL if there is no memory for one (the
// stack is then unnamed: names are for reports, not worth a failure).
static const char *name_get(const char *name) {
  size_t len = 0;
  while (name[len] && len + 1 < sizeof(((cacs_stack *)0)->owner))
    ++len;
  shared_name *n = T.last_name;
  if (n && !strncmp(n->s, name, len) && !n->s[len]) {
    n->refs++;
    return n->s;
  }
  if (!(n = malloc(sizeof *n + len + 1)))
    return NULL;
  n->refs = 1;
  memcpy(n->s, name, len);
  n->s[len] = 0;
  T.last_name = n;
  return n->s;
}

static void name_release(const char *s) {
  if (!s)
    return;
  shared_name *n = name_of(s);
  if (--n->refs)
    return;
  if (T.last_name == n)
    T.last_name = NULL;
  free(n);
}

// --- shared stacks (cacs/stack.h, shared_stack.h) ---------------------------

// The saved frame pointer lies below the saved stack pointer on x86-64
// (coro_layout.h): the saved part starts that much lower.
#if defined(__x86_64__)
#define SHARED_BELOW_SP 16
#else
#define SHARED_BELOW_SP 0
#endif

static cacs__shstack *shared_new(size_t size, int debug) {
  // Debug mode protects the whole stack while its coroutine is out: the
  // block then takes a page of its own above it.
  cacs__shstack *sh = (cacs__shstack *)cacs_stack_alloc(
      size, debug ? page_size : sizeof(cacs__shstack), CACS_STACK_NORANDOM);
  if (!sh)
    return NULL;
  memset((char *)sh + sizeof(cacs_stack), 0,
         sizeof *sh - sizeof(cacs_stack));
  sh->stk.flags |= CACS_SHARED_EXEC;
  cacs_stack_set_owner(&sh->stk, debug ? "shared stack (debug)" : "shared stack",
                       0);
  sh->size = size;
  sh->next = T.shared;
  T.shared = sh;
  return sh;
}

cacs_stack *cacs_stack_shared(size_t size) {
  cacs__stack_thread_init();
  if (size == 0)
    size = CACS_STACK_DEFAULT_SIZE;
  for (cacs__shstack *sh = T.shared; sh; sh = sh->next)
    if (sh->size == size && !sh->debug_owner)
      return &sh->stk;
  cacs__shstack *sh = shared_new(size, 0);
  return sh ? &sh->stk : NULL;
}

void *cacs__shared_alloc(size_t size, size_t hdr_size, size_t desc_off,
                         unsigned flags) {
  if (size == 0)
    size = CACS_STACK_DEFAULT_SIZE;
  // The saved copy's capacity is 32 bits (cacs_stack.save_cap): a shared
  // stack of 4 GiB or more fails as a size no mapping can hold does.
  if (size > UINT32_MAX - page_size) {
    cacs__set_errno(ENOMEM);
    return NULL;
  }
  if (!T.switcher &&
      !(T.switcher = (cacs_stack *)cacs_stack_alloc(
            0, sizeof(cacs_stack), CACS_STACK_NORANDOM)))
    return NULL;
  if (hdr_size < desc_off + CACS_STACK_SHARED_DESC_SIZE)
    hdr_size = desc_off + CACS_STACK_SHARED_DESC_SIZE;
  cacs__shstack *sh;
  if (cacs__shared_debug) { // a stack of its own, to protect while it is out
    sh = shared_new(size, 1);
  } else {
    cacs_stack *st = cacs_stack_shared(size);
    sh = (cacs__shstack *)st;
  }
  if (!sh)
    return NULL;
  char *hdr = malloc(hdr_size); // every byte counts at millions of them
  if (!hdr) {
    if (cacs__shared_debug)
      cacs__shared_free(&sh->stk);
    return NULL;
  }
  cacs_stack *s = (cacs_stack *)(hdr + desc_off);
  // The short descriptor only (stack.h): no map_size, lo, top or owner[].
  memset(s, 0, CACS_STACK_SHARED_DESC_SIZE);
  s->map = hdr; // the control block, freed with it
  s->flags = flags & ~(unsigned)CACS_STACK_NOPOOL;
  s->pool = sh;
  sh->users++;
  if (cacs__shared_debug)
    sh->debug_owner = s;
  // Not in the overflow registry: the shared stack is, for all its users.
  return hdr;
}

// Copies of stack contents; under ASan without its checks (the stack holds
// its redzones) and without a call of memcpy, which ASan intercepts.
#if CACS_ASAN
__attribute__((no_sanitize("address"), no_builtin("memcpy"), noinline)) static void
shared_copy(void *dst, const void *src, size_t n) {
  uint64_t *d = dst;
  const uint64_t *s = src;
  for (size_t i = 0; i < n / 8; ++i)
    d[i] = s[i];
}
#else
static void shared_copy(void *dst, const void *src, size_t n) {
  memcpy(dst, src, n);
}
#endif

// Save resident `d`, whose stack pointer is `sp`: from just below it to the
// top. A stack pointer outside the shared stack means it was switched out
// inside a generator it resumed: save all of it.
static void shared_save(cacs__shstack *sh, cacs_stack *d, void *sp) {
  char *lo = sh->stk.lo, *top = sh->stk.top, *from = (char *)sp;
  int whole = !(from >= lo && from <= top);
  from = whole || from - lo < SHARED_BELOW_SP ? lo : from - SHARED_BELOW_SP;
  size_t len = (size_t)(top - from);
  if (len > d->save_cap) { // save_cap 0: `save` is the image, not ours
    void *b = realloc(d->save_cap ? d->save : NULL, len);
    if (!b)
      cacs__fatal("cacs: out of memory saving a shared-stack coroutine\n");
    d->save = b;
    d->save_cap = (uint32_t)len; // < 4 GiB: shared_alloc
  }
  // Below the stack pointers memcheck saw, the whole-stack copy reads
  // memory it holds as no-access; nothing there is used.
  if (whole)
    VALGRIND_DISABLE_ERROR_REPORTING;
  shared_copy(d->save, from, len);
  if (whole)
    VALGRIND_ENABLE_ERROR_REPORTING;
  T.shared_saved += len - d->save_len;
  d->save_len = len;
}

static void shared_load(cacs__shstack *sh, cacs_stack *d) {
  char *lo = sh->stk.lo, *top = sh->stk.top;
  char *dst = top - d->save_len;
  VALGRIND_MAKE_MEM_UNDEFINED(dst, d->save_len);
#if CACS_ASAN
  // The poisoning of the frames that were here is not this coroutine's.
  __asan_unpoison_memory_region(lo, (size_t)(top - lo));
#else
  (void)lo;
#endif
  shared_copy(dst, d->save, d->save_len);
  T.shared_saved -= d->save_len;
  d->save_len = 0;
}

static void shared_protect(cacs__shstack *sh, int prot) {
  char *lo = sh->stk.lo;
  if (mprotect(lo, (size_t)((char *)sh - lo), prot) != 0)
    cacs__fatal("cacs: shared stack debug mode: mprotect failed\n");
  sh->vacated = prot == PROT_NONE;
}

int cacs__shared_via_switcher(const cacs_stack *from, const cacs_stack *to) {
  if ((to->flags & CACS_STACK_SHARED) &&
      ((cacs__shstack *)to->pool)->resident != to)
    return 1;
  return (from->flags & CACS_STACK_SHARED) &&
         ((cacs__shstack *)from->pool)->debug_owner;
}

void *cacs__shared_switcher(void) { return T.switcher->top; }

void cacs__shared_xfer(cacs_stack *from, void *const *from_sp, cacs_stack *to,
                       void *const *to_sp) {
  if (from && (from->flags & CACS_STACK_SHARED)) {
    cacs__shstack *sh = from->pool;
    if (sh->debug_owner && sh->resident == from && from != to) {
      shared_save(sh, from, *from_sp);
      sh->resident = NULL;
      shared_protect(sh, PROT_NONE);
    }
  }
  if (!(to->flags & CACS_STACK_SHARED))
    return;
  cacs__shstack *sh = to->pool;
  if (sh->resident == to)
    return;
  if (sh->resident)
    shared_save(sh, sh->resident, *sh->resident_sp);
  if (sh->vacated)
    shared_protect(sh, PROT_READ | PROT_WRITE);
  shared_load(sh, to);
  sh->resident = to;
  sh->resident_sp = to_sp;
}

void cacs__shared_exit(cacs_stack *dying) {
  if (!(dying->flags & CACS_STACK_SHARED))
    return;
  cacs__shstack *sh = dying->pool;
  if (sh->resident == dying)
    sh->resident = NULL; // its frames are garbage now
}

void *cacs__shared_set_image(cacs_stack *s, const void *image, size_t len) {
  cacs__shstack *sh = s->pool;
  if (s->save_cap)
    free(s->save);
  s->save = (void *)image;
  s->save_cap = 0; // not ours to grow or free
  T.shared_saved += len - s->save_len;
  s->save_len = len;
  if (sh->resident == s)
    sh->resident = NULL;
  return (char *)sh->stk.top - len;
}

size_t cacs_stack_shared_saved(void) { return T.shared_saved; }

static void shared_unlink_free(cacs__shstack *sh) {
  cacs__shstack **pp = &T.shared;
  while (*pp != sh)
    pp = &(*pp)->next;
  *pp = sh->next;
  if (sh->vacated)
    shared_protect(sh, PROT_READ | PROT_WRITE);
  cacs_stack_free(&sh->stk);
}

void cacs__shared_thread_exit(void) {
  for (cacs__shstack *sh = T.shared, *next; sh; sh = next) {
    next = sh->next;
    if (!sh->users)
      shared_unlink_free(sh);
  }
  if (T.switcher && !T.shared) {
    cacs_stack_free(T.switcher);
    T.switcher = NULL;
  }
}

void cacs__shared_free(cacs_stack *s) {
  cacs__shstack *sh = s->pool;
  if (sh->resident == s)
    sh->resident = NULL;
  T.shared_saved -= s->save_len;
  if (s->save_cap)
    free(s->save);
  name_release(s->owner_ref);
  sh->users--;
  free(s->map);
  if (sh->debug_owner)
    shared_unlink_free(sh);
  else if (T.exited && !sh->users)
    cacs__shared_thread_exit(); // what thread_exit left for later
}

const char *cacs__stack_owner(const cacs_stack *s) {
  if (s->flags & CACS_STACK_SHARED)
    return s->owner_ref;
  return (s->flags & CACS__STACK_UNNAMED) ? NULL : s->owner;
}

const cacs_stack *cacs__stack_exec(const cacs_stack *s) {
  return (s->flags & CACS_STACK_SHARED) ? &((cacs__shstack *)s->pool)->stk
                                        : s;
}

void cacs_stack_set_owner(cacs_stack *s, const char *name, uint64_t id) {
  if (s->flags & CACS_STACK_SHARED) {
    const char *old = s->owner_ref;
    s->owner_ref = name_get(name ? name : "");
    name_release(old);
    s->owner_id = id;
    return;
  }
  s->flags &= ~CACS__STACK_UNNAMED;
  size_t i = 0;
  if (name)
    for (; name[i] && i + 1 < sizeof s->owner; ++i)
      s->owner[i] = name[i];
  s->owner[i] = 0;
  s->owner_id = id;
}
