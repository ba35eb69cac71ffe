//===- StackBound.h - What the stack bound of an entry needs ----*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// -fcacs-stack-bounds (issue 34): the compile records, for the link, which
// functions may be coroutine entries and which functions the IR already
// shows cannot be bounded; the front door computes each entry's bound from
// the linked machine code (cacs-stack-bounds.cpp). Both sections are
// module-level assembly, not loaded with the program, and hold link-time
// addresses the linker fills in, as it does for .stack_sizes.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_STACKBOUND_H
#define CACS_STACKBOUND_H

#include "cacs/detail/contract.h"

#include "llvm/IR/PassManager.h"

namespace cacs {

/// One 8-byte address per function whose address the translation unit
/// takes: every such function may be passed to cacs_create and friends.
inline constexpr const char *StackBoundEntriesSection =
    ".cacs.stack_bound_entries";

/// Records of a function that the IR shows has no bound: its 8-byte
/// address, then one StackBoundBreak byte.
inline constexpr const char *StackBoundBreaksSection =
    ".cacs.stack_bound_breaks";

/// Records of a function whose whole bound its declaration gives
/// (StackBudgetAnnotation): its 8-byte address, then the 8-byte bound.
inline constexpr const char *StackBoundBudgetsSection =
    ".cacs.stack_bound_budgets";

/// The prefix of the annotation that gives a function's stack budget, the
/// decimal number of bytes following it (cacs/detail/contract.h).
inline constexpr const char *StackBudgetAnnotation =
    CACS_CONTRACT_STACK_BUDGET_ANNOTATION;

/// The name -Rpass= and -Rpass-missed= choose the link's remarks by.
inline constexpr const char *StackBoundRemarkName = "cacs-stack-bound";

enum class StackBoundBreak : unsigned char {
  /// A dynamic alloca (a VLA, alloca() of a size not known at compile
  /// time), stacksave/stackrestore, or AddressSanitizer's dynamic frame.
  DynamicStack = 1,
  /// Inline assembly, which may move the stack pointer unseen.
  InlineAsm = 2,
};

/// Records StackBoundEntriesSection and StackBoundBreaksSection in an ELF
/// object for x86-64 or AArch64; nothing elsewhere.
class StackBoundRecordPass : public llvm::PassInfoMixin<StackBoundRecordPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace cacs

#endif // CACS_STACKBOUND_H
