//===- lib/stack.c - Guarded, pooled, randomized coroutine stacks --------===//

#define _GNU_SOURCE 1
#include "cacs/stack.h"
#include "errors.h"
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/memcheck.h>
#include <valgrind/valgrind.h>
#define CACS_HAVE_VALGRIND 1
#endif
#endif
#ifndef CACS_HAVE_VALGRIND
#define VALGRIND_STACK_REGISTER(lo, hi) 0u
#define VALGRIND_STACK_DEREGISTER(id) ((void)(id))
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_DISABLE_ERROR_REPORTING ((void)0)
#define VALGRIND_ENABLE_ERROR_REPORTING ((void)0)
#endif

// Linux >= 6.13 installs guard regions inside a mapping without splitting
// it (no extra VMA per guard); Debian 12's headers predate it.
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

#if CACS_ASAN
#include <sanitizer/asan_interface.h>
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
  uint32_t live;       // slots in use
  uint32_t nfree;      // entries of free_idx: recycled slots, LIFO
  unsigned in_avail;   // on the avail list
  uint32_t free_idx[]; // (kept out of the slots: reclaim may drop them)
};

struct size_class {
  size_t slot_size; // guard + stack + control block, page multiple
  unsigned guarded;
  slab *avail; // slabs with a free or never-carved slot
  slab *all;
  size_t nfree; // recycled slots over all its slabs (cacs_stack_pool_count)
  size_class *next;
};

typedef struct cacs__shstack cacs__shstack;

typedef struct thread_state {
  size_class *classes;
  cacs__shstack *shared;  // shared execution stacks (debug ones included)
  cacs_stack *switcher;   // where shared stacks are copied (made on first use)
  size_t shared_saved;    // sum of their coroutines' save_len
  struct shared_name *last_name; // the name given last (name_get)
  cacs_stack *live; // registry searched by the SIGSEGV handler
  uint64_t rng;
  size_t color; // the next control block's colour, in cache lines
  void *altstack;
  int registered; // thread-exit destructor armed
  int exited;     // thread_exit ran: stacks freed later take their slab along
} thread_state;

static CACS_TLS thread_state T;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
static struct sigaction old_segv;
static size_t page_size;
static int guard_kind; // CACS_STACK_GUARD_MADVISE or _MPROTECT
static long max_map_count;
// Fallback guards in place, process-wide (they spend the map count).
static size_t mprotect_guards;
static pthread_mutex_t budget_lock = PTHREAD_MUTEX_INITIALIZER;
static int shared_debug; // CACS_SHARED_STACK_DEBUG=1
static int reclaim_mode = CACS_STACK_RECLAIM_DONTNEED;
static size_t reclaim_keep; // bytes at the top kept on reclaim (init: a page)

static void thread_exit(void *unused);
static void shared_thread_exit(void);
static void free_empty_classes(void);

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
  reclaim_keep = page_size;
  max_map_count = read_max_map_count();
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
  const char *d = getenv("CACS_SHARED_STACK_DEBUG");
  shared_debug = d && *d && strcmp(d, "0");
  pthread_key_create(&exit_key, thread_exit);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sa.sa_sigaction = cacs__segv_handler;
  sigaction(SIGSEGV, &sa, &old_segv);
}

static void thread_init(void) {
  pthread_once(&once, global_init);
  if (T.registered)
    return;
  T.registered = 1;
  pthread_setspecific(exit_key, &T);
  // The overflow handler needs a stack of its own: the faulting one is full.
  stack_t cur;
  if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
    size_t sz = 64 * 1024;
    void *mem = mmap(NULL, sz, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem != MAP_FAILED) {
      stack_t ss = {.ss_sp = mem, .ss_flags = 0, .ss_size = sz};
      if (sigaltstack(&ss, NULL) == 0)
        T.altstack = mem;
      else
        munmap(mem, sz);
    }
  }
}

void cacs_stack_install_overflow_handler(void) { thread_init(); }

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

static void thread_exit(void *unused) {
  (void)unused;
  shared_thread_exit();
  cacs_stack_pool_trim();
  free_empty_classes();
  // Other destructors (the scheduler's) may free stacks after this one.
  T.exited = 1;
  if (T.altstack) {
    stack_t ss = {.ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0};
    sigaltstack(&ss, NULL);
    munmap(T.altstack, 64 * 1024);
    T.altstack = NULL;
  }
}

