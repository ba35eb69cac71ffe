//===- lib/stack_internal.h - What the stack files share --------*- C -*-===//
//
// The coroutine stacks (cacs/stack.h) are five files, one concept each:
// stack.c allocates them (guards, slabs, colour, reclaim) and owns the
// per-thread and per-process state below; stack_shared.c the shared (copy)
// stacks and the names of their coroutines; stack_overflow.c the SIGSEGV
// handler that names the coroutine whose guard page was hit; stack_tools.c
// the stacks that tools need beside a coroutine's own (SafeStack, the
// shadow call stack, TSan fibers, -fsplit-stack); stack_exact.c the
// unguarded stacks of a proven size (stack_exact.h). This header is what
// they share (stack_bounds.c reads it too) and nothing else includes. None of it is on the switch's fast path
// (sched.c and yield_<arch>.S never call in here but on the slow one).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_LIB_STACK_INTERNAL_H
#define CACS_LIB_STACK_INTERNAL_H

#include "cacs/stack.h"
#include "internal.h"
#include "valgrind_requests.h"

#include <stddef.h>
#include <stdint.h>


struct size_class;
struct shared_name;
struct exact_class;
typedef struct cacs__shstack cacs__shstack;

// A thread's stacks. Per thread so that allocation takes no lock; a stack
// freed on another thread goes back to its owner (the pool's concern,
// pool_stack.c).
typedef struct stack_thread {
  struct size_class *classes;    // slabs by slot size (stack.c)
  struct exact_class *exact;     // exact stacks' slabs (stack_exact.c)
  cacs_stack *exit_stack;        // where their coroutines end (the same)
  cacs__shstack *shared;         // shared execution stacks (debug ones too)
  cacs_stack *switcher;          // where shared stacks are copied (first use)
  size_t shared_saved;           // sum of their coroutines' save_len
  struct shared_name *last_name; // the name given last (stack_shared.c)
  cacs_stack *live;              // registry searched by the SIGSEGV handler
  uint64_t rng;
  size_t color; // the next control block's colour, in cache lines
  void *altstack; // the SIGSEGV handler's (stack_overflow.c)
  int registered; // thread-exit destructor armed
  int exited;     // thread_exit ran: stacks freed later take their slab along
} stack_thread;

extern CACS_HIDDEN CACS_TLS stack_thread cacs__stack_thread;
#define T cacs__stack_thread

// Set once per process (stack.c, global_init), read-only after.
extern CACS_HIDDEN size_t cacs__page_size;
#define page_size cacs__page_size
extern CACS_HIDDEN int cacs__shared_debug; // CACS_SHARED_STACK_DEBUG=1

/// The process's and the calling thread's setup (both once): the
/// environment's choices, the thread-exit destructor, the overflow handler
/// and its alternate signal stack.
CACS_HIDDEN void cacs__stack_thread_init(void);

static inline size_t cacs__round_up(size_t v, size_t a) {
  return (v + a - 1) & ~(a - 1);
}

// --- shared stacks (stack_shared.c) ------------------------------------------

// Marks the descriptor of a shared execution stack (not a public flag).
#define CACS_SHARED_EXEC (1u << 31)

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

/// cacs_stack_alloc_at and cacs_stack_free for CACS_STACK_SHARED.
CACS_HIDDEN void *cacs__shared_alloc(size_t size, size_t hdr_size,
                                     size_t desc_off, unsigned flags);
CACS_HIDDEN void cacs__shared_free(cacs_stack *s);
/// At thread exit: free the shared stacks nobody uses any more, and the
/// switcher if none is left.
CACS_HIDDEN void cacs__shared_thread_exit(void);

// --- overflow reporting (stack_overflow.c) -----------------------------------

/// Once per process: install cacs__segv_handler, keeping the one it
/// replaces for the faults that are not ours.
CACS_HIDDEN void cacs__overflow_install(void);
/// Per thread: the handler's alternate stack (the faulting one is full),
/// unless the thread has one; and its removal at thread exit.
CACS_HIDDEN void cacs__overflow_thread_init(void);
CACS_HIDDEN void cacs__overflow_thread_exit(void);

#endif // CACS_LIB_STACK_INTERNAL_H
