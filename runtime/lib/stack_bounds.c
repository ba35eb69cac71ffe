//===- lib/stack_bounds.c - The program's proven stack bounds -------------===//
//
// A program linked with -fcacs-stack-bounds carries a table of the
// coroutine entries whose stack use the link proved: section
// cacs_stack_bounds, entries { entry, bytes } (docs/flags.md, "Stack
// bounds"). This file finds it through the linker's __start_/__stop_
// symbols, weak, so that a program without a table links and has none;
// sorts it once (the first lookup, pthread_once), and answers by binary
// search: a few compares per coroutine creation.
//
// Whether libcacs uses the table is decided here, once per process:
//
//  - By default it does, when the table exists: the link flag is the
//    program's request, and a second one at every creation site would
//    leave the table unused where nobody edits the calls. One coroutine
//    opts out with CACS_STACK_NOBOUND (stack.h), the process with
//    CACS_STACK_BOUNDS=0 in the environment (read once).
//  - Signal handlers must run on the alternate signal stack (SA_ONSTACK):
//    an exact stack has no room for a signal frame (the kernel's alone is
//    up to a few KiB with AVX-512 or SVE state) nor for the handler's own
//    calls, which no link sees, so a margin would be a guess where the
//    bound is a proof. libcacs gives every thread that creates coroutines
//    an alternate stack of 64 KiB (stack_overflow.c); its own SIGSEGV
//    handler is installed with SA_ONSTACK. At the first lookup every
//    signal's disposition is read: one handler without SA_ONSTACK, and the
//    process uses no exact stacks (every coroutine keeps a guarded one).
//    A handler installed later without SA_ONSTACK is the program's bug,
//    which docs/runtime.md states as the rule.
//
// Tools: coro.c gives no exact stack while a tool changes what runs on the
// stack (ASan, TSan, SafeStack, the shadow call stack, split stacks:
// tools_always()); the link proves no bounds under a sanitizer anyway.
// Valgrind runs the program's own code on the same stack; exact stacks are
// registered with it like any other.
//
//===----------------------------------------------------------------------===//

#define _GNU_SOURCE 1
#include "stack_exact.h"
#include "stack_internal.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

typedef struct bound_entry {
  const void *entry;
  uint64_t bytes;
} bound_entry;

// Defined by the linker when the program has the section, else 0 (weak).
// Hidden: the table is the one of the module libcacs is linked into.
extern const bound_entry __start_cacs_stack_bounds[]
    __attribute__((weak, visibility("hidden")));
extern const bound_entry __stop_cacs_stack_bounds[]
    __attribute__((weak, visibility("hidden")));

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const bound_entry *table; // sorted by entry; NULL: none used
static size_t table_n;
// init has run (release after it, acquire before the table): a lookup, at
// every coroutine's creation, then makes no call into pthread_once.
static int ready;
int cacs__stack_bounds_none;

static int by_entry(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const bound_entry *)a)->entry;
  uintptr_t y = (uintptr_t)((const bound_entry *)b)->entry;
  return x < y ? -1 : x > y;
}

// Whether every signal with a handler has it run on the alternate stack.
static int handlers_on_altstack(void) {
  for (int sig = 1; sig < NSIG; ++sig) {
    struct sigaction sa;
    if (sigaction(sig, NULL, &sa) != 0) // glibc's own, SIGKILL, ...
      continue;
    if (sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN)
      continue;
    if (!(sa.sa_flags & SA_ONSTACK))
      return 0;
  }
  return 1;
}

static void init(void) {
  const char *e = getenv("CACS_STACK_BOUNDS");
  if (e && !strcmp(e, "0"))
    return;
  const bound_entry *b = __start_cacs_stack_bounds;
  const bound_entry *end = __stop_cacs_stack_bounds;
  if (!b || !end || end <= b)
    return;
  // libcacs's own SIGSEGV handler first, so that the check sees it.
  cacs__stack_thread_init();
  if (!handlers_on_altstack())
    return;
  size_t n = (size_t)(end - b);
  // The front door writes the table in address order; a table that is
  // not (another linker's layout) is sorted in a copy, kept for good.
  for (size_t i = 1; i < n; ++i)
    if (by_entry(&b[i - 1], &b[i]) > 0) {
      bound_entry *copy = malloc(n * sizeof *copy);
      if (!copy)
        return; // no exact stacks: guarded ones are always right
      memcpy(copy, b, n * sizeof *copy);
      qsort(copy, n, sizeof *copy, by_entry);
      b = copy;
      break;
    }
  table = b;
  table_n = n;
}

int cacs__stack_bound(const void *entry, uint64_t *bytes) {
  if (__builtin_expect(!__atomic_load_n(&ready, __ATOMIC_ACQUIRE), 0)) {
    pthread_once(&once, init);
    __atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
    if (!table_n)
      __atomic_store_n(&cacs__stack_bounds_none, 1, __ATOMIC_RELAXED);
  }
  size_t lo = 0, hi = table_n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if ((uintptr_t)table[mid].entry < (uintptr_t)entry) {
      lo = mid + 1;
    } else if (table[mid].entry == entry) {
      *bytes = table[mid].bytes;
      return 1;
    } else {
      hi = mid;
    }
  }
  return 0;
}
