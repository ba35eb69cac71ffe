//===- cacs/stack.h - Coroutine stacks --------------------------*- C -*-===//
//
// mmap'ed stacks with a PROT_NONE guard page below, a randomized start offset
// (spreads the hot top-of-stack lines of many identical coroutines over L1D
// sets), per-thread pooling with MADV_DONTNEED reclaim, valgrind stack
// registration, and a SIGSEGV handler (on a per-thread alternate signal
// stack) that reports an overflow into a guard page with the owner's name,
// then aborts.
//
// Thread model: a stack is allocated, used and freed on one thread; the pool
// and the overflow registry are thread-local.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_STACK_H
#define CACS_STACK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CACS_STACK_DEFAULT_SIZE ((size_t)64 * 1024)
#define CACS_STACK_SMALL_SIZE ((size_t)16 * 1024)

enum cacs_stack_flags {
  CACS_STACK_NOGUARD = 1u << 0,  ///< no guard page (saves a VMA; unsafe)
  CACS_STACK_NORANDOM = 1u << 1, ///< start exactly below the header
  CACS_STACK_NOPOOL = 1u << 2,   ///< munmap on free instead of pooling
};

/// Descriptor placed at the very top of the stack mapping. Owners put their
/// control block around it: cacs_stack_alloc(size, hdr, ...) returns a block
/// of `hdr` bytes (>= sizeof(cacs_stack)) that *starts* with this struct.
typedef struct cacs_stack {
  void *map;         ///< start of the mapping (guard page first)
  size_t map_size;   ///< whole mapping size
  void *lo;          ///< lowest usable address (just above the guard)
  void *top;         ///< initial stack pointer (16-byte aligned)
  unsigned flags;    ///< cacs_stack_flags
  unsigned vg_id;    ///< valgrind stack id
  uint64_t owner_id; ///< shown in the overflow message
  char owner[40];    ///< shown in the overflow message
  struct cacs_stack *reg_next, *reg_prev; ///< per-thread live-stack list
} cacs_stack;

/// Allocate a stack with at least `size` usable bytes (0: default) and a
/// control block of `hdr_size` bytes at its top; returns the block (its
/// first member is the cacs_stack) or NULL with errno set.
void *cacs_stack_alloc(size_t size, size_t hdr_size, unsigned flags);
/// Same, with the cacs_stack at byte `desc_off` of the control block (lets
/// the owner keep another member, e.g. its context, at offset 0).
void *cacs_stack_alloc_at(size_t size, size_t hdr_size, size_t desc_off,
                          unsigned flags);
/// Return the stack to the thread's pool (or unmap it). `s` is invalid after.
void cacs_stack_free(cacs_stack *s);
/// Set the name reported on overflow (truncated to 39 characters).
void cacs_stack_set_owner(cacs_stack *s, const char *name, uint64_t id);
/// Unmap every pooled stack of the calling thread.
void cacs_stack_pool_trim(void);
/// Number of stacks currently pooled on the calling thread.
size_t cacs_stack_pool_count(void);
/// Install the overflow reporter (done automatically by cacs_stack_alloc);
/// sets up an alternate signal stack for the calling thread if it has none.
void cacs_stack_install_overflow_handler(void);

/// What an owner of a stack (coroutine, generator) needs besides it under
/// SafeStack, the AArch64 shadow call stack or ThreadSanitizer; libcacs
/// fills it in as the program needs (all zero otherwise).
typedef struct cacs__tool_stacks {
  cacs_stack *unsafe; ///< SafeStack: unsafe stack, its `top` the first pointer
  void *scs_map;      ///< shadow call stack mapping, its base the first x18
  size_t scs_map_size;
  void *tsan_fiber; ///< ThreadSanitizer fiber
} cacs__tool_stacks;

/// AArch64 shadow call stack (-fsanitize=shadow-call-stack -ffixed-x18):
/// x18 points at a per-thread stack of return addresses that instrumented
/// functions push and pop. Coroutines and generators each need their own,
/// with x18 moved on every switch. A unit built with it tells libcacs so at
/// load time (below); from then on every coroutine and generator gets a
/// shadow call stack and every cacs_yield takes the slow path that moves
/// x18. The program itself points x18 at a buffer for each thread (on Linux
/// no runtime does), before the thread creates coroutines.
void cacs__scs_register(void);
#if defined(__aarch64__) && defined(__has_feature)
#if __has_feature(shadow_call_stack)
// Not instrumented: it may run before the program has set x18.
__attribute__((constructor, used, no_sanitize("shadow-call-stack"))) static void
cacs__scs_register_unit(void) {
  cacs__scs_register();
}
#endif
#endif

#ifdef __cplusplus
} // extern "C"
#endif

#endif // CACS_STACK_H
