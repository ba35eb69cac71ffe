//===- PreserveNoneCalleeSaved.h - Callee-saved registers -------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// -cacs-preserve-none-callee-saved=none|upstream (the front door's
// -fpreserve-none-callee-saved=): with `none`, preserve_none functions and
// calls get the paper's empty callee-saved list wherever that is sound, so
// that rbp is one more register to allocate. Only x86-64 on LLVM 22 can do
// it, through the string attribute "no_callee_saved_registers":
//
//  - on a call site (or on the callee of a direct call) the backend gives the
//    call the empty register mask: the caller keeps nothing in rbp across it;
//  - on a definition, the prologue saves nothing, rbp included.
//
// A call site may take the empty mask unless the backend gets it wrong
// (stack arguments, invoke; see callSiteCanClobberAll). A definition may take
// the empty list only if every call of it has the empty mask and cannot be
// turned into a jump by a caller that keeps rbp (see the pass's comment).
//
// Declarations of code that saves nothing, not even rbp (libcacs's
// cacs__yield_pn_none, which coro.h binds cacs_yield() to under `none`), are
// annotated SavesNothingAnnotation: the pass gives them the attribute, so
// that every direct call gets the empty mask, keeps callers that keep rbp
// from jumping to them, and refuses the calls the backend would get wrong.
//
// The pass also diagnoses musttail calls the backend cannot lower (an
// indirect preserve_none musttail call that needs all 12 integer argument
// registers on x86-64), whatever the setting.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONECALLEESAVED_H
#define CACS_PRESERVENONECALLEESAVED_H

#include "cacs/detail/contract.h"

#include "llvm/IR/PassManager.h"

namespace cacs {

/// The function attribute that records, in the IR, that a function was
/// compiled with -cacs-preserve-none-callee-saved=none, for the full-LTO link.
inline constexpr const char *CalleeSavedNoneAttr =
    "cacs-preserve-none-callee-saved-none";

/// The annotation (__attribute__((annotate(...)))) on a declaration of
/// external code that saves no register, rbp included.
inline constexpr const char *SavesNothingAnnotation =
    CACS_CONTRACT_SAVES_NOTHING_ANNOTATION;

class PreserveNoneCalleeSavedPass
    : public llvm::PassInfoMixin<PreserveNoneCalleeSavedPass> {
public:
  enum class Phase {
    /// A compile whose output is machine code: record the setting and apply
    /// it to this translation unit.
    PerTU,
    /// The pre-link compile of an LTO build: record the setting only. The
    /// link may still inline, promote arguments or turn calls into invokes,
    /// so any decision made here could be invalidated.
    PreLink,
    /// The full-LTO link: apply the setting recorded by each compile step.
    LTOLink,
  };

  explicit PreserveNoneCalleeSavedPass(Phase P = Phase::PerTU) : P(P) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Phase P;
};

} // namespace cacs

#endif // CACS_PRESERVENONECALLEESAVED_H
