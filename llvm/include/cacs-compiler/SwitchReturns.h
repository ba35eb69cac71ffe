//===- SwitchReturns.h - Returns that follow a switch -----------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// After a coroutine switch the return stack buffer holds the other
// coroutine's calls, so every `ret` of a frame that was live at the switch
// mispredicts. On x86-64 this pass makes the functions that can reach a
// switch (walkSwitchCallers, SwitchCallers.h) return through an indirect
// jump, which the branch target predictor learns from history; the others
// keep `ret` (lib/Transforms/SwitchReturns.cpp says how and why).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SWITCHRETURNS_H
#define CACS_SWITCHRETURNS_H

#include "llvm/IR/PassManager.h"

namespace cacs {

/// The function attribute that records, in the IR, that a function was
/// compiled with -fswitch-returns (the default): the full-LTO link marks
/// only functions carrying it.
inline constexpr const char *SwitchReturnsEnabledAttr = "cacs-switch-returns";

/// The return thunk LLVM's x86 backend jumps to from a function carrying
/// `fn_ret_thunk_extern` (-mfunction-return=thunk-extern). The name is fixed
/// in the backend (X86ReturnThunks.cpp).
inline constexpr const char *ReturnThunkName = "__x86_return_thunk";

class SwitchReturnsPass : public llvm::PassInfoMixin<SwitchReturnsPass> {
public:
  enum class Phase {
    /// Per translation unit (and the LTO pre-link compile): record the
    /// setting on every definition, then mark.
    PerTU,
    /// Full-LTO link: mark only functions that carry SwitchReturnsEnabledAttr.
    LTOLink,
  };

  explicit SwitchReturnsPass(Phase P = Phase::PerTU) : P(P) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Phase P;
};

} // namespace cacs

#endif // CACS_SWITCHRETURNS_H
