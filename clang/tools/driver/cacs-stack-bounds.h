//===- cacs-stack-bounds.h - Stack bounds of coroutine entries --*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The link's half of -fcacs-stack-bounds (issue 34): from a linked ELF
// program, the most stack each recorded entry (StackBound.h) can use, or
// the function and the reason that leave it without a bound.
// cacs-stack-bounds.cpp says what the bound assumes.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DRIVER_STACKBOUNDS_H
#define CACS_DRIVER_STACKBOUNDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cacs {

/// One entry of the program: its name and link-time address, and either its
/// bound in bytes or why it has none (a sentence naming the function that
/// breaks it).
struct StackBound {
  std::string Name;
  uint64_t Address = 0;
  std::optional<uint64_t> Bytes;
  std::string Why;
};

/// The bounds of the entries \p Path records, in the order of their
/// addresses. Sets \p Error (and returns nothing) where \p Path cannot be
/// read as an x86-64 or AArch64 ELF program.
std::vector<StackBound> computeStackBounds(llvm::StringRef Path,
                                           std::string &Error);
/// The same of a program in memory (the fuzz target fuzz/stack-bounds.cpp
/// gives it bytes).
std::vector<StackBound> computeStackBounds(llvm::MemoryBufferRef Program,
                                           std::string &Error);

/// The assembly of the table libcacs reads: one { entry, bytes } pair per
/// bounded entry in the allocatable, retained section cacs_stack_bounds.
/// Each entry is addressed from __ehdr_start, the first byte of the
/// program's image, by its link-time offset: static functions have no name
/// another object can use. The link that takes the table must lay out the
/// code the same way (verified by computing the bounds again).
std::string stackBoundsTableAsm(const std::vector<StackBound> &Bounds,
                                uint64_t ImageBase);

/// The link-time address of __ehdr_start in \p Path, if it has one.
std::optional<uint64_t> imageBase(llvm::StringRef Path);
std::optional<uint64_t> imageBase(llvm::MemoryBufferRef Program);

/// What a link with -fcacs-stack-bounds must know of its command.
struct StackBoundsLink {
  llvm::StringRef Prog, Driver;
  llvm::StringRef Output; ///< The program the link writes ("" for a.out).
  llvm::StringRef Target; ///< --target, or "" for the default.
  /// The regular expressions of -Rpass= and -Rpass-missed= (the last of
  /// each), which choose the remarks on bounds and missing bounds.
  std::string Pass, Missed;
  /// Why the link cannot prove bounds (-flto, a sanitizer), or "".
  std::string NoBounds;
};

/// Runs the link (\p Link, given the arguments after the driver's own,
/// which are \p Args), then proves the bounds of the linked program's
/// entries, prints the remarks that were asked for, and links again with
/// the table of the bounds proven. The program keeps no table where the
/// second link lays out its code otherwise. Returns the exit status.
int linkWithStackBounds(
    const StackBoundsLink &L, llvm::ArrayRef<llvm::StringRef> Args,
    llvm::function_ref<int(llvm::ArrayRef<llvm::StringRef>)> Link);

} // namespace cacs

#endif // CACS_DRIVER_STACKBOUNDS_H
