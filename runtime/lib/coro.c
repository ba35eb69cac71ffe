//===- lib/coro.c - Symmetric coroutines, per-thread round robin ---------===//

#define _GNU_SOURCE 1
#include "cacs/coro.h"
#include "internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cacs_coro {
  cacs_context ctx;       // first: a coroutine pointer is its context pointer
  cacs_coro *next, *prev; // ready ring (finished coroutines are unlinked)
  cacs_stack stack;       // this block lives at the top of that stack
  cacs_entry_fn entry;
  void *arg;
  unsigned flags;
  int done;
  uint32_t fpenv[2];   // private MXCSR+x87 CW / FPCR (CACS_CORO_SAVE_FPENV)
  void *asan_fake;     // ASan fake-stack handle while switched out
  const void *asan_lo; // ASan view of this coroutine's stack
  size_t asan_size;
};

// Read by cacs_yield before the thread has a scheduler: its ring holds only
// itself, so yield returns at once without a separate NULL check. Never
// written.
static cacs_coro idle = {.next = &idle, .prev = &idle};

typedef struct sched {
  cacs_coro *current;     // &idle until the scheduler is set up
  unsigned fpenv_users;   // coroutines with CACS_CORO_SAVE_FPENV alive
  cacs_coro *switch_from; // for ASan: who switched to the running coroutine
  uint64_t next_id;
  size_t count;
  uint32_t shared_fpenv[2];
  cacs_coro main;
} sched;

static CACS_TLS sched S = {.current = &idle};

static void sched_init(void) {
  S.main.next = S.main.prev = &S.main;
  cacs_stack_set_owner(&S.main.stack, "main", 0);
  S.current = &S.main;
}

static inline cacs_coro *current(void) {
  if (__builtin_expect(S.current == &idle, 0))
    sched_init();
  return S.current;
}

// --- ASan fiber annotations ----------------------------------------------
// ASan tracks one stack per thread; tell it whenever we move to another one
// so it neither reports false stack-buffer overflows nor loses fake frames.

static inline void asan_start(cacs_coro *from, cacs_coro *to, int dying) {
#if CACS_ASAN
  S.switch_from = from;
  __sanitizer_start_switch_fiber(dying ? NULL : &from->asan_fake, to->asan_lo,
                                 to->asan_size);
#else
  (void)from, (void)to, (void)dying;
#endif
}

static inline void asan_finish(cacs_coro *self) {
#if CACS_ASAN
  const void *lo;
  size_t size;
  __sanitizer_finish_switch_fiber(self ? self->asan_fake : NULL, &lo, &size);
  // The first switch away from main is where we learn main's stack bounds.
  if (S.switch_from && !S.switch_from->asan_lo) {
    S.switch_from->asan_lo = lo;
    S.switch_from->asan_size = size;
  }
#else
  (void)self;
#endif
}

// --- optional per-coroutine FP control -------------------------------------

static inline void fpenv_save(uint32_t *env) {
#if defined(__x86_64__)
  __asm__ volatile("stmxcsr %0\n\tfnstcw %1" : "=m"(env[0]), "=m"(env[1]));
#else
  uint64_t fpcr;
  __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
  env[0] = (uint32_t)fpcr;
#endif
}

static inline void fpenv_load(const uint32_t *env) {
#if defined(__x86_64__)
  __asm__ volatile("ldmxcsr %0\n\tfldcw %1" : : "m"(env[0]), "m"(env[1]));
#else
  uint64_t fpcr = env[0];
  __asm__ volatile("msr fpcr, %0" : : "r"(fpcr));
#endif
}

// Coroutines without CACS_CORO_SAVE_FPENV share the thread's environment;
// when one with a private environment runs, the shared one is parked in S.
__attribute__((noinline)) static void fpenv_switch(cacs_coro *from,
                                                   cacs_coro *to) {
  if (!((from->flags | to->flags) & CACS_CORO_SAVE_FPENV))
    return; // both use the shared environment
  fpenv_save((from->flags & CACS_CORO_SAVE_FPENV) ? from->fpenv
                                                  : S.shared_fpenv);
  fpenv_load((to->flags & CACS_CORO_SAVE_FPENV) ? to->fpenv : S.shared_fpenv);
}

// --- scheduler --------------------------------------------------------------

// noinline: the tail switch reads *our* return address and frame record;
// inlined into a caller it would resume that caller's caller instead.
__attribute__((noinline)) CACS_PRESERVE_NONE void cacs_yield(void) {
  CACS_SAVE_CALLER_BP(bp);
  cacs_coro *from = S.current;
  cacs_coro *to = from->next;
  if (from == to) // alone, or no scheduler yet on this thread (idle)
    CACS_RETURN_VOID_BP(bp);
  S.current = to;
  if (__builtin_expect(S.fpenv_users != 0, 0))
    fpenv_switch(from, to);
#if CACS_ASAN
  // The annotation must run after we are resumed, so no tail switch here.
  asan_start(from, to, 0);
  cacs_switch(&from->ctx, &to->ctx, 0);
  asan_finish(from);
  CACS_RETURN_VOID_BP(bp);
#else
  CACS_TAIL_SWITCH_VOID_BP(&from->ctx, &to->ctx, bp);
#endif
}

