//===- SwitchSiteJump.h - A resume jump at each yield site ------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Under -fswitch-site-jumps (x86-64), each call of cacs_yield's entry in a
// loop becomes `call cacs__yield_pn_site; notrack jmpq *%rdx`: the coroutine
// resumed is entered through a jump at the site that yields, predicted from
// that site's history, instead of the one jump inside the entry that every
// site shares (lib/Transforms/SwitchSiteJump.cpp says how and why).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SWITCHSITEJUMP_H
#define CACS_SWITCHSITEJUMP_H

#include "cacs/detail/contract.h"

#include "llvm/IR/PassManager.h"

namespace cacs {

/// The entry whose calls become sites: cacs_yield's (cacs/coro.h binds it).
/// The `_bp` entry (callers whose compiler may keep rbx live) and the
/// `_none` one (the empty register mask) keep their calls.
inline constexpr const char *YieldEntryName =
    CACS_CONTRACT_ENTRY_PREFIX "yield" CACS_CONTRACT_ENTRY_SUFFIX;

/// The function attribute that records, in the IR, that a function was
/// compiled with -fswitch-site-jumps: the full-LTO link lowers only the
/// calls inside functions carrying it.
inline constexpr const char *SwitchSiteJumpEnabledAttr =
    "cacs-switch-site-jumps";

class SwitchSiteJumpPass : public llvm::PassInfoMixin<SwitchSiteJumpPass> {
public:
  enum class Phase {
    /// Per translation unit: record the setting on every definition, and
    /// lower, unless the unit is an LTO compile step (the link lowers then,
    /// after its own walks have seen the calls).
    PerTU,
    /// An LTO compile step the pipeline names (LLVM 20 and later): record
    /// the setting only.
    PreLink,
    /// Full-LTO link: lower in the functions that carry the attribute.
    LTOLink,
  };

  explicit SwitchSiteJumpPass(Phase P = Phase::PerTU) : P(P) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Phase P;
};

} // namespace cacs

#endif // CACS_SWITCHSITEJUMP_H
