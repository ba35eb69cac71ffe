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
// The list format and the diagnostics are described at the top of
// PreserveNoneList.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONELIST_H
#define CACS_PRESERVENONELIST_H

#include "llvm/IR/PassManager.h"

#include <string>
#include <vector>

namespace cacs {

/// The named metadata in which the per-TU run records the lists it applied,
/// one operand per list: !{!"<path>", !"<text>"}. The full-LTO link re-reads
/// them from the merged module.
inline constexpr const char *PreserveNoneListsMD = "cacs.preserve_none_lists";

/// The suffix of the C-convention entry thunk that stands in for a listed
/// function wherever its address is taken: `<name>.cacs_c_entry`.
inline constexpr const char *CEntrySuffix = ".cacs_c_entry";

/// Warn about listed functions that are exported (default: on). The front
/// door's -fno-preserve-none-list-export-warning turns it off, through the
/// clang plugin; `-mllvm -cacs-preserve-none-list-export-warning=false` too.
bool preserveNoneListExportWarning();
void setPreserveNoneListExportWarning(bool Enabled);

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