static uint64_t rng_next(void) {
  if (!T.rng)
    T.rng = (uint64_t)(uintptr_t)&T ^ 0x9e3779b97f4a7c15ull;
  uint64_t x = T.rng; // xorshift64
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return T.rng = x;
}

static size_t round_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

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
  slab *s = malloc(sizeof *s + n * sizeof(uint32_t));
  if (!s)
    return NULL;
  memset(s, 0, sizeof *s);
  s->size = n * c->slot_size;
  s->base = map_fresh(s->size);
  if (!s->base) {
    int e = errno;
    free(s);
    cacs__set_errno(e);
    return NULL;
  }
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
  munmap(s->base, s->size);
  drop_guards(c->guarded ? s->carved : 0);
  free(s);
}

// A slot of the class: a recycled one first (its guard is still there),
// else the next never-used one of a slab, guarded now.
static char *slot_take(size_class *c, slab **out) {
  slab *s = c->avail;
  if (!s && !(s = slab_new(c)))
    return NULL;
  char *p;
  if (s->nfree) {
    p = s->base + (size_t)s->free_idx[--s->nfree] * c->slot_size;
    c->nfree--;
  } else {
    p = s->base + (size_t)s->carved * c->slot_size;
    if (c->guarded && install_guard(p, page_size) != 0)
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

static void *shared_alloc(size_t size, size_t hdr_size, size_t desc_off,
                          unsigned flags);
static void shared_free(cacs_stack *s);

void *cacs_stack_alloc_at(size_t size, size_t hdr_size, size_t desc_off,
                          unsigned flags) {
  thread_init();
  if (flags & CACS_STACK_SHARED)
    return shared_alloc(size, hdr_size, desc_off, flags);
  if (size == 0)
    size = CACS_STACK_DEFAULT_SIZE;
  if (hdr_size < desc_off + sizeof(cacs_stack))
    hdr_size = desc_off + sizeof(cacs_stack);
  hdr_size = round_up(hdr_size, 64);
  size_t guard = (flags & CACS_STACK_NOGUARD) ? 0 : page_size;
  // A size no mapping can hold (such as (size_t)-1) fails as calloc's
  // overflow does, instead of wrapping around to a tiny stack.
  size_t need;
  if (__builtin_add_overflow(size, hdr_size + page_size + guard, &need)) {
    cacs__set_errno(ENOMEM);
    return NULL;
  }
  size_t map_size = round_up(size + hdr_size, page_size) + guard;

  char *map;
  slab *from = NULL;
  if (flags & CACS_STACK_NOPOOL) { // a mapping of its own, unmapped on free
    if (!(map = map_fresh(map_size)))
      return NULL;
    if (guard && install_guard(map, guard) != 0) {
      int e = errno;
      munmap(map, map_size);
      cacs__set_errno(e);
      return NULL;
    }
  } else {
    size_class *c = find_class(map_size, guard != 0);
    if (!c || !(map = slot_take(c, &from)))
      return NULL;
  }

  // memcheck may still hold a recycled stack as no-access (it saw the stack
  // pointer leave it); it is plain, undefined memory again.
  VALGRIND_MAKE_MEM_UNDEFINED(map + guard, map_size - guard);
  // Colour the control block as well as the stack top: at the end of a
  // page-aligned mapping every block would sit at one page offset, i.e. in
  // one set of an L1 data cache indexed by the page offset, and a ring of 9+
  // coroutines (each switch reads the next block) would miss in L1 on every
  // switch (bench/results/ANALYSIS.md, issue 22). The block moves down by a
  // number of lines that rotates from one stack to the next, within the
  // round-up slack of the top page, keeping STACK_TOP_ROOM bytes of that
  // page below it for the stack's top frames, so that a parked coroutine
  // still touches one page. Rotating rather than random: consecutive blocks
  // keep a constant stride (a random colour made ring10000 8x slower).
  size_t color = 0;
  int colored = 0;
  if (!(flags & CACS_STACK_NORANDOM)) {
    size_t slack = map_size - guard - size - hdr_size;
    size_t room = page_size > hdr_size + CACS_STACK_TOP_ROOM
                      ? page_size - hdr_size - CACS_STACK_TOP_ROOM
                      : 0;
    size_t lines = (slack < room ? slack : room) / 64;
    colored = lines != 0;
    if (lines)
      color = (T.color++ % (lines + 1)) * 64;
  }
  char *hdr = map + map_size - hdr_size - color;
  cacs_stack *s = (cacs_stack *)(hdr + desc_off);
  memset(s, 0, sizeof *s);
  s->map = map;
  s->map_size = map_size;
  s->lo = map + guard;
  s->flags = flags;
  s->pool = from;
  uintptr_t top = (uintptr_t)hdr;
  if (!(flags & CACS_STACK_NORANDOM)) {
    size_t usable = top - (uintptr_t)s->lo;
    size_t range = usable / 8 < CACS_RANDOM_MAX ? usable / 8 : CACS_RANDOM_MAX;
    // A coloured block leaves at least STACK_TOP_ROOM of its page below it;
    // the random start stays in that page (the block's colour already
    // spreads the start over the page's lines).
    size_t in_page = (size_t)(top & (page_size - 1));
    if (colored && range > in_page - CACS_STACK_TOP_ROOM / 2)
      range = in_page - CACS_STACK_TOP_ROOM / 2;
    if (range >= 64)
      top -= (rng_next() % (range / 64)) * 64;
  }
  s->top = (void *)(top & ~(uintptr_t)15);
  s->vg_id = VALGRIND_STACK_REGISTER(s->lo, (char *)s->map + map_size);
  s->reg_next = T.live;
  s->reg_prev = NULL;
  if (T.live)
    T.live->reg_prev = s;
  T.live = s;
  return hdr;
}

// Give an idle stack's pages back as the policy says (cacs_stack_set_reclaim):
// all but the top `reclaim_keep` bytes, which the next user touches at once.
static void reclaim(char *lo, char *end) {
  int mode = __atomic_load_n(&reclaim_mode, __ATOMIC_RELAXED);
  if (mode == CACS_STACK_RECLAIM_NONE)
    return;
  size_t keep = round_up(__atomic_load_n(&reclaim_keep, __ATOMIC_RELAXED),
                         page_size);
  if ((size_t)(end - lo) <= keep)
    return;
  madvise(lo, (size_t)(end - lo) - keep,
          mode == CACS_STACK_RECLAIM_FREE ? MADV_FREE : MADV_DONTNEED);
}

void cacs_stack_free(cacs_stack *s) {
  if (!s)
    return;
  if (s->flags & CACS_STACK_SHARED) {
    shared_free(s);
    return;
  }
  if (s->reg_prev)
    s->reg_prev->reg_next = s->reg_next;
  else
    T.live = s->reg_next;
  if (s->reg_next)
    s->reg_next->reg_prev = s->reg_prev;
  VALGRIND_STACK_DEREGISTER(s->vg_id);

  char *map = s->map;
  size_t map_size = s->map_size;
  slab *sl = s->pool;
  if (!sl) { // CACS_STACK_NOPOOL
    munmap(map, map_size);
    drop_guards((char *)s->lo != map);
    return;
  }
  reclaim(s->lo, map + map_size);
  size_class *c = sl->cls;
  sl->free_idx[sl->nfree++] = (uint32_t)((size_t)(map - sl->base) / c->slot_size);
  c->nfree++;
  sl->live--;
  if (!sl->in_avail)
    avail_push(c, sl);
  // An empty slab goes back to the kernel unless it is the class's only
  // place to take a stack from (keeps create/join loops off mmap), or the
  // thread is exiting.
  if (sl->live == 0 && (c->avail != sl || sl->avail_next || T.exited))
    slab_release(sl);
  if (T.exited)
    free_empty_classes();
}

// The classes without a slab left (stacks still in use keep theirs).
static void free_empty_classes(void) {
  for (size_class **pp = &T.classes; *pp;) {
    size_class *c = *pp;
    if (c->all) {
      pp = &c->next;
    } else {
      *pp = c->next;
      free(c);
    }
  }
}

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
    cacs__fatal("cacs: out of memory naming a shared-stack coroutine\n");
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

// Marks the descriptor of a shared execution stack (not a public flag).
#define SHARED_EXEC (1u << 31)

// The block at the top of a shared execution stack.
struct cacs__shstack {
  cacs_stack stk;           // first: the block the allocator hands out
  cacs_stack *resident;     // the coroutine whose frames are on it, if any
  void *const *resident_sp; // where that one's stack pointer is while out
  cacs_stack *debug_owner;  // debug mode: its one coroutine
  size_t size;              // usable size asked for (the per-thread key)
  size_t users;             // coroutines created on it and not freed
  unsigned vacated;         // debug mode: inaccessible, its coroutine out
  cacs__shstack *next;
};

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
  sh->stk.flags |= SHARED_EXEC;
  cacs_stack_set_owner(&sh->stk, debug ? "shared stack (debug)" : "shared stack",
                       0);
  sh->size = size;
  sh->next = T.shared;
  T.shared = sh;
  return sh;
}

cacs_stack *cacs_stack_shared(size_t size) {
  thread_init();
  if (size == 0)
    size = CACS_STACK_DEFAULT_SIZE;
  for (cacs__shstack *sh = T.shared; sh; sh = sh->next)
    if (sh->size == size && !sh->debug_owner)
      return &sh->stk;
  cacs__shstack *sh = shared_new(size, 0);
  return sh ? &sh->stk : NULL;
}

static void *shared_alloc(size_t size, size_t hdr_size, size_t desc_off,
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
  if (shared_debug) { // a stack of its own, to protect while it is out
    sh = shared_new(size, 1);
  } else {
    cacs_stack *st = cacs_stack_shared(size);
    sh = (cacs__shstack *)st;
  }
  if (!sh)
    return NULL;
  char *hdr = malloc(hdr_size); // every byte counts at millions of them
  if (!hdr) {
    if (shared_debug)
      shared_free(&sh->stk);
    return NULL;
  }
  cacs_stack *s = (cacs_stack *)(hdr + desc_off);
  // The short descriptor only (stack.h): no map_size, lo, top or owner[].
  memset(s, 0, CACS_STACK_SHARED_DESC_SIZE);
  s->map = hdr; // the control block, freed with it
  s->flags = flags & ~(unsigned)CACS_STACK_NOPOOL;
  s->pool = sh;
  sh->users++;
  if (shared_debug)
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

// Shared stacks nobody uses any more, and the switcher if none is left.
static void shared_thread_exit(void) {
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

static void shared_free(cacs_stack *s) {
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
    shared_thread_exit(); // what thread_exit left for later
}

const char *cacs__stack_owner(const cacs_stack *s) {
  return (s->flags & CACS_STACK_SHARED) ? s->owner_ref : s->owner;
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
  size_t i = 0;
  if (name)
    for (; name[i] && i + 1 < sizeof s->owner; ++i)
      s->owner[i] = name[i];
  s->owner[i] = 0;
  s->owner_id = id;
}

void cacs_stack_pool_trim(void) {
  for (size_class *c = T.classes; c; c = c->next) {
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
    n += c->nfree;
  return n;
}

void cacs__fatal(const char *msg) {
  ssize_t r = write(2, msg, strlen(msg));
  (void)r;
  abort();
}

// --- overflow reporting (async-signal-safe: write(2) only) ---------------

static size_t fmt_hex(char *buf, uintptr_t v) {
  char tmp[18];
  size_t n = 0;
  do {
    tmp[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  buf[0] = '0';
  buf[1] = 'x';
  for (size_t i = 0; i < n; ++i)
    buf[2 + i] = tmp[n - 1 - i];
  return n + 2;
}

static size_t fmt_dec(char *buf, uint64_t v) {
  char tmp[24];
  size_t n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  for (size_t i = 0; i < n; ++i)
    buf[i] = tmp[n - 1 - i];
  return n;
}

static size_t put(char *buf, size_t at, const char *s) {
  while (*s && at < 255)
    buf[at++] = *s++;
  return at;
}

// `who`'s name as cacs_name gives it (a shared-stack coroutine given none:
// "coro#<id>", which coro_info.c makes up only when asked); "?" if empty.
static size_t put_owner(char *buf, size_t at, const cacs_stack *who) {
  const char *name = cacs__stack_owner(who);
  if (!name) {
    at = put(buf, at, "coro#");
    return at + fmt_dec(buf + at, who->owner_id);
  }
  return put(buf, at, name[0] ? name : "?");
}

// Name `who`, the owner of stack `s` whose guard page `a` hit, and abort.
__attribute__((noreturn)) static void report_overflow(const cacs_stack *who,
                                                      const cacs_stack *s,
                                                      uintptr_t a) {
  char buf[320];
  size_t n = put(buf, 0, "cacs: stack overflow in coroutine '");
  n = put_owner(buf, n, who);
  n = put(buf, n, "' (id ");
  n += fmt_dec(buf + n, who->owner_id);
  n = put(buf, n, "): fault at ");
  n += fmt_hex(buf + n, a);
  n = put(buf, n, ", guard page ");
  n += fmt_hex(buf + n, (uintptr_t)s->map);
  n = put(buf, n, "-");
  n += fmt_hex(buf + n, (uintptr_t)s->lo);
  n = put(buf, n, ", stack size ");
  n += fmt_dec(buf + n,
               (uint64_t)((char *)s->map + s->map_size - (char *)s->lo));
  n = put(buf, n, "\n");
  ssize_t r = write(2, buf, n);
  (void)r;
  abort();
}

void cacs__segv_handler(int sig, siginfo_t *si, void *uc) {
  uintptr_t a = (uintptr_t)si->si_addr;
  for (cacs_stack *s = T.live; s; s = s->reg_next) {
    // A shared stack's overflow is its resident coroutine's.
    const cacs_stack *who = s;
    if ((s->flags & SHARED_EXEC) && ((cacs__shstack *)s)->resident)
      who = ((cacs__shstack *)s)->resident;
    if ((s->flags & SHARED_EXEC) && ((cacs__shstack *)s)->vacated &&
        a >= (uintptr_t)s->lo && a < (uintptr_t)s->top) {
      who = ((cacs__shstack *)s)->debug_owner;
      char buf[320];
      size_t n = put(buf, 0, "cacs: access to a local of coroutine '");
      n = put_owner(buf, n, who);
      n = put(buf, n, "' (id ");
      n += fmt_dec(buf + n, who->owner_id);
      n = put(buf, n, ") while it is switched out (shared stack): a pointer "
                      "to a local escaped a switch; fault at ");
      n += fmt_hex(buf + n, a);
      n = put(buf, n, "\n");
      ssize_t r = write(2, buf, n);
      (void)r;
      abort();
    }
    if (a >= (uintptr_t)s->map && a < (uintptr_t)s->lo)
      report_overflow(who, s, a);
  }
  // A pool coroutine's stack, allocated by another worker's thread.
  const cacs_stack *ps =
      cacs__pool_fault_stack ? cacs__pool_fault_stack() : NULL;
  if (ps && a >= (uintptr_t)ps->map && a < (uintptr_t)ps->lo)
    report_overflow(ps, ps, a);
  // Not a guard-page hit: hand over to whoever was installed before us.
  if (old_segv.sa_flags & SA_SIGINFO) {
    old_segv.sa_sigaction(sig, si, uc);
  } else if (old_segv.sa_handler != SIG_DFL && old_segv.sa_handler != SIG_IGN) {
    old_segv.sa_handler(sig);
  } else {
    // Restore the default action; returning re-executes the faulting
    // instruction, which now kills the process the usual way.
    signal(SIGSEGV, SIG_DFL);
  }
}

// --- SafeStack (internal.h) -----------------------------------------------
// Weak: both are defined by compiler-rt's SafeStack runtime, which the driver
// links into SafeStack programs only. The function tells whether it is there;
// the variable is read only then.
extern __thread void *__safestack_unsafe_stack_ptr
    __attribute__((weak, tls_model("initial-exec")));
void *__get_unsafe_stack_ptr(void) __attribute__((weak));

void **cacs__unsafe_sp_slot(void) {
  return __get_unsafe_stack_ptr ? &__safestack_unsafe_stack_ptr : NULL;
}

// Always a stack of its own, even for a CACS_STACK_SHARED owner: the unsafe
// frames are never copied off a shared stack, so a shared one would hold
// several coroutines' unsafe frames at the same addresses.
static cacs_stack *unsafe_stack_alloc(size_t size, const cacs_stack *s) {
  cacs_stack *u = (cacs_stack *)cacs_stack_alloc(
      size, sizeof(cacs_stack), s->flags & ~(unsigned)CACS_STACK_SHARED);
  if (!u)
    return NULL;
  char name[sizeof u->owner];
  size_t n = 0;
  for (const char *p = "unsafe stack of "; *p && n + 1 < sizeof name; ++p)
    name[n++] = *p;
  const char *owner = cacs__stack_owner(s);
  for (const char *p = owner ? owner : ""; *p && n + 1 < sizeof name; ++p)
    name[n++] = *p;
  name[n] = 0;
  cacs_stack_set_owner(u, name, s->owner_id);
  return u;
}

// --- AArch64 shadow call stack (internal.h) ---------------------------------

int cacs__scs_on;

void cacs__scs_register(void) {
#if defined(__aarch64__) && defined(CACS_FIXED_X18)
  cacs__scs_on = 1;
#else
  cacs__fatal("cacs: this libcacs was built without -ffixed-x18 and cannot "
              "switch shadow call stacks (-fsanitize=shadow-call-stack)\n");
#endif
}

// One return address per instrumented frame, and a frame takes at least 16
// bytes of the stack: half the stack size is always enough.
static void *scs_alloc(size_t stack_size, size_t *map_size) {
  thread_init();
  size_t size = round_up(stack_size / 2, page_size);
  char *map = mmap(NULL, size + page_size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (map == MAP_FAILED)
    return NULL;
  if (mprotect(map + size, page_size, PROT_NONE) != 0) {
    int e = errno;
    munmap(map, size + page_size);
    cacs__set_errno(e);
    return NULL;
  }
  *map_size = size + page_size;
  return map;
}

// --- all of them (internal.h) -----------------------------------------------

int cacs__tool_stacks_init(cacs__tool_stacks *t, size_t size,
                           const cacs_stack *s) {
  memset(t, 0, sizeof *t);
  if (cacs__unsafe_sp_slot() && !(t->unsafe = unsafe_stack_alloc(size, s)))
    return -1;
  if (cacs__scs_on && !(t->scs_map = scs_alloc(size, &t->scs_map_size))) {
    int e = errno;
    cacs__tool_stacks_free(t);
    return cacs__fail(e);
  }
  if (cacs__tsan_on()) {
    t->tsan_fiber = __tsan_create_fiber(0);
    const char *owner = cacs__stack_owner(s);
    __tsan_set_fiber_name(t->tsan_fiber, owner ? owner : "");
  }
  return 0;
}

void cacs__tool_stacks_free(cacs__tool_stacks *t) {
  if (t->tsan_fiber)
    __tsan_destroy_fiber(t->tsan_fiber);
  if (t->scs_map)
    munmap(t->scs_map, t->scs_map_size);
  cacs_stack_free(t->unsafe);
  memset(t, 0, sizeof *t);
}

// --- -fsplit-stack (internal.h) ----------------------------------------------

// The slots of libgcc's context (generic-morestack.c).
enum {
  SPLIT_SEGMENTS = 0,
  SPLIT_CURRENT = 1,
  SPLIT_GUARD = 3,
  SPLIT_INITIAL_SP = 4,
  SPLIT_INITIAL_SP_LEN = 5,
};

void cacs__split_ctx_init(void *ctx[CACS_SPLIT_CTX_WORDS],
                          const cacs_stack *s) {
  memset(ctx, 0, CACS_SPLIT_CTX_WORDS * sizeof *ctx);
  size_t len = (size_t)((char *)s->top - (char *)s->lo);
  // Room below the limit for __morestack itself and for code built without
  // split stacks (libc, libcacs) that split-stack code calls.
  size_t margin = len / 2 < 16384 ? len / 2 : 16384;
  ctx[SPLIT_GUARD] = (char *)s->lo + margin;
  ctx[SPLIT_INITIAL_SP] = s->top;
  ctx[SPLIT_INITIAL_SP_LEN] = (void *)len;
}
