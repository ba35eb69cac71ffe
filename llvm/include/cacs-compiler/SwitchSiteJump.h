//===- SwitchSiteJump.h - Switches entered by a jump ------------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Under -fswitch-site-jumps (x86-64), each call of cacs_yield's,
// cacs_effect_perform's or cacs_effect_resume's entry becomes a
// jump-entered switch: `leaq 1f(%rip), %r11; movq %r11, -8(%rsp); jmpq
// *<entry>_jmp@GOTPCREL(%rip); 1:`, the same switch without the call that it
// never returns to (lib/Transforms/SwitchSiteJump.cpp says how and why).
// Calls of functions that return by the switch returns are entered by
// `leaq 1f(%rip), %r11; pushq %r11; jmp <callee>; 1:` (calls by jump;
// -mllvm -cacs-calls-by-jump=false keeps them).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SWITCHSITEJUMP_H
#define CACS_SWITCHSITEJUMP_H

#include "cacs/detail/contract.h"

#include "llvm/IR/PassManager.h"

namespace cacs {

/// An entry whose calls are lowered, and the jump entry they jump to.
struct JumpEnteredEntry {
  const char *Entry;
  const char *Jump;
  /// Does the jump entry need a call's 16-byte alignment at the site (its
  /// slow paths run C on the site's stack as they find it)? The yield's
  /// realigns on its slow branch itself (yield_x86_64.S), so its sites
  /// leave the frame as it is: a function that calls nothing else needs no
  /// push and pop around its yield.
  bool AlignedSite;
};

#define CACS__JUMP_ENTERED(name, aligned)                                      \
  JumpEnteredEntry {                                                           \
    CACS_CONTRACT_ENTRY_PREFIX name CACS_CONTRACT_ENTRY_SUFFIX,                \
        CACS_CONTRACT_ENTRY_PREFIX name CACS_CONTRACT_ENTRY_SUFFIX             \
            CACS_CONTRACT_JUMP_SUFFIX,                                         \
        aligned                                                                \
  }

/// The entries whose calls are lowered: cacs_yield's (cacs/coro.h binds
/// it), cacs_effect_perform's and cacs_effect_resume's (cacs/effect.h). The
/// `_bp` entries (callers whose compiler may keep rbx live), the `_none`
/// one (the empty register mask) and the other switches keep their calls.
inline constexpr JumpEnteredEntry JumpEnteredEntries[] = {
    CACS__JUMP_ENTERED("yield", false),
    CACS__JUMP_ENTERED("effect_perform", true),
    CACS__JUMP_ENTERED("effect_resume", true),
};
#undef CACS__JUMP_ENTERED

/// cacs_yield's entry.
inline constexpr const char *YieldEntryName = JumpEnteredEntries[0].Entry;

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
