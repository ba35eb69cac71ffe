//===- lib/coro.c - Symmetric coroutines, per-thread round robin ---------===//

#define _GNU_SOURCE 1
#include "cacs/coro.h"
#include "coro_layout.h"
#include "internal.h"

#include "sched.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

enum coro_state {
  CORO_READY,  // on the ready ring (the running coroutine included)
  CORO_PARKED, // off the ring until cacs_wake or its timer
  CORO_DONE,   // finished, off the ring, waiting for cacs_join
};

struct cacs_coro {
  void *sp;               // saved stack pointer while switched out (layout:
  cacs_coro *next, *prev; // coro_layout.h); ready ring, parked/done unlinked
  cacs_stack stack;       // this block lives at the top of that stack
  cacs_entry_fn entry;
  void *arg;
  unsigned flags;
  unsigned char state; // enum coro_state
  // Freed when it finishes, without a join (cacs_detach).
  unsigned char detached;
  int wake_result;     // what cacs_park_timeout returns: 0 or ETIMEDOUT
  size_t timer_slot;   // 1 + index in the timer heap; 0: no timer armed
  uint64_t deadline;   // CLOCK_MONOTONIC ns, while timer_slot != 0
  cacs_coro *joiner;   // parked in cacs_join, woken by cacs_exit
  uint32_t fpenv[2];   // private MXCSR+x87 CW / FPCR (CACS_CORO_SAVE_FPENV)
  void *asan_fake;     // ASan fake-stack handle while switched out
  const void *asan_lo; // ASan view of this coroutine's stack
  size_t asan_size;
  cacs__tool_stacks tools; // SafeStack, shadow call stack, TSan (not main's)
  void *unsafe_sp;         // SafeStack: its unsafe stack pointer while out
  void *scs_sp;            // shadow call stack: its x18 while switched out
  void *tsan_fiber;        // ThreadSanitizer: its fiber (main's included)
  // ThreadSanitizer: the fiber to go back to, the one that was running when
  // it switched out: a generator's, if it waits inside the generator's body.
  void *tsan_resume;
  // -fsplit-stack: libgcc's per-thread split-stack state while switched out.
  void *split_ctx[CACS_SPLIT_CTX_WORDS];
};

// Read by cacs_yield before the thread has a scheduler: its ring holds only
// itself, so yield returns at once without a separate NULL check. Never
// written.
static cacs_coro idle = {.next = &idle, .prev = &idle};

// Cross-thread wake-ups posted to a thread (sched.h). Other threads touch
// only this; `lock` guards the list and `signalled`.
struct cacs__inbox {
  pthread_mutex_t lock;
  cacs__xwait *head, *tail;
  int efd;       // eventfd (nonblocking), valid once `ready`
  int ready;     // lock and efd set up (by the owner thread)
  int signalled; // efd written since the last drain
  int pending;   // atomic hint: the list may be non-empty
};

typedef struct sched {
  cacs_coro *current;     // &idle until the scheduler is set up
  unsigned char slow;     // every yield through cacs__yield_slow (FP env, ASan)
  unsigned fpenv_users;   // coroutines with CACS_CORO_SAVE_FPENV alive
  cacs_coro *switch_from; // for ASan: who switched to the running coroutine
  void **unsafe_sp_slot;  // SafeStack: the thread's unsafe stack pointer
  uint64_t next_id;
  size_t count;
  uint32_t shared_fpenv[2];
  cacs_coro main;
  // Waiting (see "Waiting" below).
  cacs_coro *service; // expires timers, polls I/O; NULL until needed
  cacs_coro **timers; // min-heap on deadline
  size_t ntimers, timers_cap;
  size_t io_waiters;       // coroutines blocked in the I/O module
  cacs__poll_fn poll_hook; // the I/O module's event loop, if linked in
  cacs_coro *zombies;      // detached and finished, stacks not yet freed
  size_t remote_waiters;   // coroutines another thread may wake
  int hook_has_wake_fd;    // the poll hook watches inbox.efd
  struct cacs__inbox inbox;
} sched;

