//===- lib/stack.c - Guarded, pooled, randomized coroutine stacks --------===//
//
// The allocator of coroutine stacks (cacs/stack.h): slots of per-thread
// slabs by size, each under a guard page, the control block coloured and
// the stack top randomized, idle stacks' pages given back as the reclaim
// policy says. It owns the state the other stack files share
// (stack_internal.h): shared stacks (stack_shared.c) are built on stacks
// from here, the overflow handler (stack_overflow.c) searches the registry
// of live stacks kept here.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "cacs/stack.h"
#include "errors.h"
#include "internal.h"
#include "stack_exact.h"
#include "stack_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

// Linux >= 6.13 installs guard regions inside a mapping without splitting
// it (no extra VMA per guard); Debian 12's headers predate it.
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif
// process_madvise(2) on the calling process without a file descriptor
// (Linux >= 6.15; fork-safe, unlike a pidfd of our own); with Linux >= 6.13
// it takes any advice for the caller: one call for many ranges.
#ifndef PIDFD_SELF_THREAD
#define PIDFD_SELF_THREAD (-10000)
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef SYS_process_madvise
#define SYS_process_madvise 440
#endif

#define CACS_RANDOM_MAX 4096 // randomize within one page, in cache lines
#define CACS_STACK_TOP_ROOM 1536 // of the top page, below a coloured block
#define CACS_SLAB_BYTES ((size_t)32 << 20) // aim of one slab's mapping
#define CACS_SLAB_MIN_SLOTS 4
#define CACS_SLAB_MAX_SLOTS 4096
// Fallback guards (mprotect) split their slab: two mappings each. Leave this
// many of vm.max_map_count to the rest of the program (malloc, threads,
// libraries).
#define CACS_MAP_HEADROOM 4096
// Freed stacks of one size a thread keeps with their pages at least, so
// that a create/join loop with fewer alive makes no system call
// (cacs_stack_set_cache); the cache learns a larger bound from its misses.
#define CACS_STACK_CACHE_DEFAULT 128
// The most stacks of one size the cache learns to keep (and coroutines
// alive the live-handle table keeps room for, coro.c): a need beyond it is
// a burst, not a steady state (cacs_stack_set_cache_limit). 10,000 alive in
// rounds fit; a burst of 100,000, repeated, gives its stacks back as it
// drains.
#define CACS_STACK_CACHE_LIMIT_DEFAULT 16384
// The shortest epoch of a class's cache, in allocations (see epoch_end).
#define CACS_EPOCH_MIN 64
// A full cache gives this many stacks' pages back at once, in one call.
#define CACS_RECLAIM_BATCH 32
#define CACS_IOV_MAX 1024 // the kernel's UIO_MAXIOV
// Fresh slots have their top page (control block, first frames) written in
// advance, up to this many at once: one call instead of a page fault each.
#define CACS_PREFAULT_MAX 64

// --- slabs ------------------------------------------------------------------
//
// Stacks of one size (guard included) are slots of large mappings, slabs,
// carved on first use and recycled through a per-slab free list. A slab is
// one mapping however many guarded stacks it holds when the kernel has
// MADV_GUARD_INSTALL; the fallback guard (mprotect) splits it, two mappings
// per guarded stack, within a budget (see cacs_stack_guard_kind()).
typedef struct slab slab;
typedef struct size_class size_class;

struct slab {
  char *base;          // the mapping
  size_t size;         // its length
  size_class *cls;     // its slot size and guard
  slab *avail_next;    // list of the class's slabs with a slot to give
  slab *avail_prev;    // (doubly linked: slabs leave it from anywhere)
  slab *all_next;      // every slab of the class
  uint32_t nslots;     // slots in the mapping
  uint32_t carved;     // slots [0, carved) have been handed out once
  uint32_t prefaulted; // slots [0, prefaulted) have their top page
  uint32_t guarded;    // slots [0, guarded) have their guard region
  uint32_t live;       // slots in use
  uint32_t nfree;      // entries of free_idx: recycled slots, LIFO
  unsigned in_avail;   // on the avail list
  uint32_t free_idx[]; // (kept out of the slots: reclaim drops them)
};

// A freed stack kept in a class's cache (still counted live in its slab).
typedef struct cached_slot {
  char *map;
  slab *sl;
} cached_slot;

struct size_class {
  size_t slot_size; // guard + stack + control block, page multiple
  unsigned guarded;
  cached_slot *hot; // freed stacks keeping their pages, reused LIFO
  uint32_t hot_n, hot_cap;
  // The bound the cache learned above cacs_stack_set_cache's (cache_bound):
  // it grows by one for each allocation that missed while stacks the full
  // cache gave back (`given`) had not been forgiven (by an epoch without a
  // miss, `missed`), and drops at an epoch's end by the stacks that sat in
  // the cache all through it (`low`, the fewest cached during the epoch;
  // `epoch_left` allocations to go). See epoch_end.
  uint32_t grown, low;
  size_t given, epoch_left;
  unsigned missed;
  // Ranges of one call (not on the stack: a coroutine's may be small).
  struct iovec batch[CACS_PREFAULT_MAX > CACS_RECLAIM_BATCH
                         ? CACS_PREFAULT_MAX
                         : CACS_RECLAIM_BATCH];
  slab *avail; // slabs with a free or never-carved slot
  slab *all;
  size_t nfree; // recycled slots over all its slabs (cacs_stack_pool_count)
  size_class *next;
};