#if CACS_HAS_PRESERVE_NONE
// Default-convention entry for callers compiled without preserve_none
// (gcc): the call below makes the compiler save every callee-saved register
// that cacs__yield_pn may clobber.
void cacs__yield_default(void) __asm__("cacs_yield");
void cacs__yield_default(void) { cacs_yield(); }
#endif

static void ring_unlink(cacs_coro *c) {
  c->prev->next = c->next;
  c->next->prev = c->prev;
  c->next = c->prev = c;
}

void cacs_exit(void) {
  cacs_coro *c = current();
  if (c == &S.main) {
    static const char msg[] =
        "cacs: cacs_exit() called on the main coroutine\n";
    ssize_t r = write(2, msg, sizeof msg - 1);
    (void)r;
    abort();
  }
  c->done = 1;
  cacs_coro *to = c->next; // never c itself: main is always in the ring
  ring_unlink(c);
  S.current = to;
  if (__builtin_expect(S.fpenv_users != 0, 0))
    fpenv_switch(c, to);
  if (c->flags & CACS_CORO_SAVE_FPENV)
    S.fpenv_users--;
  asan_start(c, to, 1);
  cacs_switch(&c->ctx, &to->ctx, 0);
  __builtin_unreachable();
}

static void coro_main(void *arg, uint64_t first) {
  (void)first;
  cacs_coro *c = (cacs_coro *)arg;
  asan_finish(NULL);
  c->entry(c->arg);
  cacs_exit();
}

cacs_coro *cacs_create_ex(cacs_entry_fn entry, void *arg,
                          const cacs_coro_attr *attr) {
  static const cacs_coro_attr defaults = {0, 0, 0, NULL};
  if (!attr)
    attr = &defaults;
  cacs_coro *self = current();
  cacs_coro *c = (cacs_coro *)cacs_stack_alloc_at(
      attr->stack_size, sizeof(cacs_coro), offsetof(cacs_coro, stack),
      attr->stack_flags);
  if (!c)
    return NULL;
  // Everything but the stack descriptor, which the allocator filled in.
  memset(c, 0, offsetof(cacs_coro, stack));
  memset((char *)c + offsetof(cacs_coro, stack) + sizeof(cacs_stack), 0,
         sizeof(cacs_coro) - offsetof(cacs_coro, stack) - sizeof(cacs_stack));
  uint64_t id = ++S.next_id;
  if (attr->name) {
    cacs_stack_set_owner(&c->stack, attr->name, id);
  } else {
    char buf[32];
    snprintf(buf, sizeof buf, "coro#%llu", (unsigned long long)id);
    cacs_stack_set_owner(&c->stack, buf, id);
  }
  c->entry = entry;
  c->arg = arg;
  c->flags = attr->flags;
  if (c->flags & CACS_CORO_SAVE_FPENV) { // start from the creator's settings
    fpenv_save(c->fpenv);
    S.fpenv_users++;
  }
  c->asan_lo = c->stack.lo;
  c->asan_size = (size_t)((char *)c->stack.top - (char *)c->stack.lo);
  cacs_context_init(&c->ctx, c->stack.top, coro_main, c);
  // Append at the end of the ring, i.e. just before main.
  c->next = &S.main;
  c->prev = S.main.prev;
  S.main.prev->next = c;
  S.main.prev = c;
  S.count++;
  (void)self;
  return c;
}

cacs_coro *cacs_create(cacs_entry_fn entry, void *arg, size_t stack_size) {
  cacs_coro_attr a = {stack_size, 0, 0, NULL};
  return cacs_create_ex(entry, arg, &a);
}

int cacs_join(cacs_coro *c) {
  if (!c || c == current() || c == &S.main)
    return -1;
  while (!c->done)
    cacs_yield();
  S.count--;
  cacs_stack_free(&c->stack);
  return 0;
}

cacs_coro *cacs_self(void) { return current(); }
int cacs_is_main(const cacs_coro *c) { return c == &S.main; }
int cacs_done(const cacs_coro *c) { return c->done; }
uint64_t cacs_id(const cacs_coro *c) { return c->stack.owner_id; }
const char *cacs_name(const cacs_coro *c) { return c->stack.owner; }
void cacs_set_name(cacs_coro *c, const char *name) {
  cacs_stack_set_owner(&c->stack, name, c->stack.owner_id);
}
size_t cacs_count(void) { return S.count; }
