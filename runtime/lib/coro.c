//===- lib/coro.c - Coroutine creation: stacks and first frames -----------===//
//
// A coroutine is a control block at the top of its own stack (stack.c),
// the stacks the program's tools need bound to it (SafeStack's unsafe
// stack, a shadow call stack, a TSan fiber, a split-stack context), and a
// first frame that makes it look suspended, ready for the switch that
// starts it; or, created while no warm stack is cached, a control block
// of its own (coro_blocks.c) whose stack is bound when it first runs
// ("Stacks bound at the first run" below). Created coroutines join the ready
// ring; finished ones are freed by cacs_join (join.c), or here, when detached.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "core.h"
#include "errors.h"
#include "shared_stack.h"
#include "stack_exact.h"
#include "switch_tools.h"
#include "valgrind_requests.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

_Static_assert(ETIMEDOUT <= UCHAR_MAX, "cacs_coro.wake_result");
_Static_assert(CACS_CORO_SAVE_FPENV <= UCHAR_MAX, "cacs_coro.flags");
_Static_assert(CORO_SHARED_SIZE == 120, "a shared-stack coroutine's block");

void cacs__coro_free(cacs_coro *c) {
  if ((c->stack.flags & CACS_STACK_SHARED) && --S.shared_users == 0)
    switch_mode_update();
  struct cacs__coro_cold *k = cold(c);
  if (k) {
    if (cacs__split_on())
      __splitstack_releasecontext(k->split_ctx);
    // None when no tool was on at its creation (tools_init): then there is
    // nothing to free, and no call to make at every join.
    if (k->tools.unsafe || k->tools.scs_map || k->tools.tsan_fiber)
      cacs__tool_stacks_free(&k->tools);
  }
  if (c->lazy) {
    if (S.done_bound == c)
      S.done_bound = NULL;
    if (c->stack.map) // it ran, and its stack was not given back yet
      cacs_stack_free(&c->stack);
    cacs__block_free(c);
    return;
  }
  cacs_stack_free(&c->stack);
}

// `tools`: tools_always(), asked once per creation.
static int tools_init(cacs_coro *c, size_t size, unsigned char tools) {
  struct cacs__coro_cold *k = cold(c);
  // No side block (cold_needed), or no tool on: the block, zeroed, is what
  // cacs__tool_stacks_init would make of it.
  if (!k || !tools)
    return 0;
  if (cacs__tool_stacks_init(&k->tools, size, &c->stack) != 0)
    return -1;
  if (k->tools.unsafe)
    k->unsafe_sp = k->tools.unsafe->top;
  k->scs_sp = k->tools.scs_map;
  k->tsan_fiber = k->tsan_resume = k->tools.tsan_fiber;
  if (cacs__split_on())
    cacs__split_ctx_init(k->split_ctx, cacs__stack_exec(&c->stack));
  return 0;
}

// Whether a coroutine created with `attr` needs its side block (core.h):
// only if a tool is on or it keeps an FP environment, whatever its stack.
// On a stack of its own the block's room is there anyway (CORO_PRIVATE_HDR),
// but a side block nothing reads would cost a creation the zeroing of its
// 176 bytes and a join the test of its tool stacks (issue 38).
static int cold_needed(const cacs_coro_attr *attr, unsigned char tools) {
  return tools || (attr->flags & CACS_CORO_SAVE_FPENV);
}

