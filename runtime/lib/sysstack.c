//===- lib/sysstack.c - Calls on the system stack (cacs/sysstack.h) -------===//
//
// cacs_on_system_stack finds where the thread's own stack is free, opens a
// sync block named by the call (syncblock.c: every switch of libcacs then
// aborts naming it), and calls through sysstack_<arch>.S, which moves the
// stack pointer there and back and describes the move to unwinders.
//
// Where the system stack is free: below the saved stack pointer of the
// context that left it. In a coroutine of the thread's scheduler, that is
// the main context (S.main.sp, core.h); in a pool coroutine, the worker
// loop (cacs__pool_system_sp, pool_worker.c). Below that pointer lie x86-64's red
// zone, which holds the saved rbp (coro_layout.h): SYS_GAP skips it. The
// thread's stack bounds (pthread_getattr_np, learned once per thread, on
// the system stack when the scheduler is set up) tell whether the caller
// is on that stack already (then the call is plain) and check that the
// saved pointer is on it: a generator resumed from the thread's stack has
// left it at a point nothing records, and a call there aborts.
//
// libcacs's waits use the same move for their own rare, deep calls (the
// service coroutine's creation, the timer heap's growth), which their
// stack budget leaves out (cacs__deep_call).
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE
#include "cacs/sysstack.h"
#include "cacs/switch.h" // cacs_context (S.pool_home)
#include "core.h"
#include "stack_internal.h"
#include "syncblock.h"

#include <pthread.h>
#include <stdint.h>

// Below the saved stack pointer: x86-64's 128-byte red zone (the saved rbp
// is in it) and a margin (coro_layout.h).
#define SYS_GAP CACS_SYSTEM_STACK_GAP
_Static_assert(SYS_GAP >= 128 + CACS_CORO_SP_TO_FRAME + 16,
               "the red zone and the saved frame pointer (coro_layout.h)");

struct sys_bounds {
  char *lo, *hi; // the thread's stack; lo == hi: not known
  int learned;
};
static CACS_TLS struct sys_bounds sys_bounds;

void cacs__sysstack_learn(void) {
  struct sys_bounds *b = &sys_bounds;
  if (b->learned)
    return;
  b->learned = 1;
  pthread_attr_t a;
  void *addr;
  size_t size;
  if (pthread_getattr_np(pthread_self(), &a) != 0)
    return;
  if (pthread_attr_getstack(&a, &addr, &size) == 0) {
    b->lo = addr;
    b->hi = (char *)addr + size;
  }
  pthread_attr_destroy(&a);
}

static inline int on_system(const char *p) {
  return p >= sys_bounds.lo && p < sys_bounds.hi;
}

static inline char *stack_pointer(void) {
  char *sp;
#if defined(__x86_64__)
  __asm__("movq %%rsp, %0" : "=r"(sp));
#else
  __asm__("mov %0, sp" : "=r"(sp));
#endif
  return sp;
}

int cacs_on_system_stack_now(void) {
  if (__builtin_expect(!sys_bounds.learned, 0))
    cacs__sysstack_learn();
  return on_system(stack_pointer());
}

// In sysstack_<arch>.S: fn(arg) with the stack pointer at `sp`.
CACS_HIDDEN void cacs__sysstack_call(void (*fn)(void *), void *arg, void *sp);

// ASan: a call on the system stack is a switch of stacks, announced like
// a coroutine's (switch_tools.h), there and back. Its calls share a fake
// stack of their own, kept per thread while none runs.
static CACS_TLS void *sys_fake;

struct asan_call {
  void (*fn)(void *);
  void *arg;
  void *fake;         // the coroutine's fake stack while away
  const void *co_lo;  // the coroutine's stack, as ASan saw it
  size_t co_size;
};

static void asan_run(void *p) {
  struct asan_call *c = p;
  __sanitizer_finish_switch_fiber(sys_fake, &c->co_lo, &c->co_size);
  c->fn(c->arg);
  __sanitizer_start_switch_fiber(&sys_fake, c->co_lo, c->co_size);
}

