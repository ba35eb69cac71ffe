/*===- cacs/detail/contract.h - What the compiler and libcacs agree on ----===*
 *
 * Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
 *
 *===----------------------------------------------------------------------===*
 *
 * The names that the cacs compiler (front door and passes) and libcacs's
 * headers must spell alike, in the one place both include: libcacs's headers
 * as "cacs/detail/contract.h", the compiler (whose own headers live under
 * cacs-compiler/) from runtime/include. A plain C header of string literals,
 * usable from C, C++ and the compiler's C++ alike. Change a value here and
 * both sides follow; nothing else may spell these strings.
 *
 *===----------------------------------------------------------------------===*/
#ifndef CACS_DETAIL_CONTRACT_H
#define CACS_DETAIL_CONTRACT_H

/* Macros the front door defines in every compile it runs (with -D, so that
 * -E output, which compiler caches and distcc compile, has them too). The
 * runtime headers test them by name (#if defined(__CACS__)); the preprocessor
 * cannot take a name from a string, so these strings are what the front door
 * defines and the names the headers test must match them:
 *  - __CACS__: compiled by cacs, whose passes shield what a preserve_none
 *    call may clobber (the base pointer) and give in-stack yields their
 *    frames;
 *  - __CACS_PRESERVE_NONE_CALLEE_SAVED_NONE__: -fpreserve-none-callee-saved=
 *    none is in effect (not under ThinLTO), so cacs_yield() may bind to the
 *    entry that saves nothing. */
#define CACS_CONTRACT_MACRO_CACS "__CACS__"
#define CACS_CONTRACT_MACRO_CALLEE_SAVED_NONE                                  \
  "__CACS_PRESERVE_NONE_CALLEE_SAVED_NONE__"

/* The annotation (__attribute__((annotate(...)))) on a declaration of code
 * that saves no register, the base pointer included (libcacs's
 * cacs__yield_pn_none). The callee-saved pass gives such declarations the
 * empty register mask. */
#define CACS_CONTRACT_SAVES_NOTHING_ANNOTATION "cacs.no_callee_saved_registers"

/* The annotation on a declaration of a libcacs preserve_none entry that a
 * sync block (cacs/syncblock.h) allows: inside a block it runs no other
 * coroutine of the scheduler. The I/O waits of cacs/io.h make the blocking
 * system call there instead of parking; an effect resume runs a nested
 * coroutine that comes back to its caller (what that coroutine does is
 * checked at run time). libcacs's run-time checks and the sync-block check
 * (SyncBlockCheck) both follow it: the runtime lets exactly these entries
 * through a block, the check does not count them as switches. */
#define CACS_CONTRACT_SYNC_BLOCK_ALLOWS_ANNOTATION "cacs.sync_block_allows"

/* The names of libcacs's preserve_none entries: a call cacs_<name>(...)
 * binds to the entry CACS_CONTRACT_ENTRY_PREFIX "<name>" followed by one of
 * the suffixes (cacs/detail/bind.h); the compiler's diagnostics name such an
 * entry by the call the user wrote, cacs_<name>. */
#define CACS_CONTRACT_ENTRY_PREFIX "cacs__"
#define CACS_CONTRACT_ENTRY_SUFFIX "_pn"
#define CACS_CONTRACT_ENTRY_SUFFIX_BP "_pn_bp"
#define CACS_CONTRACT_ENTRY_SUFFIX_NONE "_pn_none"

/* The first line of the inline assembly of a marked in-stack yield (x86-64,
 * compiled by cacs): the InstackYield pass matches it character for character
 * and removes it. Assembled as it is (the pass did not run), it stops the
 * build with its message instead of producing a misaligned frame. */
#define CACS_CONTRACT_INSTACK_YIELD_MARKER                                     \
  ".error \"cacs: this in-stack yield needs the cacs pass plugin\"\n\t"

/* The first line of the assembly that keeps an in-stack generator's consumer
 * frame marker under SafeStack: the InstackYield pass removes it and keeps
 * the marker's allocation on the real stack. */
#define CACS_CONTRACT_INSTACK_CONSUMER_MARKER                                  \
  ".error \"cacs: an in-stack generator under SafeStack needs the cacs pass "  \
  "plugin\"\n\t"

#endif /* CACS_DETAIL_CONTRACT_H */
