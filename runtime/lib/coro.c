//===- lib/coro.c - Symmetric coroutines, per-thread round robin ---------===//

#define _GNU_SOURCE 1
#include "cacs/coro.h"
#include "coro_layout.h"
#include "internal.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cacs_coro {
  void *sp;               // saved stack pointer while switched out (layout:
  cacs_coro *next, *prev; // coro_layout.h); ready ring, finished unlinked
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
  unsigned char slow;     // every yield through cacs__yield_slow (FP env, ASan)
  unsigned fpenv_users;   // coroutines with CACS_CORO_SAVE_FPENV alive
  cacs_coro *switch_from; // for ASan: who switched to the running coroutine
  uint64_t next_id;
  size_t count;
  uint32_t shared_fpenv[2];
  cacs_coro main;
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

static void sched_init(void) {
  S.main.next = S.main.prev = &S.main;
  S.slow = CACS_ASAN; // the ASan annotations live in the slow path
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

// --- switching --------------------------------------------------------------

// Suspend `from` in the layout the yield entries leave (coro_layout.h) and
// resume `to`.
// Used by the slow paths in C; returns when `from` is resumed, by either
// this function or the assembly. Every register is declared clobbered but
// the frame pointer (pushed) and sp; rbx/x19 too, which the compiler saves
// in the prologue of this (base-pointer-free) code.
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
                     "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18",
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
// the caller of cacs_yield.
__attribute__((visibility("hidden"))) void cacs__yield_slow(cacs_coro *from,
                                                            cacs_coro *to);
void cacs__yield_slow(cacs_coro *from, cacs_coro *to) {
  S.current = to;
  if (S.fpenv_users != 0)
    fpenv_switch(from, to);
  asan_start(from, to, 0);
  coro_swap(from, to);
  asan_finish(from);
}

#if CACS_HAS_PRESERVE_NONE
// Default-convention entry for callers compiled without preserve_none
// (gcc): the call below makes the compiler save every callee-saved register
// that cacs__yield_pn may clobber (rbx/x19 included).
CACS_PRESERVE_NONE void cacs__yield_pn(void);
void cacs__yield_default(void) __asm__("cacs_yield");
void cacs__yield_default(void) { cacs__yield_pn(); }
#else
#error "libcacs must be built by a compiler with preserve_none (clang >= 19)"
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
  if ((c->flags & CACS_CORO_SAVE_FPENV) && --S.fpenv_users == 0)
    S.slow = CACS_ASAN;
  asan_start(c, to, 1);
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
    S.slow = 1;
  }
  c->asan_lo = c->stack.lo;
  c->asan_size = (size_t)((char *)c->stack.top - (char *)c->stack.lo);
  coro_init_stack(c);
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