// The bytes of the exact stack (stack_exact.h) a coroutine of `entry`
// created with `stack_flags` runs on, or 0: a guarded one. The one rule of
// who gets one, for coroutines and pool coroutines (pool_worker.c). Not
// where the program asked for a stack of another kind (shared, a mapping
// of its own, CACS_STACK_NOBOUND), nor while a tool runs code of its own on
// the stack (tools_always(): ASan, TSan, SafeStack, the shadow call stack,
// split stacks). The stack holds the entry's bound, at least the resume
// frame that lies there before the start (coro_layout.h), and the start
// frame above it, nothing more: what runs after the entry returns runs
// elsewhere, which the caller checks it has (a coroutine's thread: an exit
// stack and an alternate signal stack; a pool: alternate signal stacks on
// every worker). `tools`: tools_always(). Nor under Valgrind: its client
// requests add frames to a wait's deepest path (a deep call's, sysstack.c;
// io_uring.c's), which the waits' stack budgets (cacs/detail/contract.h)
// would otherwise have to hold for every program. Nor when libcacs is not
// built the way its budgets are measured (CACS__STACK_BUDGETS_MEASURED).
static size_t exact_rule(cacs_entry_fn entry, unsigned stack_flags,
                         unsigned char tools) {
  uint64_t bound;
  if (!CACS__STACK_BUDGETS_MEASURED ||
      (stack_flags &
       (CACS_STACK_SHARED | CACS_STACK_NOPOOL | CACS_STACK_NOBOUND)) ||
      tools || cacs__on_valgrind() ||
      __atomic_load_n(&cacs__stack_bounds_none, __ATOMIC_RELAXED) ||
      !cacs__stack_bound((const void *)entry, &bound) ||
      bound > ((uint64_t)1 << 40))
    return 0;
  if (bound < 16)
    bound = 16;
  // A multiple of 8 (stack_exact.c packs the slots; the top is aligned).
  return (((size_t)bound + 7) & ~(size_t)7) + CACS_BOUNDED_FRAME;
}

size_t cacs__exact_bytes(cacs_entry_fn entry, unsigned stack_flags) {
  return exact_rule(entry, stack_flags, tools_always());
}

// cacs__exact_bytes on a thread that can end such a coroutine: cacs_exit
// runs on its exit stack.
static size_t exact_bytes(cacs_entry_fn entry, const cacs_coro_attr *attr,
                          unsigned char tools) {
  size_t n = exact_rule(entry, attr->stack_flags, tools);
  return n && cacs__exact_thread_ready() ? n : 0;
}

int cacs_stack_exact(cacs_entry_fn entry, size_t *bytes) {
  static const cacs_coro_attr defaults = {0, 0, 0, NULL};
  (void)current();
  size_t n = exact_bytes(entry, &defaults, tools_always());
  if (n && bytes)
    *bytes = n;
  return n != 0;
}

const cacs_stack *cacs__coro_stack(const cacs_coro *c) { return &c->stack; }

// --- Stacks bound at the first run -------------------------------------------
// A coroutine created while its thread has no warm stack of its size in
// the cache (the first use of the runtime, a burst) gets no stack yet: its
// control block is one of coro_blocks.c's, and it takes a stack from the
// allocator when it first runs. Its saved stack pointer until then is the
// thread's launch pad, where every such coroutine starts (coro_launch): a
// guarded stack whose top holds one resume image for all of them. When one
// finishes, its stack goes back to the cache as soon as the thread is off it
// (the next first run, or its join), so that coroutines created together and
// run to their end one after the other, a burst joined in order, reuse one warm
// stack instead of a fresh, guarded and faulted-in one each (issue 38: some
// 2 µs a coroutine in a VM). A coroutine that parks keeps its stack while
// it lives, as any other. Not with a tool on (tools_always()): their
// stacks and fibers are bound at creation; not for shared, exact or
// NOPOOL stacks, nor with CACS_STACK_EAGER or CACS_CORO_SAVE_FPENV (its
// side block, core.h), nor guarded ones where the kernel lacks guard
// regions (their mappings' budget ends at cacs_create, as documented). A first
// run that finds no memory for the stack finishes the coroutine without running
// it: its join fails with ENOMEM (a detached one aborts: none would learn of
// it).

// The block's room at the top of a private stack: what an eager
// coroutine's block takes there, so that both kinds share a size class.
#define CORO_PRIVATE_HDR (sizeof(cacs_coro) + sizeof(struct cacs__coro_cold))
// Stacks larger than this are taken at creation: its failure is reported
// there (such a size is rare, and its first use costs far more anyway).
#define LAZY_MAX_SIZE ((size_t)64 << 20)
// The public flags (cacs_stack_flags) of a lazy coroutine's descriptor.
#define PUBLIC_STACK_FLAGS 0xffffu

static void coro_main(void *arg, uint64_t first);
__attribute__((noreturn)) static void coro_launch(void *arg, uint64_t first);

// The pad's resume image, laid out as a fresh coroutine's (coro_init_stack)
// with coro_launch to call. Written again before each launch leaves the
// pad: the trampoline's call of coro_launch writes over it (its return
// address, its frame's first slot).
static void pad_arm(void) {
  void **im = S.pad_image;
  im[0] = NULL;
  im[1] = (void *)&cacs__trampoline;
  im[2] = (void *)&coro_launch;
  im[3] = NULL;
}

