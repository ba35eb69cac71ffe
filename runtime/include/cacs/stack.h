//===- cacs/stack.h - Coroutine stacks --------------------------*- C -*-===//
//
// Stacks with a guard page below, a randomized start offset (spreads the hot
// top-of-stack lines of many identical coroutines over L1D sets), valgrind
// stack registration, and a SIGSEGV handler (on a per-thread alternate
// signal stack) that reports an overflow into a guard page with the owner's
// name, then aborts.
//
// Stacks of one size are slots of large per-thread mappings (slabs), reused
// across coroutines. A freed stack goes to the thread's cache (per size)
// with its pages, and the next allocation takes it back at no system call;
// past the cache's bound (cacs_stack_set_cache, which the cache raises
// while the thread keeps needing back the stacks it gave, up to a limit
// beyond which it takes the need for a burst), freed stacks
// give their pages back as cacs_stack_set_reclaim says, many in one call
// where the kernel can (process_madvise, Linux >= 6.15). The guard page is
// a guard region (MADV_GUARD_INSTALL, Linux >= 6.13), which leaves the
// slab one mapping, so the number of guarded stacks is bounded by memory
// alone;
// fresh stacks get their guards and have their top pages written ahead in
// batches (two calls for up to 64 stacks where the kernel can, instead of a
// call and a page fault each). Older kernels
// (and qemu-user) get the fallback: a PROT_NONE page, which splits the slab,
// two mappings per stack, allowed up to (vm.max_map_count - 4096) / 2 guarded
// stacks per process; past that, allocation fails with ENOMEM and a message
// on stderr naming vm.max_map_count (never a crash). Unguarded stacks
// (CACS_STACK_NOGUARD) and shared stacks never split a mapping.
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
  CACS_STACK_NOPOOL = 1u << 2,   ///< own mapping, munmap on free
  /// Run on the thread's shared execution stack of this size instead of a
  /// stack of its own (coroutines only; see "Shared stacks" below).
  CACS_STACK_SHARED = 1u << 3,
  /// A guarded stack of the size asked even if the entry has a proven
  /// bound (coroutines only; cacs_stack_exact in coro.h).
  CACS_STACK_NOBOUND = 1u << 4,
  /// Take the coroutine's stack at cacs_create, never at its first run, so
  /// that a failure to get one is reported there (coroutines only; see
  /// cacs_create in coro.h).
  CACS_STACK_EAGER = 1u << 5,
};

/// How guard pages are made (cacs_stack_guard_kind).
enum cacs_stack_guard_kind {
  CACS_STACK_GUARD_MADVISE = 1,  ///< MADV_GUARD_INSTALL: no mapping per guard
  CACS_STACK_GUARD_MPROTECT = 2, ///< fallback: two mappings per guard
};

/// What happens to the pages of a freed stack beyond the cache.
enum cacs_stack_reclaim {
  CACS_STACK_RECLAIM_NONE = 0,     ///< keep them (fastest reuse)
  CACS_STACK_RECLAIM_FREE = 1,     ///< MADV_FREE: the kernel takes them lazily
  CACS_STACK_RECLAIM_DONTNEED = 2, ///< MADV_DONTNEED at once (the default)
};

