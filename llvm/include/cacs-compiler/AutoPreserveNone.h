//===- AutoPreserveNone.h - AutoPreserveNone pass ---------------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Automatic preserve_none propagation (APN, -fauto-preserve-none): a function
// that calls a preserve_none function is itself given preserve_nonecc, with
// every call site of it, when no caller outside the module can see it; the
// change propagates over a worklist until nothing changes.
//
// The eligibility rules are listed in lib/Transforms/AutoPreserveNone.cpp.
// The pass is named "auto-preserve-none" in remarks and statistics:
// -Rpass=auto-preserve-none lists the functions it infected,
// -Rpass-missed=auto-preserve-none the callers it left alone, and why.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_AUTOPRESERVENONE_H
#define CACS_AUTOPRESERVENONE_H

#include "llvm/IR/PassManager.h"

namespace cacs {

/// The function attribute that records, in the IR, that a function was
/// compiled with -fauto-preserve-none. The full-LTO link-time run infects only
/// functions carrying it, so per-TU on/off settings are honoured.
inline constexpr const char *APNEnabledAttr = "cacs-auto-preserve-none";

class AutoPreserveNonePass
    : public llvm::PassInfoMixin<AutoPreserveNonePass> {
public:
  enum class Phase {
    /// Per translation unit (and the LTO pre-link compile): record the
    /// setting on every definition, then infect eligible functions.
    PerTU,
    /// Full-LTO link: infect only functions that carry APNEnabledAttr.
    LTOLink,
  };

  explicit AutoPreserveNonePass(Phase P = Phase::PerTU) : P(P) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Phase P;
};

} // namespace cacs

#endif // CACS_AUTOPRESERVENONE_H