// The thread's launch pad, at its first lazy creation; -1 without one
// (the coroutine then takes its stack at once, coro_new).
static int pad_make(void) {
  char *blk =
      cacs_stack_alloc_at(0, CORO_PRIVATE_HDR, offsetof(cacs_coro, stack), 0);
  if (!blk)
    return -1;
  S.pad = (cacs_stack *)(blk + offsetof(cacs_coro, stack));
  cacs_stack_set_owner(S.pad, "cacs launch pad", 0);
  S.pad_image = (void **)(((uintptr_t)S.pad->top & ~(uintptr_t)15) - 32);
  pad_arm();
  return 0;
}

// The finished coroutine's stack back to the cache (not the one the
// thread runs on: S.done_bound is set as it leaves it).
static void done_release(void) {
  cacs_coro *d = S.done_bound;
  S.done_bound = NULL;
  cacs_stack_free(&d->stack);
  d->stack.map = NULL;
}

void cacs__coro_exit_stack(cacs_coro *c) {
  if (S.done_bound) // another one's, finished before: off it now
    done_release();
  S.done_bound = c;
}

void cacs__coro_pad_free(void) {
  if (S.done_bound)
    done_release();
  if (S.pad) {
    cacs_stack_free(S.pad);
    S.pad = NULL;
    S.pad_image = NULL;
  }
}

// A fresh coroutine on a stack of its own looks suspended (coro_layout.h):
// frame pointer 0 (ends frame-pointer chains for gdb, perf, ASan), resume
// address the start trampoline, which finds {coro_main, c} right above, at
// a 16-byte aligned sp, as with cacs_context_init.
static inline __attribute__((always_inline)) void
coro_first_frame(cacs_coro *c) {
  uintptr_t top = (uintptr_t)c->stack.top & ~(uintptr_t)15;
  void **sp = (void **)(top - 32);
  sp[0] = NULL;
  sp[1] = (void *)&cacs__trampoline;
  sp[2] = (void *)&coro_main;
  sp[3] = c;
  c->sp = (char *)sp + CACS_CORO_SP_TO_FRAME;
}

// Where a lazy coroutine first runs, on the launch pad (S.current is it:
// every switch sets it first): the last finished one's stack back to the
// cache, a stack bound (that one, warm, when it is the cache's top), then
// the coroutine started on it. Nothing here switches.
static void coro_launch(void *arg, uint64_t first) {
  (void)arg, (void)first;
  cacs_coro *c = S.current;
  if (S.done_bound)
    done_release();
  int e = errno;                   // the coroutine switched from reads its own
  size_t size = c->stack.map_size; // (the size asked, until bound)
  if (cacs__stack_bind(&c->stack, size, CORO_PRIVATE_HDR,
                       offsetof(cacs_coro, stack),
                       c->stack.flags & PUBLIC_STACK_FLAGS) == 0) {
    errno = e;
    coro_first_frame(c);
    pad_arm();
    cacs__coro_resume(c->sp);
  }
  c->stack.map = NULL;
  c->launch_failed = 1;
  if (c->detached)
    cacs__fatalf("cacs: no memory for the stack of detached coroutine '%s' "
                 "at its first run (%s); nothing could report it "
                 "(CACS_STACK_EAGER takes the stack at cacs_create)\n",
                 cacs_name(c), strerror(errno));
  errno = e;
  pad_arm();
  cacs_exit(); // its joiner's cacs_join fails with ENOMEM
  __builtin_unreachable();
}

// `arg` NULL: a shared-stack coroutine's first frames are one image for
// all (coro_init_stack); it is the running coroutine, which every switch
// sets before it switches.
static void coro_main(void *arg, uint64_t first) {
  (void)first;
  cacs_coro *c = arg ? (cacs_coro *)arg : S.current;
  asan_finish(NULL);
  c->entry(c->arg);
  cacs_exit();
}

