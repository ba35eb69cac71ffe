//===- lib/stack.c - Guarded, pooled, randomized coroutine stacks --------===//

#define _GNU_SOURCE 1
#include "cacs/stack.h"
#include "internal.h"

#include <errno.h>
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
#endif

#define CACS_POOL_MAX 64
#define CACS_RANDOM_MAX 4096 // randomize within one page, in cache lines

// Free mapping in the pool; stored in the last bytes of the mapping itself.
typedef struct pool_node {
  struct pool_node *next;
  size_t map_size;
  unsigned guarded;
} pool_node;

typedef struct thread_state {
  pool_node *pool;
  size_t pool_count;
  cacs_stack *live; // registry searched by the SIGSEGV handler
  uint64_t rng;
  void *altstack;
  int registered; // thread-exit destructor armed
} thread_state;

static CACS_TLS thread_state T;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;
static struct sigaction old_segv;
static size_t page_size;

static void thread_exit(void *unused);

static void global_init(void) {
  page_size = (size_t)sysconf(_SC_PAGESIZE);
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

static void thread_exit(void *unused) {
  (void)unused;
  cacs_stack_pool_trim();
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

void *cacs_stack_alloc(size_t size, size_t hdr_size, unsigned flags) {
  return cacs_stack_alloc_at(size, hdr_size, 0, flags);
}

void *cacs_stack_alloc_at(size_t size, size_t hdr_size, size_t desc_off,
                          unsigned flags) {
  thread_init();
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
    errno = ENOMEM;
    return NULL;
  }
  size_t map_size = round_up(size + hdr_size, page_size) + guard;
  unsigned guarded = guard != 0;

  char *map = NULL;
  for (pool_node **pp = &T.pool; *pp; pp = &(*pp)->next) {
    pool_node *n = *pp;
    if (n->map_size == map_size && n->guarded == guarded) {
      *pp = n->next;
      T.pool_count--;
      map = (char *)n + sizeof(pool_node) - map_size;
      break;
    }
  }
  if (!map) {
    map = mmap(NULL, map_size, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED)
      return NULL;
    if (guard && mprotect(map, guard, PROT_NONE) != 0) {
      int e = errno;
      munmap(map, map_size);
      errno = e;
      return NULL;
    }
  }

  // memcheck may still hold a pooled stack as no-access (it saw the stack
  // pointer leave it); it is plain, undefined memory again.
  VALGRIND_MAKE_MEM_UNDEFINED(map + guard, map_size - guard);
  char *hdr = map + map_size - hdr_size;
  cacs_stack *s = (cacs_stack *)(hdr + desc_off);
  memset(s, 0, sizeof *s);
  s->map = map;
  s->map_size = map_size;
  s->lo = map + guard;
  s->flags = flags;
  uintptr_t top = (uintptr_t)hdr;
  if (!(flags & CACS_STACK_NORANDOM)) {
    size_t usable = top - (uintptr_t)s->lo;
    size_t range = usable / 8 < CACS_RANDOM_MAX ? usable / 8 : CACS_RANDOM_MAX;
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

void cacs_stack_free(cacs_stack *s) {
  if (!s)
    return;
  if (s->reg_prev)
    s->reg_prev->reg_next = s->reg_next;
  else
    T.live = s->reg_next;
  if (s->reg_next)
    s->reg_next->reg_prev = s->reg_prev;
  VALGRIND_STACK_DEREGISTER(s->vg_id);

  char *map = s->map;
  size_t map_size = s->map_size;
  unsigned guarded = (char *)s->lo != map;
  if ((s->flags & CACS_STACK_NOPOOL) || T.pool_count >= CACS_POOL_MAX) {
    munmap(map, map_size);
    return;
  }
  // Give the used pages back to the kernel while the stack idles in the
  // pool; keep the top page, which is touched again right on reuse.
  char *keep = map + map_size - page_size;
  if (keep > (char *)s->lo)
    madvise(s->lo, (size_t)(keep - (char *)s->lo), MADV_DONTNEED);
  pool_node *n = (pool_node *)(map + map_size - sizeof(pool_node));
  n->map_size = map_size;
  n->guarded = guarded;
  n->next = T.pool;
  T.pool = n;
  T.pool_count++;
}

void cacs_stack_set_owner(cacs_stack *s, const char *name, uint64_t id) {
  size_t i = 0;
  if (name)
    for (; name[i] && i + 1 < sizeof s->owner; ++i)
      s->owner[i] = name[i];
  s->owner[i] = 0;
  s->owner_id = id;
}

void cacs_stack_pool_trim(void) {
  while (T.pool) {
    pool_node *n = T.pool;
    T.pool = n->next;
    munmap((char *)n + sizeof(pool_node) - n->map_size, n->map_size);
  }
  T.pool_count = 0;
}

size_t cacs_stack_pool_count(void) { return T.pool_count; }

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

void cacs__segv_handler(int sig, siginfo_t *si, void *uc) {
  uintptr_t a = (uintptr_t)si->si_addr;
  for (cacs_stack *s = T.live; s; s = s->reg_next) {
    if (a >= (uintptr_t)s->map && a < (uintptr_t)s->lo) {
      char buf[320];
      size_t n = put(buf, 0, "cacs: stack overflow in coroutine '");
      n = put(buf, n, s->owner[0] ? s->owner : "?");
      n = put(buf, n, "' (id ");
      n += fmt_dec(buf + n, s->owner_id);
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
  }
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

static cacs_stack *unsafe_stack_alloc(size_t size, const cacs_stack *s) {
  cacs_stack *u =
      (cacs_stack *)cacs_stack_alloc(size, sizeof(cacs_stack), s->flags);
  if (!u)
    return NULL;
  char name[sizeof u->owner];
  size_t n = 0;
  for (const char *p = "unsafe stack of "; *p && n + 1 < sizeof name; ++p)
    name[n++] = *p;
  for (const char *p = s->owner; *p && n + 1 < sizeof name; ++p)
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
    errno = e;
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
    errno = e;
    return -1;
  }
  if (cacs__tsan_on()) {
    t->tsan_fiber = __tsan_create_fiber(0);
    __tsan_set_fiber_name(t->tsan_fiber, s->owner);
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