// What stack_internal.h declares for the other stack files.
CACS_TLS stack_thread cacs__stack_thread;
size_t cacs__page_size;
int cacs__shared_debug;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
static int guard_kind; // CACS_STACK_GUARD_MADVISE or _MPROTECT
static long max_map_count;
// Fallback guards in place, process-wide (they spend the map count).
static size_t mprotect_guards;
static pthread_mutex_t budget_lock = PTHREAD_MUTEX_INITIALIZER;
static int reclaim_mode = CACS_STACK_RECLAIM_DONTNEED;
static size_t reclaim_keep; // bytes at the top kept on reclaim
static size_t cache_max = CACS_STACK_CACHE_DEFAULT; // cacs_stack_set_cache
// cacs_stack_set_cache_limit (internal.h: coro.c's table reads it too).
size_t cacs__cache_limit = CACS_STACK_CACHE_LIMIT_DEFAULT;
static int batch_ok; // process_madvise(PIDFD_SELF_THREAD, ...) works
// Valgrind's client requests (a stack's registration, its pages made
// undefined again) cost some 40 instructions a coroutine, a tenth of its
// whole life, where they do nothing: made only under it (cacs__on_valgrind,
// whose answer is kept here for every file of libcacs).
#ifdef CACS_HAVE_VALGRIND
signed char cacs__valgrind = -1;
int cacs__valgrind_ask(void) {
  int v = RUNNING_ON_VALGRIND != 0;
  __atomic_store_n(&cacs__valgrind, (signed char)v, __ATOMIC_RELAXED);
  return v;
}
__attribute__((constructor)) static void valgrind_known(void) {
  cacs__valgrind_ask();
}
#endif

static void thread_exit(void *unused);
static void free_empty_classes(void);
__attribute__((noinline)) static void epoch_end(size_class *c);
static size_t cache_bound(const size_class *c);
static void hot_shrink(size_class *c, size_t bound);

// Whether MADV_GUARD_INSTALL really guards: the call succeeding is not
// enough (qemu-user, for one, accepts and ignores advice it does not know),
// so check that the kernel refuses to read the page (EFAULT, not a signal).
static int probe_madvise_guard(void) {
  char *p = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return 0;
  int ok = 0;
  if (madvise(p, page_size, MADV_GUARD_INSTALL) == 0) {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
      ok = write(fds[1], p, 1) < 0 && errno == EFAULT;
      close(fds[0]);
      close(fds[1]);
    }
  }
  munmap(p, page_size);
  return ok;
}