// Whether a coroutine created with `attr` may get its stack at its first
// run (above), when no warm stack of its size is cached.
static inline int lazy_allowed(const cacs_coro_attr *attr, size_t exact,
                               unsigned char tools) {
  return !exact && !tools && !(attr->flags & CACS_CORO_SAVE_FPENV) &&
         !(attr->stack_flags &
           (CACS_STACK_SHARED | CACS_STACK_NOPOOL | CACS_STACK_EAGER)) &&
         attr->stack_size <= LAZY_MAX_SIZE;
}

// A fresh coroutine looks suspended (coro_layout.h; coro_first_frame).
// One without its stack yet resumes on the launch pad.
static inline __attribute__((always_inline)) int
coro_init_stack(cacs_coro *c, cacs_entry_fn entry, void *arg) {
  if (c->lazy) {
    c->sp = (char *)S.pad_image + CACS_CORO_SP_TO_FRAME;
    return 0;
  }
  if (c->stack.flags & CACS__STACK_EXACT) {
    // cacs__bounded_start's frame at the top, the resume frame below it.
    void **f = (void **)((uintptr_t)c->stack.top - CACS_BOUNDED_FRAME);
    f[CACS_BOUNDED_ENTRY / 8] = (void *)entry;
    f[CACS_BOUNDED_ARG / 8] = arg;
    f[CACS_BOUNDED_EXIT / 8] = cacs__exact_thread_ready();
    f[-2] = NULL;
    f[-1] = (void *)&cacs__bounded_start;
    c->sp = (char *)(f - 2) + CACS_CORO_SP_TO_FRAME;
    return 0;
  }
  if (c->stack.flags & CACS_STACK_SHARED) { // copied in when it first runs
    // One image for all, not a copy per coroutine: millions of them wait
    // to start at once, and a 32-byte buffer each, freed when the first
    // save outgrows it, would leave a hole of malloc's between their
    // blocks. coro_main finds the coroutine in S.current.
    // Without a tool, cacs__shared_start (yield_<arch>.S) calls the entry
    // with no frame of its own below the image: 32 bytes less in every
    // saved copy than the trampoline and coro_main take.
    static void *const image[4] = {NULL, (void *)&cacs__trampoline,
                                   (void *)&coro_main, NULL};
    static void *const lean[2] = {NULL, (void *)&cacs__shared_start};
    char *at = tools_always()
                   ? cacs__shared_set_image(&c->stack, image, sizeof image)
                   : cacs__shared_set_image(&c->stack, lean, sizeof lean);
    c->sp = at + CACS_CORO_SP_TO_FRAME;
    return 0;
  }
  coro_first_frame(c);
  return 0;
}

// Free the stacks of detached coroutines that have finished (not the
// running one's: a coroutine is a zombie only once it has switched away).
void cacs__reap_zombies(void) {
  while (S.zombies) {
    cacs_coro *z = S.zombies;
    S.zombies = z->next;
    cacs__coro_free(z);
  }
}

