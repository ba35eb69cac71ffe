//===- cacs/PreserveNoneList.h - -fpreserve-none-list= pass -----*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Gives preserve_nonecc to the functions a list file names (SpecialCaseList
// format: `fun:` and `src:` entries), and to every direct call of them, so a
// code base gets the convention without touching its source.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONELIST_H
#define CACS_PRESERVENONELIST_H

#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace cacs {

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
