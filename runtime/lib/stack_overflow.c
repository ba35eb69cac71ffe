//===- lib/stack_overflow.c - Naming the coroutine whose stack overflowed ===//
//
// A coroutine that runs off the end of its stack hits the guard page below
// it (stack.c) and gets SIGSEGV; without a handler that is all the program
// would say. The handler here finds the stack in the thread's registry of
// live stacks (or asks the pool, for a stack another worker allocated),
// names its coroutine, and aborts; any other fault goes to the handler
// installed before. It runs on a stack of its own (the faulting one is
// full) and writes with write(2) only: async-signal-safe throughout.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "cacs/stack.h"
#include "internal.h"
#include "stack_internal.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// The overflow handler's own stack, per thread.
#define ALTSTACK_SIZE (64 * 1024)

static struct sigaction old_segv;

void cacs__overflow_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sa.sa_sigaction = cacs__segv_handler;
  sigaction(SIGSEGV, &sa, &old_segv);
}

void cacs__overflow_thread_init(void) {
  // The overflow handler needs a stack of its own: the faulting one is full.
  stack_t cur;
  if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
    size_t sz = ALTSTACK_SIZE;
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

void cacs__overflow_thread_exit(void) {
  if (T.altstack) {
    stack_t ss = {.ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0};
    sigaltstack(&ss, NULL);
    munmap(T.altstack, ALTSTACK_SIZE);
    T.altstack = NULL;
  }
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

// `who`'s name as cacs_name gives it (a coroutine given none: "coro#<id>",
// which coro_info.c makes up only when asked; an effect coroutine's:
// "effect#<id>"); "?" if empty.
static size_t put_owner(char *buf, size_t at, const cacs_stack *who) {
  const char *name = cacs__stack_owner(who);
  if (!name) {
    at = put(buf, at,
             (who->flags & CACS__STACK_EFFECT) ? "effect#" : "coro#");
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
    if ((s->flags & CACS_SHARED_EXEC) && ((cacs__shstack *)s)->resident)
      who = ((cacs__shstack *)s)->resident;
    if ((s->flags & CACS_SHARED_EXEC) && ((cacs__shstack *)s)->vacated &&
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
