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
// The common case, a coroutine of the thread's scheduler without ASan, is
// a hot path of about 25 instructions before and after the move: the
// bounds' copy in sys_bounds.fast (zero where a rare condition holds, so
// that one range check also tests those), the main context's pointer,
// the block's name and depth (syncblock_open.h). Everything else goes
// through the general path, which finds the pointer as above.
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
#include "syncblock_open.h"

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
  // What the hot path of cacs_on_system_stack reads, three words where no
  // rare condition sends every call to the general path: the thread's
  // stack from `lo`, `size` bytes, and how far its free end, the main
  // context's saved pointer less SYS_GAP, may lie above `lo` (< `span`).
  // All 0 (no call takes the hot path) until the bounds are learned, under
  // ASan (the call announces the move) and on a pool worker (its system
  // stack is the worker loop's).
  struct {
    uintptr_t lo, size, span;
  } fast;
};
// Local-exec, as the scheduler's state: each field is one %fs-relative
// operand on x86-64.
static CACS_TLS_LE struct sys_bounds sys_bounds;

void cacs__sysstack_learn(void) {
  struct sys_bounds *b = &sys_bounds;
  if (!b->learned) {
    b->learned = 1;
    pthread_attr_t a;
    void *addr;
    size_t size;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
      if (pthread_attr_getstack(&a, &addr, &size) == 0) {
        b->lo = addr;
        b->hi = (char *)addr + size;
      }
      pthread_attr_destroy(&a);
    }
  }
  // Called again as a pool worker starts (sched.c): after S.in_pool.
  size_t size = (size_t)(b->hi - b->lo);
  if (!cacs__asan_on() && !S.in_pool && size > SYS_GAP) {
    b->fast.lo = (uintptr_t)b->lo;
    b->fast.size = size;
    b->fast.span = size - SYS_GAP + 1;
  } else {
    b->fast.lo = b->fast.size = b->fast.span = 0;
  }
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

// The call on the system stack in progress on this thread (its `what`;
// NULL: none). A context resumed inside it that runs off the system stack
// (a generator, an effect coroutine) and asks for the system stack again
// would be sent where the outer call's frames are (below the main
// context's or the worker's saved stack pointer): how deep those go, no
// one here can tell, so it aborts instead (nested_system_stack).
// Local-exec as sys_bounds: the hot path sets and clears it with one
// %fs-relative store each.
static CACS_TLS_LE const char *sys_busy;

__attribute__((noinline, cold, noreturn)) static void
nested_system_stack(const char *what) {
  const char *outer = sys_busy;
  sys_busy = NULL; // the report's own deep calls
  cacs__fatalf("cacs: %s: called off the system stack inside %s, from a "
               "generator or effect coroutine resumed there: the outer "
               "call's frames hold the system stack (resume it outside "
               "the call, or make the call there)\n",
               what ? what : "a wait's deep call", outer);
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
  if (sys_busy)
    nested_system_stack(what);
  char *sp = free_system_sp(0);
  if (!sp)
    no_system_stack(what);
  return sp;
}

// Memcheck, seeing the stack pointer jump, marks nothing below it: without
// this, the call's first push at `sp` is an invalid write.
__attribute__((noinline, cold)) static void valgrind_mark(char *sp) {
  VALGRIND_MAKE_MEM_UNDEFINED(sp - 4096, 4096);
}

// fn(arg) at `sp` by `move` (cacs__sysstack_call, or call_asan, which
// tells ASan), inside the sync block `what` names, marked as the thread's
// call in progress (sys_busy).
static inline __attribute__((always_inline)) void
moved_call(void (*move)(void (*)(void *), void *, void *),
           void (*fn)(void *), void *arg, char *sp, const char *what) {
  const char *prev = cacs__sync_open(what);
  sys_busy = what;
  move(fn, arg, sp);
  sys_busy = NULL;
  cacs__sync_close(prev);
}

// fn(arg) at `sp`, the plain move.
static inline void call_at(void (*fn)(void *), void *arg, char *sp,
                           const char *what) {
  moved_call(cacs__sysstack_call, fn, arg, sp, what);
}

// Under Valgrind, or before it was asked: out of the hot path, whose frame
// then keeps nothing across a call but the sync block's enclosing name.
__attribute__((noinline, cold)) static void
call_at_valgrind(void (*fn)(void *), void *arg, char *sp, const char *what) {
  if (cacs__on_valgrind())
    valgrind_mark(sp);
  call_at(fn, arg, sp, what);
}

// Every case but the hot path's: already on the system stack (a plain
// call), a pool coroutine, ASan, the bounds not learned yet, no system
// stack to find (the abort).
__attribute__((noinline)) static void
on_system_stack_general(void (*fn)(void *), void *arg, const char *what) {
  char *sp = system_sp(what);
  if (!sp) {
    const char *prev = cacs__sync_open(what);
    fn(arg);
    cacs__sync_close(prev);
  } else if (cacs__asan_on()) {
    moved_call(call_asan, fn, arg, sp, what);
  } else {
    call_at_valgrind(fn, arg, sp, what);
  }
}

// The hot path: a coroutine of the thread's scheduler, on its stack or a
// generator's, moves below the main context's saved stack pointer (as
// free_system_sp finds, which the general path calls): three words of
// sys_bounds.fast, two of the scheduler's state and a byte for Valgrind,
// no call before the move, no test for ASan (fast is 0 under it).
void cacs_on_system_stack(void (*fn)(void *), void *arg, const char *what) {
  const struct sys_bounds *b = &sys_bounds;
  uintptr_t saved = (uintptr_t)S.main.sp - SYS_GAP;
  if (__builtin_expect((uintptr_t)stack_pointer() - b->fast.lo <
                               b->fast.size || // on it: a plain call
                           saved - b->fast.lo >= b->fast.span ||
                           S.current == &S.main || // main.sp is stale
                           sys_busy, // nested_system_stack's abort
                       0)) {
    on_system_stack_general(fn, arg, what);
    return;
  }
  char *sp = (char *)(saved & ~(uintptr_t)15);
  if (__builtin_expect(cacs__maybe_valgrind(), 0)) {
    call_at_valgrind(fn, arg, sp, what);
    return;
  }
  call_at(fn, arg, sp, what);
}

// Under Valgrind: the move, after telling Memcheck of the area (out of
// cacs__deep_call, which then keeps nothing across a call).
__attribute__((noinline, cold)) static void
deep_call_valgrind(void (*fn)(void *), void *arg, char *sp) {
  valgrind_mark(sp);
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
  if (sys_bounds.learned && !cacs__asan_on() && !on_system(stack_pointer())) {
    if (__builtin_expect(sys_busy != NULL, 0))
      nested_system_stack(NULL);
    sp = free_system_sp(1);
  }
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