// The assembly (yield_<arch>.S) addresses these fields through
// coro_layout.h; keep the two in step.
_Static_assert(offsetof(cacs_coro, sp) == CACS_CORO_SP, "coro_layout.h");
_Static_assert(offsetof(cacs_coro, next) == CACS_CORO_NEXT, "coro_layout.h");
_Static_assert(offsetof(sched, current) == CACS_SCHED_CURRENT,
               "coro_layout.h");
_Static_assert(offsetof(sched, slow) == CACS_SCHED_SLOW, "coro_layout.h");

// Hidden, not static: yield_<arch>.S reads it (local-exec TLS, see there).
__attribute__((visibility("hidden"))) CACS_TLS_LE sched cacs__sched = {
    .current = &idle};
#define S cacs__sched

// Whether every switch must take cacs__yield_slow whatever the coroutines'
// flags: the ASan and TSan annotations, the SafeStack pointer, x18 for the
// shadow call stack and the split-stack state are switched there.
static inline unsigned char slow_always(void) {
  return CACS_ASAN || S.unsafe_sp_slot != NULL || cacs__scs_on ||
         cacs__tsan_on() || cacs__split_on();
}

static void sched_init(void) {
  S.main.next = S.main.prev = &S.main;
  S.unsafe_sp_slot = cacs__unsafe_sp_slot();
  if (cacs__tsan_on())
    S.main.tsan_fiber = S.main.tsan_resume = __tsan_get_current_fiber();
  S.slow = slow_always();
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

// --- SafeStack, shadow call stack, TSan, split stacks (internal.h) -----------
// Each coroutine but main gets an unsafe stack as large as its stack, a
// shadow call stack, a TSan fiber, a split-stack context, as the program
// needs; the thread's unsafe stack pointer, x18 and split-stack state are
// saved and loaded with the stack pointer, and TSan is told of every switch.

static void coro_free(cacs_coro *c) {
  if (cacs__split_on())
    __splitstack_releasecontext(c->split_ctx);
  cacs__tool_stacks_free(&c->tools);
  cacs_stack_free(&c->stack);
}

static int tools_init(cacs_coro *c, size_t size) {
  if (cacs__tool_stacks_init(&c->tools, size, &c->stack) != 0)
    return -1;
  if (c->tools.unsafe)
    c->unsafe_sp = c->tools.unsafe->top;
  c->scs_sp = c->tools.scs_map;
  c->tsan_fiber = c->tsan_resume = c->tools.tsan_fiber;
  if (cacs__split_on())
    cacs__split_ctx_init(c->split_ctx, &c->stack);
  return 0;
}

// The finishing coroutine's state is saved too: its segments, if it grew
// any, are released with it.
static inline void split_switch(cacs_coro *from, cacs_coro *to) {
  if (!cacs__split_on())
    return;
  __splitstack_getcontext(from->split_ctx);
  __splitstack_setcontext(to->split_ctx);
}

// `from` NULL: it is finishing.
static inline void unsafe_switch(cacs_coro *from, cacs_coro *to) {
  if (!S.unsafe_sp_slot)
    return;
  if (from)
    from->unsafe_sp = *S.unsafe_sp_slot;
  *S.unsafe_sp_slot = to->unsafe_sp;
}

// x18 may only move where libcacs never uses it (CACS_FIXED_X18, see
// internal.h); `from` NULL: it is finishing.
static inline void scs_switch(cacs_coro *from, cacs_coro *to) {
#if defined(__aarch64__) && defined(CACS_FIXED_X18)
  if (!cacs__scs_on)
    return;
  if (from)
    __asm__ volatile("str x18, %0" : "=m"(from->scs_sp));
  __asm__ volatile("ldr x18, %0" : : "m"(to->scs_sp) : "memory");
#else
  (void)from, (void)to;
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

// --- switching --------------------------------------------------------------

// Suspend `from` in the layout the yield entries leave (coro_layout.h) and
// resume `to`.
// Used by the slow paths in C; returns when `from` is resumed, by either
// this function or the assembly. Every register is declared clobbered but
// the frame pointer (pushed) and sp; rbx/x19 too, which the compiler saves
// in the prologue of this (base-pointer-free) code. x18 is left alone when
// libcacs is built to leave it alone (scs_switch moves it).
static inline void coro_swap(cacs_coro *from, cacs_coro *to) {
#if defined(__x86_64__)
  __asm__ volatile("leaq -128(%%rsp), %%rsp\n\t" // keep our red zone intact
                   "leaq 1f(%%rip), %%rcx\n\t"
                   "pushq %%rcx\n\t"
                   "movq %%rbp, -8(%%rsp)\n\t"
                   "movq %%rsp, (%%rdi)\n\t"
                   "movq (%%rsi), %%rsp\n\t"
                   "movq -8(%%rsp), %%rbp\n\t"
                   "ret\n"
                   "1:\n\t"
                   "leaq 128(%%rsp), %%rsp"
                   : "+D"(from), "+S"(to)
                   :
                   : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11",
                     "r12", "r13", "r14", "r15", "xmm0", "xmm1", "xmm2",
                     "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
                     "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
                     "st", "st(1)", "st(2)", "st(3)", "st(4)", "st(5)",
                     "st(6)", "st(7)", "mm0", "mm1", "mm2", "mm3", "mm4",
                     "mm5", "mm6", "mm7", "memory", "cc");
#else
  register cacs_coro *x1 __asm__("x1") = from;
  register cacs_coro *x2 __asm__("x2") = to;
  __asm__ volatile("adr x9, 1f\n\t"
                   "stp x29, x9, [sp, #-16]!\n\t"
                   "mov x10, sp\n\t"
                   "str x10, [x1]\n\t"
                   "ldr x10, [x2]\n\t"
                   "mov sp, x10\n\t"
                   "ldp x29, x30, [sp], #16\n\t"
                   "ret\n"
                   "1:"
                   : "+r"(x1), "+r"(x2)
                   :
                   : "x0", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
                     "x11", "x12", "x13", "x14", "x15", "x16", "x17",
#if !defined(CACS_FIXED_X18)
                     "x18",
#endif
                     "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26",
                     "x27", "x28", "x30", "v0", "v1", "v2", "v3", "v4", "v5",
                     "v6", "v7", "v8", "v9", "v10", "v11", "v12", "v13", "v14",
                     "v15", "v16", "v17", "v18", "v19", "v20", "v21", "v22",
                     "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30",
                     "v31", "memory", "cc");
#endif
}

// In yield_<arch>.S: resume the coroutine whose saved sp this is.
__attribute__((noreturn)) void cacs__coro_resume(void *sp);

// cacs__yield_pn (assembly) jumps here when S.slow is set: FP environments
// to switch, or ASan annotations to make. Default convention: it returns to
// the caller of cacs__yield_pn (cacs_yield's caller, or a waiting entry).
__attribute__((visibility("hidden"))) void cacs__yield_slow(cacs_coro *from,
                                                            cacs_coro *to);
void cacs__yield_slow(cacs_coro *from, cacs_coro *to) {
  S.current = to;
  if (S.fpenv_users != 0)
    fpenv_switch(from, to);
  unsafe_switch(from, to);
  scs_switch(from, to);
  split_switch(from, to);
  asan_start(from, to, 0);
  if (to->tsan_resume) { // right before the switch, as TSan asks
    from->tsan_resume = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(to->tsan_resume, 0);
  }
  coro_swap(from, to);
  asan_finish(from);
}

#if !CACS_HAS_PRESERVE_NONE
#error "libcacs must be built by a compiler with preserve_none (clang >= 19)"
#endif
// The preserve_none entries (coro.h binds calls of the public names to them,
// or to their _bp variants in yield_<arch>.S, which save rbx/x19 around
// them). cacs__yield_pn is assembly; the waiting ones are below.
CACS_PRESERVE_NONE void cacs__yield_pn(void);
CACS__PN_DEF void cacs__park_pn(void);
CACS__PN_DEF int cacs__park_timeout_pn(int64_t timeout_us);
CACS__PN_DEF int cacs__sleep_pn(int64_t usec);
CACS__PN_DEF int cacs__join_pn(cacs_coro *c);
// The switch the waiting entries make. Under ASan, which may realign their
// frames and keep a base pointer in rbx/x19 across it (coro.h takes the
// same view of ASan-instrumented callers), the entry that saves it.
#if CACS_ASAN
CACS_PRESERVE_NONE void cacs__yield_pn_bp(void);
#define switch_pn cacs__yield_pn_bp
#else
#define switch_pn cacs__yield_pn
#endif

// Default-convention entries under the public names (CACS__DEFAULT_ENTRY in
// sched.h; spelled out for the two without a result).
void(cacs_yield)(void) { cacs__yield_pn(); }
void(cacs_park)(void) { cacs__park_pn(); }
CACS__DEFAULT_ENTRY(int, park_timeout, cacs__park_timeout_pn, (int64_t t), (t))
CACS__DEFAULT_ENTRY(int, sleep, cacs__sleep_pn, (int64_t t), (t))
CACS__DEFAULT_ENTRY(int, join, cacs__join_pn, (cacs_coro * c), (c))

static void ring_unlink(cacs_coro *c) {
  c->prev->next = c->next;
  c->next->prev = c->prev;
  c->next = c->prev = c;
}

static void ring_insert_before(cacs_coro *at, cacs_coro *c) {
  c->next = at;
  c->prev = at->prev;
  at->prev->next = c;
  at->prev = c;
}

__attribute__((noreturn, cold)) static void deadlock(const cacs_coro *self) {
  char msg[160];
  int n = snprintf(msg, sizeof msg,
                   "cacs: deadlock: every coroutine of this thread is waiting "
                   "and no timer or I/O wait can wake one (in '%s')\n",
                   self->stack.owner);
  ssize_t r = write(2, msg, n > 0 && (size_t)n < sizeof msg ? (size_t)n : 0);
  (void)r;
  abort();
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
  c->state = CORO_DONE;
  if (c->joiner)
    cacs_wake(c->joiner);
  cacs_coro *to = c->next;
  if (to == c)
    deadlock(c);
  ring_unlink(c);
  if (c->detached) { // its stack is freed by the next reap_zombies()
    c->next = S.zombies;
    S.zombies = c;
    S.count--;
  }
  S.current = to;
  if (__builtin_expect(S.fpenv_users != 0, 0))
    fpenv_switch(c, to);
  if ((c->flags & CACS_CORO_SAVE_FPENV) && --S.fpenv_users == 0)
    S.slow = slow_always();
  unsafe_switch(NULL, to);
  scs_switch(NULL, to);
  split_switch(c, to);
  asan_start(c, to, 1);
  if (to->tsan_resume)
    __tsan_switch_to_fiber(to->tsan_resume, 0);
  cacs__coro_resume(to->sp);
}

void cacs__trampoline(void);

static void coro_main(void *arg, uint64_t first) {
  (void)first;
  cacs_coro *c = (cacs_coro *)arg;
  asan_finish(NULL);
  c->entry(c->arg);
  cacs_exit();
}

// A fresh coroutine looks suspended (coro_layout.h): frame pointer 0 (ends
// frame-pointer chains for gdb, perf, ASan), resume address the start
// trampoline, which finds {coro_main, c} right above, at a 16-byte aligned
// sp, as with cacs_context_init.
static void coro_init_stack(cacs_coro *c) {
  uintptr_t top = (uintptr_t)c->stack.top & ~(uintptr_t)15;
  void **sp = (void **)(top - 32);
  sp[0] = NULL;
  sp[1] = (void *)&cacs__trampoline;
  sp[2] = (void *)&coro_main;
  sp[3] = c;
  c->sp = (char *)sp + CACS_CORO_SP_TO_FRAME;
}

// Free the stacks of detached coroutines that have finished (not the
// running one's: a coroutine is a zombie only once it has switched away).
static void reap_zombies(void) {
  while (S.zombies) {
    cacs_coro *z = S.zombies;
    S.zombies = z->next;
    coro_free(z);
  }
}

// A coroutine ready to start, on no ring yet.
static cacs_coro *coro_new(cacs_entry_fn entry, void *arg,
                           const cacs_coro_attr *attr) {
  (void)current(); // the scheduler exists before any coroutine
  reap_zombies();
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
  if (tools_init(c, attr->stack_size ? attr->stack_size
                                     : CACS_STACK_DEFAULT_SIZE) != 0) {
    cacs_stack_free(&c->stack);
    return NULL;
  }
  c->entry = entry;
  c->arg = arg;
  c->flags = attr->flags;
  if (c->flags & CACS_CORO_SAVE_FPENV) { // start from the creator's settings
    fpenv_save(c->fpenv);
    S.fpenv_users++;
    S.slow = 1;
  }
  c->asan_lo = c->stack.lo;
  c->asan_size = (size_t)((char *)c->stack.top - (char *)c->stack.lo);
  coro_init_stack(c);
  c->next = c->prev = c;
  return c;
}

cacs_coro *cacs_create_ex(cacs_entry_fn entry, void *arg,
                          const cacs_coro_attr *attr) {
  static const cacs_coro_attr defaults = {0, 0, 0, NULL};
  cacs_coro *c = coro_new(entry, arg, attr ? attr : &defaults);
  if (!c)
    return NULL;
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

static void park_self(cacs_coro *self);

int cacs__join_pn(cacs_coro *c) {
  cacs_coro *self = current();
  if (!c || c == self || c == &S.main || c == S.service || c->detached)
    return -1;
  while (c->state != CORO_DONE) {
    c->joiner = self;
    park_self(self);
    self = S.current; // resumed: current again (no spill of `self`)
  }
  S.count--;
  coro_free(c);
  return 0;
}

int cacs_detach(cacs_coro *c) {
  if (!c || c == &S.main || c == S.service || c->detached || c->joiner)
    return -1;
  if (c->state == CORO_DONE) {
    S.count--;
    coro_free(c);
  } else {
    c->detached = 1;
  }
  return 0;
}

// --- Waiting ---------------------------------------------------------------
//
// A parked coroutine is off the ready ring; cacs_wake puts it back. Timers
// are a binary min-heap of parked coroutines keyed on their deadline. While
// a timer is armed or a coroutine waits in the I/O module, a service
// coroutine is on the ring: once per round it expires timers and polls the
// I/O module without blocking, and when it is the only ready coroutine it
// blocks (in the I/O module's poll, or in clock_nanosleep) until the next
// deadline. cacs_yield's fast path never looks at any of this.

// A thread that waited keeps a timer heap, a service coroutine, maybe a
// wake-up eventfd and the stacks of finished detached coroutines; they go
// when the thread exits (not at process exit: the
// main thread's stay reachable through its TLS).
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void sched_thread_exit(void *arg) {
  (void)arg;
  reap_zombies();
  free(S.timers);
  S.timers = NULL;
  S.ntimers = S.timers_cap = 0;
  if (S.service) {
    coro_free(S.service);
    S.service = NULL;
  }
  if (S.inbox.ready) {
    close(S.inbox.efd);
    pthread_mutex_destroy(&S.inbox.lock);
    S.inbox.ready = 0;
  }
}

static void inbox_after_fork(void);

static void exit_key_create(void) {
  if (pthread_key_create(&exit_key, sched_thread_exit) != 0 ||
      pthread_atfork(NULL, NULL, inbox_after_fork) != 0)
    abort();
}

static void sched_free_at_exit(void) {
  pthread_once(&exit_key_once, exit_key_create);
  pthread_setspecific(exit_key, &S); // any non-NULL value
}

static void heap_place(size_t i, cacs_coro *c) {
  S.timers[i] = c;
  c->timer_slot = i + 1;
}

static void heap_up(size_t i) {
  cacs_coro *c = S.timers[i];
  while (i > 0) {
    size_t parent = (i - 1) / 2;
    if (S.timers[parent]->deadline <= c->deadline)
      break;
    heap_place(i, S.timers[parent]);
    i = parent;
  }
  heap_place(i, c);
}

static void heap_down(size_t i) {
  cacs_coro *c = S.timers[i];
  for (;;) {
    size_t child = 2 * i + 1;
    if (child >= S.ntimers)
      break;
    if (child + 1 < S.ntimers &&
        S.timers[child + 1]->deadline < S.timers[child]->deadline)
      child++;
    if (c->deadline <= S.timers[child]->deadline)
      break;
    heap_place(i, S.timers[child]);
    i = child;
  }
  heap_place(i, c);
}

static int timer_arm(cacs_coro *c, uint64_t deadline) {
  if (S.ntimers == S.timers_cap) {
    size_t cap = S.timers_cap ? 2 * S.timers_cap : 64;
    cacs_coro **t = (cacs_coro **)realloc(S.timers, cap * sizeof *t);
    if (!t)
      return -1;
    S.timers = t;
    S.timers_cap = cap;
    sched_free_at_exit();
  }
  c->deadline = deadline;
  S.timers[S.ntimers++] = c;
  heap_up(S.ntimers - 1);
  return 0;
}

static void timer_disarm(cacs_coro *c) {
  size_t i = c->timer_slot - 1;
  c->timer_slot = 0;
  cacs_coro *last = S.timers[--S.ntimers];
  if (last == c)
    return;
  S.timers[i] = last;
  last->timer_slot = i + 1;
  if (i > 0 && S.timers[(i - 1) / 2]->deadline > last->deadline)
    heap_up(i);
  else
    heap_down(i);
}

static int service_needed(void) {
  return S.ntimers != 0 || S.io_waiters != 0 || S.remote_waiters != 0;
}

static void service_main(void *arg);

// Put the service coroutine on the ring (creating it the first time).
static int service_ensure(void) {
  if (!S.service) {
    static const cacs_coro_attr attr = {0, 0, 0, "cacs-service"};
    S.service = coro_new(service_main, NULL, &attr);
    if (!S.service)
      return -1;
    S.service->state = CORO_PARKED;
    sched_free_at_exit();
  }
  if (S.service->state == CORO_PARKED)
    cacs_wake(S.service);
  return 0;
}

static void expire_timers(uint64_t now) {
  while (S.ntimers != 0 && S.timers[0]->deadline <= now) {
    cacs_coro *c = S.timers[0];
    timer_disarm(c);
    c->wake_result = ETIMEDOUT;
    cacs_wake(c);
  }
}

// Microseconds until the earliest deadline, rounded up; -1: no timer.
static int64_t next_timeout_us(uint64_t now) {
  if (S.ntimers == 0)
    return -1;
  return cacs__us_until(S.timers[0]->deadline, now);
}

static void inbox_drain(void);
static void inbox_sleep(uint64_t now);

static void service_main(void *arg) {
  (void)arg;
  cacs_coro *self = S.service;
  for (;;) {
    uint64_t now = cacs__now_ns();
    expire_timers(now);
    inbox_drain();
    int alone = self->next == self;
    if (S.poll_hook && S.io_waiters != 0) {
      int64_t t = alone ? next_timeout_us(now) : 0;
      // A hook blind to the wake-up eventfd must come back to drain.
      if (S.remote_waiters != 0 && !S.hook_has_wake_fd && (t < 0 || t > 1000))
        t = 1000;
      S.poll_hook(t);
    } else if (alone && S.remote_waiters != 0) {
      inbox_sleep(now);
      continue;
    } else if (alone && S.ntimers != 0) {
      struct timespec ts = {(time_t)(S.timers[0]->deadline / 1000000000u),
                            (long)(S.timers[0]->deadline % 1000000000u)};
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
             EINTR) {
      }
      continue;
    }
    if (!service_needed()) {
      cacs_park(); // nothing to serve: off the ring until service_ensure
      continue;
    }
    if (self->next != self)
      cacs_yield();
  }
}

// Leave the ready ring and switch to the coroutine that followed `self` on
// it; returns once cacs_wake has put `self` back and it is resumed. The
// switch is cacs_yield's (switch_pn, cacs__yield_pn: preserve_none, it saves
// the frame pointer only, or takes cacs__yield_slow); it goes to
// current->next: unlinking leaves self->next pointing there (cacs_wake sets
// it again).
// Inlined into the preserve_none entries only, which save nothing for
// their callers: only what they keep across the switch is spilled.
static inline __attribute__((always_inline)) void park_self(cacs_coro *self) {
  if (S.zombies)
    reap_zombies();
  cacs_coro *to = self->next;
  if (to == self)
    deadlock(self);
  to->prev = self->prev;
  self->prev->next = to;
  self->state = CORO_PARKED;
  switch_pn();
}

void cacs__park_pn(void) { park_self(current()); }

void cacs_wake(cacs_coro *c) {
  if (!c || c->state != CORO_PARKED)
    return;
  if (c->timer_slot)
    timer_disarm(c);
  c->state = CORO_READY;
  // Just before the running coroutine: it runs after everything that is
  // ready now, so coroutines woken in a loop cannot starve the others.
  ring_insert_before(S.current, c);
}

int cacs__park_timeout_pn(int64_t timeout_us) {
  cacs_coro *self = current();
  if (timeout_us < 0) {
    park_self(self);
    return 0;
  }
  if (timeout_us == 0)
    return ETIMEDOUT;
  if (timer_arm(self, cacs__deadline_ns(cacs__now_ns(), timeout_us)) != 0 ||
      service_ensure() != 0) {
    if (self->timer_slot)
      timer_disarm(self);
    return ENOMEM;
  }
  self->wake_result = 0;
  park_self(self);
  return S.current->wake_result; // resumed: we are current again
}

int cacs__sleep_pn(int64_t usec) {
  if (usec <= 0) {
    switch_pn();
    return 0;
  }
  int r = cacs__park_timeout_pn(usec);
  if (r == ETIMEDOUT)
    return 0;
  errno = r == 0 ? EINTR : r;
  return -1;
}

void cacs__set_poll_hook(cacs__poll_fn fn) {
  (void)current();
  S.poll_hook = fn;
}

int cacs__io_wait_begin(void) {
  (void)current();
  S.io_waiters++;
  if (service_ensure() != 0) {
    S.io_waiters--;
    return -1;
  }
  return 0;
}

void cacs__io_wait_end(void) { S.io_waiters--; }

// --- Cross-thread wake-ups (sched.h) ---------------------------------------

static int inbox_setup(void) {
  struct cacs__inbox *in = &S.inbox;
  if (in->ready)
    return 0;
  in->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (in->efd < 0)
    return errno;
  pthread_mutex_init(&in->lock, NULL);
  sched_free_at_exit();
  in->ready = 1;
  return 0;
}

// fork(): the child (where only the forking thread lives on) must not share
// the parent's eventfd: a post in either process would wake both, and the
// one with nothing to drain would spin on the readable descriptor. The
// child gets its own (posts already queued stay queued) and a fresh lock
// (another thread may have held it at the fork); its I/O module, which
// makes a new epoll set in the child, asks for the descriptor again.
static void inbox_after_fork(void) {
  struct cacs__inbox *in = &S.inbox;
  if (!in->ready)
    return;
  close(in->efd);
  pthread_mutex_init(&in->lock, NULL);
  S.hook_has_wake_fd = 0;
  in->signalled = 0;
  in->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
  if (in->efd < 0) {
    static const char msg[] =
        "cacs: fork: no eventfd for the child's cross-thread wake-ups\n";
    ssize_t r = write(2, msg, sizeof msg - 1);
    (void)r;
    abort();
  }
  if (in->head) { // posted before the fork, not drained yet
    uint64_t one = 1;
    ssize_t r = write(in->efd, &one, sizeof one);
    (void)r;
    in->signalled = 1;
  }
}

int cacs__poll_wake_fd(void) {
  (void)current();
  if (inbox_setup() != 0)
    return -1;
  S.hook_has_wake_fd = 1;
  return S.inbox.efd;
}

static void inbox_unlink(struct cacs__inbox *in, cacs__xwait *x) {
  if (x->prev)
    x->prev->next = x->next;
  else
    in->head = x->next;
  if (x->next)
    x->next->prev = x->prev;
  else
    in->tail = x->prev;
  x->next = x->prev = NULL;
  x->queued = 0;
}

// Wake every coroutine posted to this thread. The eventfd is written and
// reset under the lock, so it is readable exactly while `signalled` is set:
// a write landing after the drain that consumed its post would leave it
// readable with nothing to drain, and every later poll would return at once.
static void inbox_drain(void) {
  struct cacs__inbox *in = &S.inbox;
  if (!in->ready || !__atomic_load_n(&in->pending, __ATOMIC_ACQUIRE))
    return;
  pthread_mutex_lock(&in->lock);
  __atomic_store_n(&in->pending, 0, __ATOMIC_RELAXED);
  if (in->signalled) {
    uint64_t v;
    ssize_t r = read(in->efd, &v, sizeof v);
    (void)r;
    in->signalled = 0;
  }
  cacs__xwait *x;
  while ((x = in->head)) {
    inbox_unlink(in, x);
    cacs_wake(x->coro);
  }
  pthread_mutex_unlock(&in->lock);
}

// Nothing else is ready: block until another thread posts or the next
// timer is due.
static void inbox_sleep(uint64_t now) {
  struct pollfd p = {S.inbox.efd, POLLIN, 0};
  struct timespec ts, *tp = NULL;
  if (S.ntimers != 0) {
    uint64_t d = S.timers[0]->deadline, left = d > now ? d - now : 0;
    ts.tv_sec = (time_t)(left / 1000000000u);
    ts.tv_nsec = (long)(left % 1000000000u);
    tp = &ts;
  }
  ppoll(&p, 1, tp, NULL); // EINTR: the caller's loop looks again
}

int cacs__xwait_begin(cacs__xwait *x) {
  cacs_coro *self = current();
  int e = inbox_setup();
  if (e)
    return e;
  x->next = x->prev = NULL;
  x->coro = self;
  x->inbox = &S.inbox;
  x->queued = 0;
  S.remote_waiters++;
  if (service_ensure() != 0) {
    S.remote_waiters--;
    return ENOMEM;
  }
  return 0;
}

void cacs__xwait_end(cacs__xwait *x) {
  S.remote_waiters--;
  // A post of `x` happened before our caller saw it served (sched.h), so
  // `queued` is stable here; the drain runs on this thread.
  if (x->queued) {
    pthread_mutex_lock(&S.inbox.lock);
    inbox_unlink(&S.inbox, x);
    pthread_mutex_unlock(&S.inbox.lock);
  }
}

void cacs__xwake(cacs__xwait *x) {
  struct cacs__inbox *in = x->inbox;
  if (in == &S.inbox) {
    cacs_wake(x->coro);
    return;
  }
  pthread_mutex_lock(&in->lock);
  if (!x->queued) {
    x->queued = 1;
    x->next = NULL;
    x->prev = in->tail;
    if (in->tail)
      in->tail->next = x;
    else
      in->head = x;
    in->tail = x;
  }
  __atomic_store_n(&in->pending, 1, __ATOMIC_RELEASE);
  if (!in->signalled) { // one write per batch
    uint64_t one = 1;
    ssize_t r = write(in->efd, &one, sizeof one);
    (void)r;
    in->signalled = 1;
  }
  pthread_mutex_unlock(&in->lock);
}

cacs_coro *cacs_self(void) { return current(); }
int cacs_is_main(const cacs_coro *c) { return c == &S.main; }
int cacs_done(const cacs_coro *c) { return c->state == CORO_DONE; }
uint64_t cacs_id(const cacs_coro *c) { return c->stack.owner_id; }
const char *cacs_name(const cacs_coro *c) { return c->stack.owner; }
void cacs_set_name(cacs_coro *c, const char *name) {
  cacs_stack_set_owner(&c->stack, name, c->stack.owner_id);
  if (c->tsan_fiber) // TSan's reports name the coroutine
    __tsan_set_fiber_name(c->tsan_fiber, c->stack.owner);
}
size_t cacs_count(void) { return S.count; }