// Whether one process_madvise call advises many ranges of this process:
// kernels before 6.15 (and qemu-user) refuse PIDFD_SELF_THREAD, and then
// each range takes a madvise of its own. Valgrind does not know the call
// (and says so).
static int probe_batch(void) {
  if (cacs__on_valgrind())
    return 0;
  char *p = mmap(NULL, page_size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return 0;
  struct iovec iov = {p, page_size};
  int ok = syscall(SYS_process_madvise, PIDFD_SELF_THREAD, &iov, 1,
                   MADV_DONTNEED, 0) == (long)page_size;
  munmap(p, page_size);
  return ok;
}

// `advice` over the ranges of `iov`: CACS_IOV_MAX ranges per call when the
// kernel can, else a call each.
static int madvise_batch(struct iovec *iov, size_t n, int advice) {
  size_t i = 0;
  int rc = 0;
  while (batch_ok && i < n) {
    size_t k = n - i < CACS_IOV_MAX ? n - i : CACS_IOV_MAX;
    long r = syscall(SYS_process_madvise, PIDFD_SELF_THREAD, iov + i, k,
                     advice, 0);
    if (r < 0)
      break;
    // A short count stops at a range the kernel refused: the rest go
    // one by one.
    size_t done = (size_t)r;
    size_t end = i + k;
    while (i < end && done >= iov[i].iov_len)
      done -= iov[i++].iov_len;
    if (i < end)
      break;
  }
  for (; i < n; ++i)
    if (madvise(iov[i].iov_base, iov[i].iov_len, advice) != 0)
      rc = -1;
  return rc;
}

static long read_max_map_count(void) {
  long v = 65530; // the kernel's default
  int fd = open("/proc/sys/vm/max_map_count", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    char buf[32];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    if (n > 0) {
      buf[n] = 0;
      long r = strtol(buf, NULL, 10);
      if (r > 0)
        v = r;
    }
    close(fd);
  }
  return v;
}

static void global_init(void) {
  page_size = (size_t)sysconf(_SC_PAGESIZE);
  max_map_count = read_max_map_count();
  batch_ok = probe_batch();
  // CACS_STACK_GUARD=mprotect forces the fallback of kernels before 6.13
  // (tests use it); otherwise the kernel's guard regions when they work.
  const char *g = getenv("CACS_STACK_GUARD");
  guard_kind = (g && !strcmp(g, "mprotect")) || !probe_madvise_guard()
                   ? CACS_STACK_GUARD_MPROTECT
                   : CACS_STACK_GUARD_MADVISE;
  const char *r = getenv("CACS_STACK_RECLAIM");
  if (r && !strcmp(r, "none"))
    reclaim_mode = CACS_STACK_RECLAIM_NONE;
  else if (r && !strcmp(r, "free"))
    reclaim_mode = CACS_STACK_RECLAIM_FREE;
  const char *cm = getenv("CACS_STACK_CACHE");
  if (cm && *cm)
    cache_max = strtoul(cm, NULL, 10);
  const char *cl = getenv("CACS_STACK_CACHE_LIMIT");
  if (cl && *cl)
    cacs__cache_limit = strtoul(cl, NULL, 10);
  const char *d = getenv("CACS_SHARED_STACK_DEBUG");
  cacs__shared_debug = d && *d && strcmp(d, "0");
  cacs__key_create(&exit_key, thread_exit, "the stack cache's thread exit");
  cacs__overflow_install();
}

void cacs__stack_thread_init(void) {
  // Registered: this thread ran global_init's once already (a test of a
  // thread-local word at every allocation, no call into pthread_once).
  if (__builtin_expect(T.registered, 1))
    return;
  pthread_once(&once, global_init);
  T.registered = 1;
  if (!T.rng) // (never 0: xorshift would stay there)
    T.rng = (uint64_t)(uintptr_t)&T ^ 0x9e3779b97f4a7c15ull;
  pthread_setspecific(exit_key, &T);
  cacs__overflow_thread_init();
}

void cacs_stack_install_overflow_handler(void) { cacs__stack_thread_init(); }

int cacs_stack_guard_kind(void) {
  pthread_once(&once, global_init);
  return guard_kind;
}

int cacs_stack_set_reclaim(int mode, size_t keep_bytes) {
  pthread_once(&once, global_init);
  if (mode != CACS_STACK_RECLAIM_NONE && mode != CACS_STACK_RECLAIM_FREE &&
      mode != CACS_STACK_RECLAIM_DONTNEED)
    return -1;
  __atomic_store_n(&reclaim_mode, mode, __ATOMIC_RELAXED);
  __atomic_store_n(&reclaim_keep, keep_bytes, __ATOMIC_RELAXED);
  return 0;
}

int cacs_stack_set_cache(size_t stacks) {
  pthread_once(&once, global_init);
  __atomic_store_n(&cache_max, stacks, __ATOMIC_RELAXED);
  return 0;
}

int cacs_stack_set_cache_limit(size_t stacks) {
  pthread_once(&once, global_init);
  __atomic_store_n(&cacs__cache_limit, stacks, __ATOMIC_RELAXED);
  return 0;
}

static void thread_exit(void *unused) {
  (void)unused;
  cacs__exact_thread_exit();
  cacs__shared_thread_exit();
  cacs_stack_pool_trim();
  free_empty_classes();
  // Other destructors (the scheduler's) may free stacks after this one.
  T.exited = 1;
  cacs__overflow_thread_exit();
}

// Seeded nonzero when the thread registers (cacs__stack_thread_init), which
// every allocation has done first: no test of the seed at each creation.
static uint64_t rng_next(void) {
  uint64_t x = T.rng; // xorshift64
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return T.rng = x;
}

// A random number in [0, n): the high half of rng_next() * n (no division
// at every creation; the bias, n / 2^64, is nil for n <= 64).
static size_t rng_below(size_t n) {
  return (size_t)(((unsigned __int128)rng_next() * n) >> 64);
}

// Out of mappings is the one failure a program cannot tell from plain
// ENOMEM, and the usual fix is a sysctl: say so, once per process.
static void report_no_maps(const char *what) {
  static int said;
  if (__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    return;
  char buf[400];
  size_t n = 0;
  const char *parts[] = {
      "cacs: cannot allocate a coroutine stack: ", what,
      " (vm.max_map_count = ", NULL,
      "); raise vm.max_map_count, or use CACS_STACK_NOGUARD or shared "
      "stacks\n"};
  for (size_t i = 0; i < sizeof parts / sizeof *parts; ++i) {
    if (!parts[i]) {
      char num[24];
      size_t k = 0;
      unsigned long v = (unsigned long)max_map_count;
      do
        num[k++] = (char)('0' + v % 10);
      while ((v /= 10) && k < sizeof num);
      while (k && n < sizeof buf)
        buf[n++] = num[--k];
      continue;
    }
    for (const char *p = parts[i]; *p && n < sizeof buf; ++p)
      buf[n++] = *p;
  }
  ssize_t r = write(2, buf, n);
  (void)r;
}

// A fresh mapping; errno ENOMEM (and the message) when the kernel refuses.
static char *map_fresh(size_t size) {
  char *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    if (errno == ENOMEM)
      report_no_maps("out of memory or of mappings");
    return NULL;
  }
  return p;
}

// Make [p, p + guard) inaccessible. The kernel's guard regions leave the
// mapping whole; the fallback splits it, so it stops at a budget of the map
// count rather than starve malloc and the rest of the program of mappings.
static int install_guard(char *p, size_t guard) {
  if (guard_kind == CACS_STACK_GUARD_MADVISE)
    return madvise(p, guard, MADV_GUARD_INSTALL);
  size_t budget = max_map_count > 2 * CACS_MAP_HEADROOM
                      ? (size_t)(max_map_count - CACS_MAP_HEADROOM) / 2
                      : (size_t)max_map_count / 4;
  pthread_mutex_lock(&budget_lock);
  int ok = mprotect_guards < budget;
  if (ok)
    mprotect_guards++;
  pthread_mutex_unlock(&budget_lock);
  if (ok && mprotect(p, guard, PROT_NONE) == 0)
    return 0;
  int e = ok ? errno : ENOMEM;
  if (ok) {
    pthread_mutex_lock(&budget_lock);
    mprotect_guards--;
    pthread_mutex_unlock(&budget_lock);
  }
  if (e == ENOMEM)
    report_no_maps("no mappings left for guard pages (this kernel lacks "
                   "MADV_GUARD_INSTALL: each guard splits a mapping)");
  return cacs__fail(e);
}

// Undo install_guard's bookkeeping for a fallback guard going away with
// its mapping.
static void drop_guards(size_t n) {
  if (guard_kind != CACS_STACK_GUARD_MPROTECT || !n)
    return;
  pthread_mutex_lock(&budget_lock);
  mprotect_guards -= n;
  pthread_mutex_unlock(&budget_lock);
}

static size_class *find_class(size_t slot_size, unsigned guarded) {
  for (size_class *c = T.classes; c; c = c->next)
    if (c->slot_size == slot_size && c->guarded == guarded)
      return c;
  size_class *c = calloc(1, sizeof *c);
  if (!c)
    return NULL;
  c->slot_size = slot_size;
  c->guarded = guarded;
  c->next = T.classes;
  T.classes = c;
  return c;
}

static void avail_push(size_class *c, slab *s) {
  s->avail_prev = NULL;
  s->avail_next = c->avail;
  if (c->avail)
    c->avail->avail_prev = s;
  c->avail = s;
  s->in_avail = 1;
}

static void slab_release(slab *s);

static void avail_remove(size_class *c, slab *s) {
  if (s->avail_prev)
    s->avail_prev->avail_next = s->avail_next;
  else
    c->avail = s->avail_next;
  if (s->avail_next)
    s->avail_next->avail_prev = s->avail_prev;
  s->in_avail = 0;
}

static slab *slab_new(size_class *c) {
  size_t n = CACS_SLAB_BYTES / c->slot_size;
  if (n < CACS_SLAB_MIN_SLOTS)
    n = CACS_SLAB_MIN_SLOTS;
  if (n > CACS_SLAB_MAX_SLOTS)
    n = CACS_SLAB_MAX_SLOTS;
  // The slab's own record after its slots, in the mapping: it goes with
  // it, where malloc's heap would keep a burst's records resident.
  size_t meta = cacs__round_up(sizeof(slab) + n * sizeof(uint32_t), page_size);
  char *base = map_fresh(n * c->slot_size + meta);
  if (!base)
    return NULL;
  slab *s = (slab *)(void *)(base + n * c->slot_size); // zero, as mapped
  s->base = base;
  s->size = n * c->slot_size + meta;
  s->cls = c;
  s->nslots = (uint32_t)n;
  s->all_next = c->all;
  c->all = s;
  avail_push(c, s);
  return s;
}

static void slab_release(slab *s) {
  size_class *c = s->cls;
  if (s->in_avail)
    avail_remove(c, s);
  slab **pp = &c->all;
  while (*pp != s)
    pp = &(*pp)->all_next;
  *pp = s->all_next;
  c->nfree -= s->nfree;
  size_t guards = c->guarded ? s->carved : 0;
  munmap(s->base, s->size); // `s` with it
  drop_guards(guards);
}

// Prepare the slab's next fresh slots in one call each: install their guard
// regions (no memory, no mapping), then write their top pages (a page fault
// costs several times more, much more in some virtual machines). As many
// as the slab has carved so far, so a program that uses one stack does not
// pay for 64; kernels without batches take a call per guard and the faults.
//
// Guards go in with the slots they protect, not for the whole slab when it
// is mapped: under a shadow-paging hypervisor (PVM) guard markers spread
// over a 32 MiB slab's page tables, then pages populated among them, made
// the program's next pass over its *other* memory 2-25x slower (every page
// of a 100 MB buffer re-faulted in the hypervisor; bench write_fully's first
// repetition), while the same calls over the slots in use cost nothing.
static void prefault(size_class *c, slab *s) {
  if (!batch_ok)
    return;
  uint32_t n = s->carved ? s->carved : 1;
  if (n > CACS_PREFAULT_MAX)
    n = CACS_PREFAULT_MAX;
  if (n > s->nslots - s->carved)
    n = s->nslots - s->carved;
  if (c->guarded && guard_kind == CACS_STACK_GUARD_MADVISE &&
      s->guarded == s->carved) {
    for (uint32_t i = 0; i < n; ++i)
      c->batch[i] = (struct iovec){
          s->base + (size_t)(s->carved + i) * c->slot_size, page_size};
    if (madvise_batch(c->batch, n, MADV_GUARD_INSTALL) == 0)
      s->guarded = s->carved + n; // else each slot's with its first use
  }
  for (uint32_t i = 0; i < n; ++i)
    c->batch[i] = (struct iovec){
        s->base + (size_t)(s->carved + i + 1) * c->slot_size - page_size,
        page_size};
  madvise_batch(c->batch, n, MADV_POPULATE_WRITE); // a failure: faults
  s->prefaulted = s->carved + n;
}

static char *slot_take_miss(size_class *c, slab **out);

// A slot of the class: a cached one first (its guard is still there), else
// a recycled one or the next never-used one of a slab, guarded now
// (slot_take_miss: out of line, so that a hit, every creation of a steady
// state, saves no register).
static char *slot_take(size_class *c, slab **out) {
  if (c->epoch_left)
    c->epoch_left--;
  else
    epoch_end(c);
  // A cached stack first: its pages are there (and its guard).
  if (c->hot_n) {
    cached_slot *e = &c->hot[--c->hot_n];
    if (c->hot_n < c->low)
      c->low = c->hot_n;
    *out = e->sl;
    return e->map;
  }
  return slot_take_miss(c, out);
}

__attribute__((noinline)) static char *slot_take_miss(size_class *c,
                                                      slab **out) {
  // A miss. If the full cache has given stacks back since the last epoch
  // without a miss, this is one of them needed again: the bound was too
  // low by one. Unless the bound is at the limit: then the thread needs
  // more stacks at once than a steady state the cache learns, a burst
  // (one repeated, or larger than the last); it forgets what it learned,
  // so that the burst's stacks give their pages back as they drain, down
  // to the floor, instead of staying cached for the next burst.
  c->low = 0;
  c->missed = 1;
  if (c->given) {
    c->given--;
    if (cache_bound(c) <
            __atomic_load_n(&cacs__cache_limit, __ATOMIC_RELAXED) &&
        c->grown < UINT32_MAX) {
      c->grown++;
    } else {
      c->grown = 0;
      c->given = 0;
      hot_shrink(c, cache_bound(c));
    }
  }
  slab *s = c->avail;
  if (!s && !(s = slab_new(c)))
    return NULL;
  char *p;
  if (s->nfree) {
    p = s->base + (size_t)s->free_idx[--s->nfree] * c->slot_size;
    c->nfree--;
  } else {
    if (s->carved == s->prefaulted)
      prefault(c, s);
    p = s->base + (size_t)s->carved * c->slot_size;
    if (c->guarded && s->carved >= s->guarded &&
        install_guard(p, page_size) != 0)
      return NULL;
    s->carved++;
  }
  s->live++;
  if (!s->nfree && s->carved == s->nslots)
    avail_remove(c, s);
  *out = s;
  return p;
}

void *cacs_stack_alloc(size_t size, size_t hdr_size, unsigned flags) {
  return cacs_stack_alloc_at(size, hdr_size, 0, flags);
}

// A pooled stack's layout: everything cacs_stack_alloc_at derives from its
// arguments, the same at every creation of a create/join loop. Kept for the
// last arguments seen (`size` 0 is the default's own key), so that a
// creation recomputes none of it nor searches the classes (some 60
// instructions of a coroutine's ~800, issue 38). The class stays valid
// while it is cached: classes go only at thread exit
// (free_empty_classes), which forgets the layout.
typedef struct stack_layout {
  size_t size, hdr_in, desc_off; // the key: cacs_stack_alloc_at's arguments
  unsigned flags;                // (CACS_STACK_SHARED, NOPOOL never cached)
  size_class *cls;               // NULL: nothing cached
  size_t map_size;
  size_t hdr_size; // the block, rounded to lines
  size_t guard;
  size_t lines; // the colours of the block (0: not coloured)
  // The random start's bounds at colour 0 (see layout_compute): the range,
  // usable / 8 and the room left in the block's page.
  size_t range0, usable8, in_page;
} stack_layout;

static CACS_TLS stack_layout last_layout;

// The layout of a stack of `size` usable bytes below a block of `hdr_in`
// bytes whose descriptor is at `desc_off`; 0 on success, -1 (errno ENOMEM)
// for a size no mapping can hold, as calloc's overflow fails, instead of
// wrapping around to a tiny stack. The class is not looked up here.
static int layout_compute(stack_layout *l, size_t size, size_t hdr_in,
                          size_t desc_off, unsigned flags) {
  l->size = size;
  l->hdr_in = hdr_in;
  l->desc_off = desc_off;
  l->flags = flags;
  l->cls = NULL;
  if (size == 0)
    size = CACS_STACK_DEFAULT_SIZE;
  size_t hdr_size = hdr_in;
  if (hdr_size < desc_off + sizeof(cacs_stack))
    hdr_size = desc_off + sizeof(cacs_stack);
  hdr_size = cacs__round_up(hdr_size, 64);
  size_t guard = (flags & CACS_STACK_NOGUARD) ? 0 : page_size;
  size_t need;
  if (__builtin_add_overflow(size, hdr_size + page_size + guard, &need))
    return cacs__fail(ENOMEM);
  size_t map_size = cacs__round_up(size + hdr_size, page_size) + guard;
  l->map_size = map_size;
  l->hdr_size = hdr_size;
  l->guard = guard;
  // Colour the control block as well as the stack top: at the end of a
  // page-aligned mapping every block would sit at one page offset, i.e. in
  // one set of an L1 data cache indexed by the page offset, and a ring of
  // 9+ coroutines (each switch reads the next block) would miss in L1 on
  // every switch (bench/results/ANALYSIS.md, issue 22). The block moves
  // down by a number of lines that rotates from one stack to the next,
  // within the round-up slack of the top page, keeping STACK_TOP_ROOM bytes
  // of that page below it for the stack's top frames, so that a parked
  // coroutine still touches one page. Rotating rather than random:
  // consecutive blocks keep a constant stride (a random colour made
  // ring10000 8x slower).
  l->lines = 0;
  l->range0 = l->usable8 = l->in_page = 0;
  if (flags & CACS_STACK_NORANDOM)
    return 0;
  size_t slack = map_size - guard - size - hdr_size;
  size_t room = page_size > hdr_size + CACS_STACK_TOP_ROOM
                    ? page_size - hdr_size - CACS_STACK_TOP_ROOM
                    : 0;
  l->lines = (slack < room ? slack : room) / 64;
  // The random start: within usable / 8 of the top, at most RANDOM_MAX; a
  // coloured block leaves at least STACK_TOP_ROOM of its page below it,
  // and the start stays in that page (the block's colour already spreads
  // it over the page's lines). The mapping's end is page-aligned, so both
  // fall with the colour (stack_place).
  l->usable8 = (map_size - guard - hdr_size) / 8;
  l->range0 = l->usable8 < CACS_RANDOM_MAX ? l->usable8 : CACS_RANDOM_MAX;
  if (l->lines)
    l->in_page = page_size - hdr_size - CACS_STACK_TOP_ROOM / 2;
  return 0;
}

// Valgrind's client requests, out of line: inline, their request blocks
// gave every stack_place a stack frame and saved registers, on valgrind
// or not (issue 38).
__attribute__((noinline, cold)) static void vg_recycled(char *lo, size_t len) {
  VALGRIND_MAKE_MEM_UNDEFINED(lo, len);
}
__attribute__((noinline, cold)) static unsigned vg_register(void *lo,
                                                            void *hi) {
  return VALGRIND_STACK_REGISTER(lo, hi);
}
__attribute__((noinline, cold)) static void vg_deregister(unsigned id) {
  VALGRIND_STACK_DEREGISTER(id);
}

// The stack of layout `l`, taken from its class (`from` its slab) or a
// mapping of its own (`from` NULL), ready with its descriptor. Inlined:
// the fast path of every creation saves the call and its registers.
static inline __attribute__((always_inline)) void *
stack_place(const stack_layout *l, char *map, slab *from, size_t desc_off,
            unsigned flags) {
  size_t guard = l->guard, map_size = l->map_size, hdr_size = l->hdr_size;
  // memcheck may still hold a recycled stack as no-access (it saw the stack
  // pointer leave it); it is plain, undefined memory again.
  if (cacs__on_valgrind())
    vg_recycled(map + guard, map_size - guard);
  size_t color = 0, range = l->range0;
  if (l->lines) {
    // T.color++ % (lines + 1), without a division at every creation: the
    // counter wraps instead (a class with fewer lines than the last one
    // restarts it).
    if (T.color > l->lines)
      T.color = 0;
    color = T.color++ * 64;
    // (A colour is whole lines: usable / 8 falls by exactly color / 8.)
    if (l->usable8 - color / 8 < range)
      range = l->usable8 - color / 8;
    if (l->in_page - color < range)
      range = l->in_page - color;
  }
  char *hdr = map + map_size - hdr_size - color;
  cacs_stack *s = (cacs_stack *)(hdr + desc_off);
  // Every member but the name is set below: a NUL names no one, not the
  // 40 bytes of a memset.
  s->flags = flags;
  s->vg_id = 0;
  s->owner_id = 0;
  s->owner[0] = 0;
  s->map = map;
  s->map_size = map_size;
  s->lo = map + guard;
  s->pool = from;
  uintptr_t top = (uintptr_t)hdr;
  if (range >= 64)
    top -= rng_below(range / 64) * 64;
  s->top = (void *)(top & ~(uintptr_t)15);
  if (cacs__on_valgrind())
    s->vg_id = vg_register(s->lo, (char *)s->map + map_size);
  s->reg_next = T.live;
  s->reg_prev = NULL;
  if (T.live)
    T.live->reg_prev = s;
  T.live = s;
  return hdr;
}

__attribute__((noinline)) static void *stack_alloc_slow(size_t size,
                                                        size_t hdr_size,
                                                        size_t desc_off,
                                                        unsigned flags) {
  if (flags & CACS_STACK_SHARED)
    return cacs__shared_alloc(size, hdr_size, desc_off, flags);
  stack_layout own, *l = (flags & CACS_STACK_NOPOOL) ? &own : &last_layout;
  if (layout_compute(l, size, hdr_size, desc_off, flags) != 0)
    return NULL;
  char *map;
  slab *from = NULL;
  if (flags & CACS_STACK_NOPOOL) { // a mapping of its own, unmapped on free
    if (!(map = map_fresh(l->map_size)))
      return NULL;
    if (l->guard && install_guard(map, l->guard) != 0) {
      int e = errno;
      munmap(map, l->map_size);
      cacs__set_errno(e);
      return NULL;
    }
  } else {
    size_class *c = find_class(l->map_size, l->guard != 0);
    if (!c || !(map = slot_take(c, &from)))
      return NULL;
    l->cls = c;
  }
  return stack_place(l, map, from, desc_off, flags);
}

void *cacs_stack_alloc_at(size_t size, size_t hdr_size, size_t desc_off,
                          unsigned flags) {
  cacs__stack_thread_init();
  stack_layout *l = &last_layout;
  if (__builtin_expect(l->cls && l->size == size && l->hdr_in == hdr_size &&
                           l->desc_off == desc_off && l->flags == flags,
                       1)) {
    slab *from;
    char *map = slot_take(l->cls, &from);
    if (!map)
      return NULL;
    return stack_place(l, map, from, desc_off, flags);
  }
  return stack_alloc_slow(size, hdr_size, desc_off, flags);
}

// cacs_stack_alloc_at's fast path alone: a stack from the cache, with its
// pages, when the last layout is this one's and its class's cache holds
// one; else NULL, nothing done (errno untouched). coro.c creates a
// coroutine without its stack then.
void *cacs__stack_alloc_cached(size_t size, size_t hdr_size, size_t desc_off,
                               unsigned flags) {
  stack_layout *l = &last_layout;
  if (!(l->cls && l->cls->hot_n && l->size == size && l->hdr_in == hdr_size &&
        l->desc_off == desc_off && l->flags == flags))
    return NULL;
  slab *from;
  char *map = slot_take(l->cls, &from);
  return stack_place(l, map, from, desc_off, flags);
}

int cacs__stack_bind(cacs_stack *s, size_t size, size_t hdr_size,
                     size_t desc_off, unsigned flags) {
  char *blk = cacs_stack_alloc_at(size, hdr_size, desc_off, flags);
  if (!blk)
    return -1;
  // The descriptor stack_place wrote at the top moves to `s`, the first
  // of the registry (it was just pushed): the overflow handler and
  // cacs_stack_free read `s` from now on, whose name and id the owner
  // set before. The block's room at the top stays unused, so that both
  // kinds of coroutine share a size class and its cache.
  const cacs_stack *in = (const cacs_stack *)(blk + desc_off);
  s->vg_id = in->vg_id;
  s->pool = in->pool;
  s->map = in->map;
  s->map_size = in->map_size;
  s->lo = in->lo;
  s->top = in->top;
  s->reg_prev = NULL;
  s->reg_next = in->reg_next;
  if (s->reg_next)
    s->reg_next->reg_prev = s;
  T.live = s;
  return 0;
}

// A slot back to its slab's free list; an empty slab goes back to the
// kernel unless it is the class's only place to take a stack from (keeps
// create/join loops off mmap), or the thread is exiting.
static void slot_put(size_class *c, slab *sl, char *map) {
  sl->free_idx[sl->nfree++] =
      (uint32_t)((size_t)(map - sl->base) / c->slot_size);
  c->nfree++;
  sl->live--;
  if (!sl->in_avail)
    avail_push(c, sl);
  if (sl->live == 0 && (c->avail != sl || sl->avail_next || T.exited))
    slab_release(sl);
}

// Stacks leaving the cache (or never in it): their pages go back as the
// policy says (cacs_stack_set_reclaim), all but the top `reclaim_keep`
// bytes, in one call for all of them, and their slots to their slabs.
static void release(size_class *c, const cached_slot *e, uint32_t n) {
  int mode = __atomic_load_n(&reclaim_mode, __ATOMIC_RELAXED);
  size_t keep = cacs__round_up(__atomic_load_n(&reclaim_keep, __ATOMIC_RELAXED),
                         page_size);
  size_t guard = c->guarded ? page_size : 0;
  // Neighbouring slots (a burst drained in the order it was created) go
  // as one range across the guard between them: one zap and one TLB
  // flush instead of one each (in a VM, 630 ns a stack given back as 32
  // ranges, 420 as one). A guard region stays through MADV_DONTNEED and
  // MADV_FREE; a fallback guard is a mapping of its own, so those ranges
  // stay apart.
  int merge = keep == 0 && (!guard || guard_kind == CACS_STACK_GUARD_MADVISE);
  size_t k = 0;
  for (uint32_t i = 0; mode != CACS_STACK_RECLAIM_NONE && i < n; ++i) {
    if (c->slot_size <= guard + keep)
      continue;
    char *lo = e[i].map + guard;
    size_t len = c->slot_size - guard - keep;
    struct iovec *last = k ? &c->batch[k - 1] : NULL;
    if (merge && last && (char *)last->iov_base + last->iov_len == e[i].map) {
      last->iov_len += guard + len; // the slot right above the last range
    } else if (merge && last && lo + len == (char *)last->iov_base - guard) {
      last->iov_base = lo; // the slot right below it
      last->iov_len += len + guard;
    } else {
      c->batch[k++] = (struct iovec){lo, len};
    }
  }
  if (k)
    madvise_batch(c->batch, k,
                  mode == CACS_STACK_RECLAIM_FREE ? MADV_FREE : MADV_DONTNEED);
  for (uint32_t i = 0; i < n; ++i)
    slot_put(c, e[i].sl, e[i].map);
}

// The top `n` stacks of the cache leave it (a batch).
static void cache_flush(size_class *c, uint32_t n) {
  c->hot_n -= n;
  release(c, c->hot + c->hot_n, n);
}

// How many freed stacks the class's cache keeps: the floor set by
// cacs_stack_set_cache (0: none, and nothing learned) and what it learned.
static size_t cache_bound(const size_class *c) {
  size_t max = __atomic_load_n(&cache_max, __ATOMIC_RELAXED);
  if (!max)
    return 0;
  size_t b = max + c->grown;
  return b < max || b > UINT32_MAX ? UINT32_MAX : b;
}

// A cache that had grown large gives its array back too.
static void hot_shrink(size_class *c, size_t bound) {
  if (c->hot_cap <= 1024 || c->hot_cap / 4 <= bound)
    return;
  size_t cap = bound > c->hot_n ? bound : c->hot_n;
  cap = cap < 16 ? 16 : cap;
  cached_slot *h = realloc(c->hot, cap * sizeof *h);
  if (h) {
    c->hot = h;
    c->hot_cap = (uint32_t)cap;
  }
}

// An epoch is over (twice as many allocations of the class as its bound,
// so that a create/join cycle of as many stacks as the cache keeps fits
// in one, and its hits before its first miss do not make one). If no
// allocation missed, the cache was large enough: the stacks it gave back
// before are forgiven, so that a one-time burst's do not raise the bound
// when the next burst comes. The stacks that sat in the
// cache all through it were not needed: they go back (the bottom of the
// cache, the ones freed longest ago, in batches) and the learned bound
// drops by as many, down to the floor. A cache emptied in every cycle
// keeps all: a steady state of create/join rounds makes no system call.
static void epoch_end(size_class *c) {
  if (!c->missed)
    c->given = 0;
  c->missed = 0;
  if (c->low) {
    uint32_t drop = c->low < c->grown ? c->low : c->grown;
    c->grown -= drop;
    size_t bound = cache_bound(c);
    uint32_t out = c->hot_n > bound ? (uint32_t)(c->hot_n - bound) : 0;
    for (uint32_t i = 0; i < out; i += CACS_RECLAIM_BATCH)
      release(c, c->hot + i,
              out - i < CACS_RECLAIM_BATCH ? out - i : CACS_RECLAIM_BATCH);
    if (out) {
      c->hot_n -= out;
      memmove(c->hot, c->hot + out, c->hot_n * sizeof *c->hot);
    }
    hot_shrink(c, bound);
  }
  c->low = c->hot_n;
  size_t len = cache_bound(c);
  c->epoch_left = len > CACS_EPOCH_MIN ? 2 * len : 2 * CACS_EPOCH_MIN;
}

// The class's cached stacks all leave it.
static void cache_drain(size_class *c) {
  while (c->hot_n)
    cache_flush(c, c->hot_n < CACS_RECLAIM_BATCH ? c->hot_n
                                                 : CACS_RECLAIM_BATCH);
}

// Keep a freed stack with its pages; a cache at its bound first gives a
// batch back (so after a burst, between bound - batch + 1 and bound stay),
// and counts them: allocations that miss before they are forgiven grow the
// bound (slot_take). cache_put: the common case, below the bound and with
// room in the array, without the calls (and saved registers) of the rest.
__attribute__((noinline)) static void cache_put_full(size_class *c, slab *sl,
                                                     char *map, size_t max) {
  while (c->hot_n && c->hot_n >= max) { // (>: a bound lowered since)
    uint32_t n = c->hot_n < CACS_RECLAIM_BATCH ? c->hot_n : CACS_RECLAIM_BATCH;
    int full = c->hot_n == max;
    cache_flush(c, n);
    if (full) // (not what a lowered bound sends back)
      c->given += n;
  }
  if (c->hot_n == c->hot_cap && c->hot_cap < max) {
    size_t cap = c->hot_cap ? 2 * (size_t)c->hot_cap : 16;
    if (cap > max)
      cap = max;
    cached_slot *h = realloc(c->hot, cap * sizeof *h);
    if (h) {
      c->hot = h;
      c->hot_cap = (uint32_t)cap;
    }
  }
  cached_slot e = {map, sl};
  if (c->hot_n < c->hot_cap && c->hot_n < max)
    c->hot[c->hot_n++] = e;
  else // no cache (bound 0, no memory): it goes alone
    release(c, &e, 1);
}

static void cache_put(size_class *c, slab *sl, char *map) {
  size_t max = cache_bound(c);
  if (__builtin_expect(c->hot_n < max && c->hot_n < c->hot_cap, 1))
    c->hot[c->hot_n++] = (cached_slot){map, sl};
  else
    cache_put_full(c, sl, map, max);
}

void cacs_stack_free(cacs_stack *s) {
  if (!s)
    return;
  if (s->flags & CACS_STACK_SHARED) {
    cacs__shared_free(s);
    return;
  }
  if (s->flags & CACS__STACK_EXACT) {
    cacs__exact_free(s);
    return;
  }
  if (s->reg_prev)
    s->reg_prev->reg_next = s->reg_next;
  else
    T.live = s->reg_next;
  if (s->reg_next)
    s->reg_next->reg_prev = s->reg_prev;
  if (cacs__on_valgrind())
    vg_deregister(s->vg_id);

  char *map = s->map;
  size_t map_size = s->map_size;
  slab *sl = s->pool;
  if (!sl) { // CACS_STACK_NOPOOL
    // `s` lies in the mapping: read it before the mapping goes.
    size_t guards = (char *)s->lo != map;
    munmap(map, map_size);
    drop_guards(guards);
    return;
  }
  size_class *c = sl->cls;
  if (!T.exited) {
    cache_put(c, sl, map);
    return;
  }
  // After thread_exit, a stack takes its slab along (its pages with it).
  slot_put(c, sl, map);
  free_empty_classes();
}

// The classes without a slab left (stacks still in use keep theirs).
static void free_empty_classes(void) {
  last_layout.cls = NULL;
  for (size_class **pp = &T.classes; *pp;) {
    size_class *c = *pp;
    if (c->all) {
      pp = &c->next;
    } else {
      *pp = c->next;
      free(c->hot);
      free(c);
    }
  }
}

void cacs_stack_pool_trim(void) {
  for (size_class *c = T.classes; c; c = c->next) {
    cache_drain(c);
    c->grown = 0; // a new start: the bound is learned again
    c->given = 0;
    c->low = 0;
    c->missed = 0;
    for (slab *sl = c->all, *next; sl; sl = next) {
      next = sl->all_next;
      if (sl->live == 0)
        slab_release(sl);
    }
  }
}

size_t cacs_stack_pool_count(void) {
  size_t n = 0;
  for (size_class *c = T.classes; c; c = c->next)
    n += c->nfree + c->hot_n;
  return n;
}