/// Descriptor placed at the very top of the stack mapping. Owners put their
/// control block around it: cacs_stack_alloc(size, hdr, ...) returns a block
/// of `hdr` bytes (>= sizeof(cacs_stack)) that *starts* with this struct.
///
/// A CACS_STACK_SHARED coroutine's descriptor (millions are held at once)
/// has only the members up to `owner_ref`: it has no stack to register or
/// bound (its shared stack, `pool`, has), and its name is kept apart, so
/// the block it ends may stop there (CACS_STACK_SHARED_DESC_SIZE bytes).
typedef struct cacs_stack {
  unsigned flags; ///< cacs_stack_flags
  // The members in unions below are the ones of a stack of its own (left)
  // and of a CACS_STACK_SHARED coroutine's descriptor (right).
  __extension__ union {
    unsigned vg_id;    ///< valgrind stack id
    uint32_t save_cap; ///< CACS_STACK_SHARED: bytes allocated at `save`
                       ///< (0: `save` is a fresh one's shared image)
  };
  uint64_t owner_id; ///< shown in the overflow message
  __extension__ union {
    struct cacs_stack *reg_next; ///< per-thread live-stack list
    void *save; ///< CACS_STACK_SHARED: its frames while switched out
  };
  __extension__ union {
    struct cacs_stack *reg_prev;
    size_t save_len; ///< CACS_STACK_SHARED: bytes in `save`
  };
  void *pool; ///< the slab it is a slot of; NULL: own mapping (NOPOOL);
              ///< CACS_STACK_SHARED: the shared stack it runs on
  void *map;  ///< start of the mapping (guard page first);
              ///< CACS_STACK_SHARED: the block, freed with it
  __extension__ union {
    __extension__ struct {
      size_t map_size; ///< whole mapping size
      void *lo;        ///< lowest usable address (just above the guard)
      void *top;       ///< initial stack pointer (16-byte aligned)
      char owner[40];  ///< shown in the overflow message
    };
    /// CACS_STACK_SHARED: its name (NULL: none given), one copy for all the
    /// thread's coroutines created in a row with the same name; the
    /// descriptor ends here.
    const char *owner_ref;
  };
} cacs_stack;

/// Bytes of a CACS_STACK_SHARED coroutine's descriptor (see above).
#define CACS_STACK_SHARED_DESC_SIZE                                          \
  (offsetof(cacs_stack, owner_ref) + sizeof(const char *))

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
/// Give back the pages of the calling thread's cached stacks and unmap its
/// slabs that hold no stack in use.
void cacs_stack_pool_trim(void);
/// Number of freed stacks of the calling thread waiting for reuse (cached
/// ones included).
size_t cacs_stack_pool_count(void);
/// CACS_STACK_GUARD_MADVISE when the kernel's guard regions work, else
/// CACS_STACK_GUARD_MPROTECT; the environment variable
/// CACS_STACK_GUARD=mprotect forces the fallback (read once, at first use).
int cacs_stack_guard_kind(void);
/// Set what happens to the pages of a freed stack that the cache does not
/// keep (process-wide): `mode` a cacs_stack_reclaim, applied to all but the
/// top `keep_bytes` (rounded up to pages; the default, 0, keeps none: the
/// stacks reused soon are the cache's). The environment variable
/// CACS_STACK_RECLAIM=none|free|dontneed sets the mode at start. 0, or -1
/// for an unknown mode.
int cacs_stack_set_reclaim(int mode, size_t keep_bytes);
/// Set how many freed stacks of each size a thread keeps with their pages
/// for reuse at least (process-wide; default 128, CACS_STACK_CACHE=N at
/// start; 0: none, and none learned). While fewer coroutines than that are
/// alive, creating, running and joining them makes no system call. A full
/// cache gives the pages of 32 stacks back at once (cacs_stack_set_reclaim),
/// so after a burst between bound - 31 and bound stacks keep theirs.
/// The cache learns a higher bound from its misses, up to
/// cacs_stack_set_cache_limit's: each allocation that finds it empty after
/// it gave stacks back raises the bound by one, so a create/join cycle of
/// more coroutines than the bound (and fewer than the limit) makes system
/// calls in its first two rounds only. The bound drops back at the end of
/// each epoch (twice as many allocations of that size as the bound) by the
/// stacks that stayed in the cache all through it, which give their pages
/// back then; stacks given back before an epoch without a miss no longer
/// raise it, so a one-time burst leaves the bound and RSS where they were.
/// A burst repeated before such an epoch ends raises the bound until it
/// reaches the limit: a burst larger than the limit then makes the cache
/// forget what it learned, and its stacks give their pages back as it
/// drains, so RSS after it returns to where it was before; one within the
/// limit is taken as the new steady state, and its stacks keep their pages
/// until epochs of fewer allocations give them back (a thread that then
/// stays idle keeps them: cacs_stack_pool_trim releases them).
/// cacs_stack_pool_trim empties the cache and forgets what it learned.
/// Returns 0.
int cacs_stack_set_cache(size_t stacks);
/// Set the most stacks of each size a thread's cache learns to keep
/// (process-wide; default 16,384, CACS_STACK_CACHE_LIMIT=N at start; a
/// bound set by cacs_stack_set_cache above it is kept, and nothing is
/// learned). A thread that needs more at once than the limit is taken to
/// run a burst, not a steady state: its cache and its table of live
/// coroutines forget what they learned and give the burst's memory back as
/// it ends, and create/join rounds of more coroutines than the limit make
/// system calls in every round (give back and fault in a page or more per
/// stack). Raise it for such rounds; the cost is the memory of that many
/// stacks kept after a burst of up to that many repeated. Returns 0.
int cacs_stack_set_cache_limit(size_t stacks);
/// Install the overflow reporter (done automatically by cacs_stack_alloc);
/// sets up an alternate signal stack for the calling thread if it has none.
void cacs_stack_install_overflow_handler(void);

