//===- PreserveNoneSafety.h - Guard against known miscompiles ---*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Upstream's preserve_none lowering has known miscompiles. This pass runs at
// the end of every per-TU pipeline and of the full-LTO link, whatever cacs
// flags are given, after the passes that create preserve_none calls:
//
//  - A function that addresses its frame through a base pointer (rbx on
//    x86-64, x19 on AArch64; see StackFrame.h for when) loses it
//    across a call to a preserve_none function, which need not preserve
//    that register: LLVM 19 on x86-64 and LLVM 19 and 22 on
//    AArch64 reload through the clobbered register. The pass fixes it: such a
//    call goes through a C-convention "shield" function, which saves and
//    restores every callee-saved register, the base pointer included.
//
//  - byval/inalloca/preallocated arguments are passed without a copy, and on
//    x86-64 variadic arguments are passed and read in different registers.
//    Those cannot be fixed here; they are errors naming the function.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONESAFETY_H
#define CACS_PRESERVENONESAFETY_H

#include "llvm/IR/PassManager.h"

namespace cacs {

class PreserveNoneSafetyPass
    : public llvm::PassInfoMixin<PreserveNoneSafetyPass> {
public:
  /// \p CodeGenAtO0: the pipeline runs at O0, and so does code generation
  /// (see RuleContext).
  explicit PreserveNoneSafetyPass(bool CodeGenAtO0 = false)
      : CodeGenAtO0(CodeGenAtO0) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  bool CodeGenAtO0;
};

} // namespace cacs

#endif // CACS_PRESERVENONESAFETY_H