// Inlined into cacs_create_ex, which every coroutine of a create/join loop
// goes through: one call and one frame less each.
static inline __attribute__((always_inline)) cacs_coro *
coro_new(cacs_entry_fn entry, void *arg, const cacs_coro_attr *attr) {
  (void)current(); // the scheduler exists before any coroutine
  cacs__reap_zombies();
  // The side block, when needed, right after the control block.
  // A shared-stack one without it: the short block (core.h).
  // Asked once: it reads four link-time facts and the thread's state.
  unsigned char tools = tools_always();
  size_t exact = exact_bytes(entry, attr, tools);
  // A stack of its own that may be bound at the first run: a warm one from
  // the cache now if there is one (no system call, nothing to defer), else
  // none yet, if the thread has its launch pad.
  int lazy = 0;
  cacs_coro *c = NULL;
  if (lazy_allowed(attr, exact, tools)) {
    c = (cacs_coro *)cacs__stack_alloc_cached(
        attr->stack_size, CORO_PRIVATE_HDR, offsetof(cacs_coro, stack),
        attr->stack_flags);
    // Not where a guard spends a mapping of a budget (the fallback,
    // cacs/stack.h): cacs_create reports that budget's end.
    if (!c &&
        ((attr->stack_flags & CACS_STACK_NOGUARD) ||
         cacs_stack_guard_kind() == CACS_STACK_GUARD_MADVISE) &&
        (S.pad || pad_make() == 0)) {
      lazy = 1;
      if (!(c = (cacs_coro *)cacs__block_alloc()))
        return NULL;
    }
  }
  // A lazy one has no side block (no tool is on, no FP environment). A
  // private stack's block takes CORO_PRIVATE_HDR with or without it: one
  // layout, one size class and cache, for lazy and eager coroutines.
  int with_cold = !lazy && cold_needed(attr, tools);
  size_t size = with_cold ? sizeof(cacs_coro) + sizeof(struct cacs__coro_cold)
                : exact   ? sizeof(cacs_coro)
                : (attr->stack_flags & CACS_STACK_SHARED) ? CORO_SHARED_SIZE
                                                          : CORO_PRIVATE_HDR;
  if (!c)
    c = exact ? (cacs_coro *)cacs__exact_alloc(exact, size,
                                               offsetof(cacs_coro, stack))
              : (cacs_coro *)cacs_stack_alloc_at(attr->stack_size, size,
                                                 offsetof(cacs_coro, stack),
                                                 attr->stack_flags);
  if (!c)
    return NULL;
  // Everything but the stack descriptor, which the allocator filled in.
  memset(c, 0, offsetof(cacs_coro, stack));
  if (lazy) { // no stack yet: the size asked kept until it is bound
    memset(&c->stack, 0, sizeof c->stack);
    c->stack.flags = attr->stack_flags;
    c->stack.map_size = attr->stack_size;
    c->lazy = 1;
  }
  if (with_cold)
    memset(c + 1, 0, sizeof(struct cacs__coro_cold));
  c->has_cold = (unsigned char)with_cold; // the side block is at c + 1
  uint64_t id = ++S.next_id;
  if (attr->name) {
    cacs_stack_set_owner(&c->stack, attr->name, id);
  } else if (!tools) {
    // "coro#<id>" is made up when asked (coro_info.c), not kept by
    // millions of idle coroutines nor formatted at every creation; a tool
    // names its stacks (tools_init) now.
    c->stack.owner_id = id; // owner_ref stays NULL
    if (!(c->stack.flags & CACS_STACK_SHARED))
      c->stack.flags |= CACS__STACK_UNNAMED;
  } else {
    char buf[32];
    snprintf(buf, sizeof buf, "coro#%llu", (unsigned long long)id);
    cacs_stack_set_owner(&c->stack, buf, id);
  }
  if (tools_init(c,
                 attr->stack_size ? attr->stack_size : CACS_STACK_DEFAULT_SIZE,
                 tools) != 0) { // (never lazy: no tool is on)
    cacs_stack_free(&c->stack);
    return NULL;
  }
  if (c->stack.flags & CACS_STACK_SHARED) { // every switch takes the slow path
    S.shared_users++;
    S.switcher_top = cacs__shared_switcher();
    switch_mode_update();
  }
  if (coro_init_stack(c, entry, arg) != 0) {
    cacs__coro_free(c);
    return NULL;
  }
  c->entry = entry;
  c->arg = arg;
  c->flags = attr->flags;
  if (c->flags & CACS_CORO_SAVE_FPENV) { // start from the creator's settings
    fpenv_save(cold(c)->fpenv);
    S.fpenv_users++;
    S.slow |= 1;
  }
  if (cold(c) && cacs__asan_on()) { // ASan's view of the stack (its only use)
    const cacs_stack *x = cacs__stack_exec(&c->stack);
    cold(c)->asan_lo = x->lo;
    cold(c)->asan_size = (size_t)((char *)x->top - (char *)x->lo);
  }
  c->next = c->prev = c;
  return c;
}

cacs_coro *cacs__coro_new(cacs_entry_fn entry, void *arg,
                          const cacs_coro_attr *attr) {
  return coro_new(entry, arg, attr);
}

// --- The live handles -----------------------------------------------------
// Linear probing on the pointer, at most three quarters full (8 bytes a
// slot: 11 to 21 B per coroutine, where half full took 16 to 32); deletion
// shifts the entries after the hole back (no tombstones). The probe and the
// common removal are inline (core.h: live_find, live_remove_at); what a
// create and a join test besides is one precomputed word each (live_limits):
// some 40 instructions a coroutine in all, where calls and the tests
// recomputed each time took 80 (issue 38).