// --- Shared stacks ------------------------------------------------------------
//
// A coroutine created with CACS_STACK_SHARED has no stack of its own: it runs
// on its thread's shared execution stack of that size (one per size, made
// on first use, guarded like any stack; below 4 GiB, or creation fails with
// ENOMEM), and only its control block and a saved copy of the part of the
// stack it used live with it. When another
// coroutine of the same shared stack is resumed, the resident one's used
// part (from its saved stack pointer to the top) is copied to a private
// buffer, and the resumed one's copy is put back, at the same addresses; a
// coroutine resumed while still resident copies nothing. The copying runs
// on a small per-thread switcher stack.
//
// The rule: a pointer to a local of a shared-stack coroutine is valid only
// while that coroutine runs or is resident. It must not escape a switch:
// stored where another coroutine can use it while the owner is switched out
// (a list of waiters, a channel message, a global), it points into whatever
// coroutine's frames occupy the shared stack then. Pass such data in heap
// memory instead. (Pointers kept in the coroutine's own frames are fine:
// they are restored with them.) Generators' stacks are their own, so a
// generator resumed from a shared-stack coroutine is unaffected; if the
// generator's body switches the coroutine out, its whole shared stack is
// saved.
//
// What works on a shared stack: cacs_yield and every switch of the
// scheduler, cacs_park, cacs_park_timeout, cacs_sleep, cacs_join, the waits
// of cacs/sync.h and cacs/io.h, generators, ASan, valgrind, both
// architectures. The waits keep their records (and a channel item in
// flight, copied in and out) in the heap while the waiter is on a shared
// stack, since other coroutines write them while it is copied out: one
// allocation per wait that blocks, except that a thread keeps one freed
// record of a cacs/sync.h wait (up to 1 KiB) for its next one, so a steady
// round of such waits allocates nothing. What may not live on a shared stack is
// what the rule names: data another coroutine or thread reads or writes
// while its owner is switched out, such as a record the program itself
// queues for a waker, or a buffer it lends to another coroutine.
//
// A shared-stack coroutine's saved copy is its own frames only: with no
// tool that needs the C slow switch (ASan, TSan, SafeStack, shadow call
// stack, split stacks), the switch suspends it exactly as the fast path
// does and runs the copying on the switcher stack. Its control block is
// the runtime's smallest, 120 bytes (the tools' fields are kept beside it
// only when a tool is on; its name is one copy for the coroutines created
// in a row with it). The buffer of its saved copy grows (realloc) to the
// largest copy it has needed and is kept until the coroutine finishes; a
// coroutine that never ran has none (its first frames are one static
// image for all).
//
// Debug mode (CACS_SHARED_STACK_DEBUG=1 in the environment, read once):
// every shared-stack coroutine gets an execution stack of its own that is
// copied out and made inaccessible (PROT_NONE) at every switch-out, and
// made accessible and copied back at switch-in; an access through an
// escaped pointer while its owner is switched out faults, and the SIGSEGV
// handler names the coroutine ("cacs: access to a local of coroutine ...
// while it is switched out"). The copy costs and separate stacks make it a
// debugging aid, not a way to run.
//
// Under ASan the copied range is unpoisoned (ASan's stack poisoning does not
// travel with the copy); valgrind is told of each copy.

/// The thread's shared execution stack of `size` usable bytes (0: the
/// default), made on first use; NULL with errno set. For tests and tools.
cacs_stack *cacs_stack_shared(size_t size);
/// Bytes of stack the calling thread's shared-stack coroutines have saved
/// (the resident ones have none saved): what they cost beyond their
/// control blocks, less the buffers' rounding.
size_t cacs_stack_shared_saved(void);

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
