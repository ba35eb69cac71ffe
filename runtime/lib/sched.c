//===- lib/sched.c - Per-thread scheduler state, the slow switch ----------===//
//
// Every thread has its own scheduler (cacs__sched, thread-local), set up on
// first use, its original stack the main coroutine. This file owns that
// state: its setup and teardown at thread exit, the slow path of the switch
// (cacs__yield_slow, which the assembly of yield_<arch>.S takes when there
// is more to switch than the stack pointer) and the deadlock report.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "cacs/switch.h"
#include "core.h"
#include "switch_tools.h"

#include <stdlib.h>
#include <unistd.h>

#if defined(__x86_64__)
#include "coro_swap_x86_64.h"
#elif defined(__aarch64__)
#include "coro_swap_aarch64.h"
#endif
#include "shared_stack.h"

#include <stdint.h>

cacs_coro cacs__idle = {.next = &cacs__idle, .prev = &cacs__idle};

// The assembly (yield_<arch>.S) addresses these fields through
// coro_layout.h; keep the two in step.
_Static_assert(offsetof(cacs_coro, sp) == CACS_CORO_SP, "coro_layout.h");
_Static_assert(offsetof(cacs_coro, next) == CACS_CORO_NEXT, "coro_layout.h");
_Static_assert(offsetof(cacs_coro, entry) == CACS_CORO_ENTRY, "coro_layout.h");
_Static_assert(offsetof(cacs_coro, arg) == CACS_CORO_ARG, "coro_layout.h");
// cold(): a coroutine's side block follows its control block.
_Static_assert(offsetof(sched, main_cold) ==
                   offsetof(sched, main) + sizeof(cacs_coro),
               "main's side block must follow it");
_Static_assert(offsetof(sched, current) == CACS_SCHED_CURRENT,
               "coro_layout.h");
_Static_assert(offsetof(sched, slow) == CACS_SCHED_SLOW, "coro_layout.h");
_Static_assert(offsetof(sched, offstack) == CACS_SCHED_OFFSTACK,
               "coro_layout.h");
_Static_assert(offsetof(sched, switcher_top) == CACS_SCHED_SWITCHER,
               "coro_layout.h");
_Static_assert(offsetof(sched, pool_home) == CACS_SCHED_POOL_HOME,
               "coro_layout.h");
_Static_assert(offsetof(cacs_context, sp) == 0, "trampoline_<arch>.S");

// `slow` starts set: until cacs__sched_init, every yield takes the slow
// branch of yield_<arch>.S, which returns at once for a coroutine alone on
// its ring, so that the fast path needs no such test and never writes the
// shared cacs__idle (cacs__sched_init sets `slow` from what the thread has).
CACS_TLS_LE sched cacs__sched = {.current = &cacs__idle, .slow = 1};

void cacs__sched_init(void) {
  S.main.next = S.main.prev = &S.main;
  S.main.has_cold = 1; // S.main_cold, right after it (asserted above)
  S.unsafe_sp_slot = cacs__unsafe_sp_slot();
  if (cacs__tsan_on())
    S.main_cold.tsan_fiber = S.main_cold.tsan_resume =
        __tsan_get_current_fiber();
  switch_mode_update();
  cacs_stack_set_owner(&S.main.stack, "main", 0);
  cacs__sysstack_learn();
  S.current = &S.main;
}

// Coroutines without CACS_CORO_SAVE_FPENV share the thread's environment;
// when one with a private environment runs, the shared one is parked in S.
// Out of line: only programs with such coroutines call it.
__attribute__((noinline)) void cacs__fpenv_switch(cacs_coro *from,
                                                  cacs_coro *to) {
  if (!((from->flags | to->flags) & CACS_CORO_SAVE_FPENV))
    return; // both use the shared environment
  fpenv_save((from->flags & CACS_CORO_SAVE_FPENV) ? cold(from)->fpenv
                                                  : S.shared_fpenv);
  fpenv_load((to->flags & CACS_CORO_SAVE_FPENV) ? cold(to)->fpenv
                                              : S.shared_fpenv);
}

// cacs__yield_pn (assembly) jumps here when S.slow is set: FP environments
// to switch, or ASan annotations to make. Default convention: it returns to
// the caller of cacs__yield_pn (cacs_yield's caller, or a waiting entry).
__attribute__((visibility("hidden"))) void cacs__yield_slow(cacs_coro *from,
                                                            cacs_coro *to);
void cacs__yield_slow(cacs_coro *from, cacs_coro *to) {
  S.current = to;
  if (S.fpenv_users != 0)
    cacs__fpenv_switch(from, to);
  unsafe_switch(from, to);
  scs_switch(from, to);
  split_switch(from, to);
  asan_start(from, to, 0);
  if (cacs__tsan_on() && cold(to)->tsan_resume) { // right before the switch
    cold(from)->tsan_resume = __tsan_get_current_fiber(); // as TSan asks
    __tsan_switch_to_fiber(cold(to)->tsan_resume, 0);
  }
  // Shared stacks: through the switcher stack when `to`'s frames must be
  // copied back first (shared_stack.h). The only change to the switch.
  if (__builtin_expect(S.shared_users != 0, 0) &&
      cacs__shared_via_switcher(&from->stack, &to->stack))
    cacs__shared_enter(from, to);
  else
    coro_swap(from, to);
  asan_finish(from);
}

// --- shared stacks (shared_stack.h) -------------------------------------------