// The counts at which the table grows, has more to note at an add and
// halves, from its size, its epoch's peak and what it learned to keep:
// after every change of one of them. (A cache limit set meanwhile,
// cacs_stack_set_cache_limit, is seen at the next change.)
static void live_limits(void) {
  S.live_grow_at = 3 * S.live_cap / 4;
  size_t limit = __atomic_load_n(&cacs__cache_limit, __ATOMIC_RELAXED);
  S.live_note_at = S.live_keep && limit < S.live_peak ? limit : S.live_peak;
  S.live_shrink_at = S.live_cap > 1024 && S.live_cap > S.live_keep
                         ? S.live_cap / 8 - 1
                         : SIZE_MAX;
}

// A table of 16 KiB or more is a mapping of its own: freed into malloc's
// heap, a burst's table would stay resident (and raise glibc's mmap
// threshold, so that the next ones land in the heap too), and so would the
// heap's top past the tables of its shrinking.
#define LIVE_MAP_BYTES ((size_t)16 * 1024)
// From 512 KiB (48,000 alive, a burst or a steady state that holds far
// more in blocks or stacks), in transparent huge pages where the kernel has
// them, the mapping rounded up to 2 MiB: the rehash touches every page of
// the new table at once, a fault each (some 12 us a page in a VM with
// shadow paging, issue 38).
#define LIVE_HUGE_FROM ((size_t)512 * 1024)
#define LIVE_HUGE_BYTES ((size_t)2 * 1024 * 1024)

// The bytes of the mapping of a table of `cap` slots (>= LIVE_MAP_BYTES).
static size_t live_map_bytes(size_t cap) {
  size_t bytes = cap * sizeof(cacs_coro *);
  return bytes < LIVE_HUGE_FROM
             ? bytes
             : (bytes + LIVE_HUGE_BYTES - 1) & ~(LIVE_HUGE_BYTES - 1);
}

static cacs_coro **live_alloc(size_t cap) {
  if (cap * sizeof(cacs_coro *) < LIVE_MAP_BYTES)
    return (cacs_coro **)calloc(cap, sizeof(cacs_coro *));
  size_t bytes = live_map_bytes(cap);
  if (bytes >= LIVE_HUGE_BYTES)
    return (cacs_coro **)cacs__map_aligned(bytes, LIVE_HUGE_BYTES, 1);
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : (cacs_coro **)p;
}

static void live_release(cacs_coro **t, size_t cap) {
  if (cap * sizeof(cacs_coro *) < LIVE_MAP_BYTES)
    free(t);
  else
    munmap(t, live_map_bytes(cap));
}

void cacs__live_free(void) {
  live_release(S.live, S.live_cap);
  S.live = NULL;
  S.live_cap = S.live_n = 0;
  S.live_keep = S.live_shrunk = S.live_peak = S.live_epoch_left = 0;
  S.live_grew = 0;
  live_limits();
}

// The table rehashed into `cap` slots; -1 (errno ENOMEM) if there is no
// memory for them.
static int live_resize(size_t cap) {
  cacs_coro **old = S.live, **t = live_alloc(cap);
  if (!t)
    return cacs__fail(ENOMEM);
  size_t old_cap = S.live_cap;
  S.live = t;
  S.live_cap = cap;
  live_limits();
  for (size_t i = 0; i < old_cap; ++i)
    if (old[i])
      S.live[live_find(old[i])] = old[i];
  live_release(old, old_cap);
  if (!old)
    cacs__sched_free_at_exit();
  return 0;
}

// An epoch of the table (twice as many creates as it had or gave up
// slots, 2048 at least: longer than a round's creates between two
// growths) is over. As the stack cache does (stack.c), the table learns from
// growing back: halved in a drain and grown back to that size before an
// epoch without growth, it keeps that size through the next drains, so
// that rounds of many creates then as many joins make no mmap and munmap
// and rehash nothing; a one-time burst's table still halves as it drains.
// An epoch in which the table was never more than an eighth full forgets
// what it kept, and the table halves down to fit.
__attribute__((noinline)) static void live_epoch_end(void) {
  if (!S.live_grew)
    S.live_shrunk = 0;
  if (S.live_keep && 8 * S.live_peak <= S.live_cap) {
    S.live_keep = 0;
    int e = errno; // best effort, as in cacs__live_removed
    while (S.live_cap > 1024 && 8 * (S.live_n + 1) <= S.live_cap &&
           live_resize(S.live_cap / 2) == 0) {
    }
    errno = e;
  }
  S.live_grew = 0;
  S.live_peak = S.live_n;
  live_limits();
  cacs__block_epoch_end(); // every create counts, lazy or not
  size_t len = S.live_cap > S.live_shrunk ? S.live_cap : S.live_shrunk;
  S.live_epoch_left = len > 1024 ? 2 * len : 2048;
}