__attribute__((noinline)) static void call_asan(void (*fn)(void *), void *arg,
                                                void *sp) {
  struct asan_call c = {fn, arg, NULL, NULL, 0};
  __sanitizer_start_switch_fiber(&c.fake, sys_bounds.lo,
                                 (size_t)(sys_bounds.hi - sys_bounds.lo));
  cacs__sysstack_call(asan_run, &c, sp);
  __sanitizer_finish_switch_fiber(c.fake, NULL, NULL);
}

__attribute__((noinline, cold, noreturn)) static void
no_system_stack(const char *what) {
  cacs__fatalf("cacs: %s: the thread's system stack cannot be found (a "
               "generator or effect coroutine resumed from it, or a context "
               "of cacs/switch.h, runs instead)\n",
               what);
}

// Where the system stack is free, 16-byte aligned, or NULL where it
// cannot be found (the caller is not on it).
// `deep`: for cacs__deep_call, which is off the system stack (checked
// first), so in a pool worker it runs in a coroutine the loop switched to
// from its home context (S.pool_home): read
// without the call to pool_worker.c, which would make cacs__deep_call keep
// its arguments in a frame across it.
static inline char *free_system_sp(int deep) {
  char *saved = NULL;
  if (S.in_pool && deep)
    saved = S.pool_home ? (char *)S.pool_home->sp : NULL;
  else if (S.in_pool)
    saved = cacs__pool_system_sp ? cacs__pool_system_sp() : NULL;
  else if (S.current != &cacs__idle && S.current != &S.main)
    saved = S.main.sp;
  if (!saved || !on_system(saved - SYS_GAP) || !on_system(saved - 1))
    return NULL;
  return (char *)(((uintptr_t)saved - SYS_GAP) & ~(uintptr_t)15);
}

// Where the call goes: NULL for a plain call (already there).
static inline char *system_sp(const char *what) {
  if (__builtin_expect(!sys_bounds.learned, 0))
    cacs__sysstack_learn();
  if (on_system(stack_pointer()))
    return NULL;
  char *sp = free_system_sp(0);
  if (!sp)
    no_system_stack(what);
  return sp;
}

void cacs_on_system_stack(void (*fn)(void *), void *arg, const char *what) {
  char *sp = system_sp(what);
  struct cacs__sync_saved save;
  cacs__sync_enter(&save, NULL, 0, what);
  // Memcheck, seeing the stack pointer jump, marks nothing below it:
  // without this, the call's first push there is an invalid write.
  if (sp && __builtin_expect(cacs__on_valgrind(), 0))
    VALGRIND_MAKE_MEM_UNDEFINED(sp - 4096, 4096);
  if (!sp)
    fn(arg);
  else if (cacs__asan_on())
    call_asan(fn, arg, sp);
  else
    cacs__sysstack_call(fn, arg, sp);
  cacs__sync_leave(&save);
}

// Under Valgrind: the move, after telling Memcheck of the area (its
// request block, 48 bytes, is a local: here, not in cacs__deep_call's
// frame, which every wait's deep call pays).
__attribute__((noinline, cold)) static void
deep_call_valgrind(void (*fn)(void *), void *arg, char *sp) {
  VALGRIND_MAKE_MEM_UNDEFINED(sp - 4096, 4096);
  cacs__sysstack_call(fn, arg, sp);
}

// Wherever the system stack is found, so that what a wait runs on the
// coroutine's stack is the same on every kind of stack (the budget is
// measured on guarded ones); a plain call where it is not (the bounds not
// learned yet, a generator's own context) or under ASan, which would have
// to be told of the move (exact stacks are off under it). Each way out is
// a tail call, so that what a waiting call's budget pays for its rare deep
// calls is this function's return address and the move's saved frame
// pointer (sysstack_<arch>.S): 16 bytes on x86-64. Nothing is kept across
// a call here: the pool's saved stack pointer is read inline.
void cacs__deep_call(void (*fn)(void *), void *arg) {
  char *sp = NULL;
  if (sys_bounds.learned && !cacs__asan_on() && !on_system(stack_pointer()))
    sp = free_system_sp(1);
  if (!sp) {
    fn(arg);
    return;
  }
  if (__builtin_expect(cacs__on_valgrind(), 0)) {
    deep_call_valgrind(fn, arg, sp);
    return;
  }
  cacs__sysstack_call(fn, arg, sp);
}