// The slow switch while S.offstack is set (shared-stack coroutines, no
// tools): the assembly has suspended `from` exactly as the fast path does
// (coro_layout.h) and called this on the switcher stack, so the copy of a
// shared-stack coroutine holds its own frames only, not this function's
// nor a red-zone gap. `to` is resumed as the fast path resumes it, which
// also fits a coroutine suspended by coro_swap (same layout).
__attribute__((noreturn, visibility("hidden"))) void
cacs__yield_offstack(cacs_coro *from, cacs_coro *to);
void cacs__yield_offstack(cacs_coro *from, cacs_coro *to) {
  S.current = to;
  if (S.fpenv_users != 0)
    cacs__fpenv_switch(from, to);
  cacs__shared_xfer(&from->stack, &from->sp, &to->stack, &to->sp);
  cacs__coro_resume(to->sp);
}

// The switch cacs__shared_enter is making: read on the switcher stack.
static CACS_TLS cacs_coro *shared_from, *shared_to;

// Not instrumented: ASan does not know the switcher stack, and would warn
// at the noreturn call of a function instrumented (__asan_handle_no_return).
__attribute__((no_sanitize("address"))) static void
switcher_main(void *arg, uint64_t first) {
  (void)arg, (void)first;
  cacs_coro *from = shared_from, *to = shared_to;
  cacs__shared_xfer(from ? &from->stack : NULL, from ? &from->sp : NULL,
                    &to->stack, &to->sp);
  cacs__coro_resume(to->sp);
}

void cacs__shared_enter(cacs_coro *from, cacs_coro *to) {
  shared_from = from;
  shared_to = to;
  // A fresh context at the top of the switcher stack, laid out as a fresh
  // coroutine's (coro.c): what it did last time is over.
  void **sp = (void **)((uintptr_t)cacs__shared_switcher() - 32);
  sp[0] = NULL;
  sp[1] = (void *)&cacs__trampoline;
  sp[2] = (void *)&switcher_main;
  sp[3] = NULL;
  void *ctx = (char *)sp + CACS_CORO_SP_TO_FRAME; // a context is its sp
  if (from)
    coro_swap(from, (cacs_coro *)&ctx);
  else
    cacs__coro_resume(ctx);
}

// The default-convention entry under the public name (the waiting calls'
// are in wait.c and join.c).
// On x86-64 it is in yield_x86_64.S (it resumes its caller by a jump).
#if !defined(__x86_64__)
void(cacs_yield)(void) { cacs__yield_pn(); }
#endif

void cacs__deadlock(const cacs_coro *self) {
  cacs__fatalf("cacs: deadlock: every coroutine of this thread is waiting "
               "and no timer or I/O wait can wake one (in '%s')\n",
               cacs_name(self));
}

void cacs__bad_handle(const char *call, const void *c) {
  cacs__fatalf("cacs: %s(%p): not a coroutine of this thread that can still "
               "be joined or detached: it was joined already, or detached "
               "and has finished, or another thread created it (a coroutine "
               "is joined by a coroutine of the thread that created it; to "
               "join across threads, run it in the pool and use "
               "cacs_pool_join)\n",
               call, c);
}

// On the worker's own stack: cacs__fatalf is variadic, and its va_list
// (176 bytes of register saves on x86-64) would lie on the coroutine's
// stack, past the park budget a contended cacs_mutex_lock has used most
// of by then (test/pool/pool-misuse-stack.c).
static void pool_misuse_write(void *call) {
  cacs__fatalf("cacs: %s called from a pool coroutine (cacs/pool.h): the "
               "single-thread scheduler's waits would block the worker or "
               "need coroutines of its own; use cacs_pool_join, "
               "cacs_pool_sleep, cacs_pool_yield and the pool's "
               "synchronization\n",
               (const char *)call);
}

void cacs__pool_misuse(const char *call) {
  cacs__deep_call(pool_misuse_write, (void *)call);
  __builtin_unreachable();
}

// Called by each pool worker thread as it starts (lib/pool/pool_worker.c).
CACS_HIDDEN void cacs__sched_enter_pool(cacs_context *home);
void cacs__sched_enter_pool(cacs_context *home) {
  S.in_pool = 1;
  S.pool_home = home;
  cacs__sysstack_learn();
}

// A thread that waited or created a coroutine keeps a timer heap, a service
// coroutine, a set of live handles, maybe a wake-up eventfd and the stacks
// of finished detached coroutines; they go
// when the thread exits (not at process exit: the
// main thread's stay reachable through its TLS).
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

static void sched_thread_exit(void *arg) {
  (void)arg;
  cacs__reap_zombies();
  free(S.timers);
  S.timers = NULL;
  S.ntimers = S.timers_cap = 0;
  if (S.service) {
    cacs__coro_free(S.service);
    S.service = NULL;
  }
  cacs__live_free();
  cacs__coro_pad_free();
  cacs__block_thread_exit();
  if (S.inbox.ready) {
    close(S.inbox.efd);
    pthread_mutex_destroy(&S.inbox.lock);
    S.inbox.ready = 0;
  }
}

static void exit_key_create(void) {
  cacs__key_create(&exit_key, sched_thread_exit, "the scheduler's thread exit");
  if (pthread_atfork(NULL, NULL, cacs__inbox_after_fork) != 0)
    cacs__fatalf("cacs: pthread_atfork: out of memory\n");
}

void cacs__sched_free_at_exit(void) {
  pthread_once(&exit_key_once, exit_key_create);
  pthread_setspecific(exit_key, &S); // any non-NULL value
}