// The table is three quarters full: twice the slots; -1 (errno ENOMEM) if
// there is no memory for them.
__attribute__((noinline)) static int live_grow(void) {
  size_t cap = S.live_cap ? 2 * S.live_cap : 64;
  S.live_grew = 1;
  if (cap <= S.live_shrunk && cap > S.live_keep) {
    S.live_keep = cap; // halved to less before, and needed again
    live_limits();
  }
  return live_resize(cap);
}

// Room for one more handle; -1 (errno ENOMEM) if there is none.
static inline int live_reserve(void) {
  if (S.live_epoch_left)
    S.live_epoch_left--;
  else
    live_epoch_end();
  if (__builtin_expect(S.live_n >= S.live_grow_at, 0))
    return live_grow();
  return 0;
}

// An add made more alive at once than before in this epoch, or more than
// the cache's limit while the table keeps a size (live_note_at).
__attribute__((noinline)) static void live_noted(void) {
  if (S.live_n > S.live_peak)
    S.live_peak = S.live_n;
  // More alive at once than a steady state the thread learns (the stack
  // cache's limit, stack.c): a burst, one repeated or larger than the last.
  // The table forgets the size it learned to keep, so that it halves again
  // as the burst drains.
  if (S.live_keep &&
      S.live_n > __atomic_load_n(&cacs__cache_limit, __ATOMIC_RELAXED))
    S.live_keep = S.live_shrunk = 0;
  live_limits();
}

static inline void live_add(cacs_coro *c) {
  S.live[live_find(c)] = c;
  if (__builtin_expect(++S.live_n > S.live_note_at, 0))
    live_noted();
}

int cacs__live_has(const cacs_coro *c) {
  return S.live_cap != 0 && S.live[live_find(c)] == c;
}

// After a burst the table halves (at most a quarter full then, so the next
// growth is far) and its memory goes back: 8 bytes a slot of the largest
// number alive would otherwise stay for good. Best effort. (Not below what
// the table learned to keep: live_limits.)
static void live_shrink(void) {
  int e = errno;
  if (S.live_cap > S.live_shrunk)
    S.live_shrunk = S.live_cap;
  (void)live_resize(S.live_cap / 2);
  errno = e;
}

void cacs__live_removed(size_t i) {
  size_t mask = S.live_cap - 1;
  // Move back every entry of the run after the hole that may live there.
  for (size_t j = (i + 1) & mask; S.live[j]; j = (j + 1) & mask) {
    size_t h = live_hash(S.live[j], mask);
    if ((j > i && (h <= i || h > j)) || (j < i && (h <= i && h > j))) {
      S.live[i] = S.live[j];
      S.live[j] = NULL;
      i = j;
    }
  }
  if (S.live_n == S.live_shrink_at) // (once: the table halves)
    live_shrink();
}

void cacs__live_remove(const cacs_coro *c) {
  size_t i = live_find(c);
  if (S.live[i])
    live_remove_at(i);
}

cacs_coro *cacs_create_ex(cacs_entry_fn entry, void *arg,
                          const cacs_coro_attr *attr) {
  static const cacs_coro_attr defaults = {0, 0, 0, NULL};
  pool_refuse("cacs_create");
  (void)current();
  if (live_reserve() != 0)
    return NULL;
  cacs_coro *c = coro_new(entry, arg, attr ? attr : &defaults);
  if (!c)
    return NULL;
  live_add(c);
  // Append at the end of the ring, i.e. just before main; while main is
  // parked (off the ring), just before the running coroutine.
  ring_insert_before(S.main.state == CORO_READY ? &S.main : S.current, c);
  S.count++;
  return c;
}

cacs_coro *cacs_create(cacs_entry_fn entry, void *arg, size_t stack_size) {
  cacs_coro_attr a = {stack_size, 0, 0, NULL};
  return cacs_create_ex(entry, arg, &a);
}
