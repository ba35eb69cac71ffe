//===- PreserveNoneList.h - -fpreserve-none-list= pass ----------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Gives preserve_nonecc to the functions a list file names (SpecialCaseList
// format: `fun:` and `src:` entries), and to every direct call of them, so a
// code base gets the convention without touching its source.
//
// The list format and the diagnostics are described at the top of
// PreserveNoneList.cpp. Reading and checking a list file is in
// PreserveNoneListFile.h, the names of the symbols the pass makes in
// PreserveNoneSymbols.h, what the clang plugin tells it in
// PreserveNoneListChannel.h.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONELIST_H
#define CACS_PRESERVENONELIST_H

#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace cacs {

/// Marks the functions declared in a system header (the clang plugin tells
/// the pass, which has no source locations), and the functions the compiler
/// declares itself, which no source declaration names (the C++ ABI's
/// `__cxa_throw`, UBSan's handlers, libgcc's `__muldc3`): no list entry
/// gives them the convention, and the mark stays in the module for a
/// full-LTO link.
inline constexpr const char *SystemHeaderAttr = "cacs-system-header";

class PreserveNoneListPass : public llvm::PassInfoMixin<PreserveNoneListPass> {
public:
  enum class Phase {
    /// Per translation unit: read the list files; record them in the module
    /// for a later full-LTO link.
    PerTU,
    /// Full-LTO link: use the lists recorded in the merged module.
    LTOLink,
  };

  PreserveNoneListPass(Phase P, std::vector<std::string> ListFiles)
      : P(P), ListFiles(std::move(ListFiles)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Phase P;
  std::vector<std::string> ListFiles;
};

} // namespace cacs

#endif // CACS_PRESERVENONELIST_H
