//===- AutoPreserveNone.cpp ------------------------------------------------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
// Work in progress: the pass is registered and wired to the front door but
// does not transform anything yet.

#include "cacs/AutoPreserveNone.h"

using namespace llvm;

PreservedAnalyses cacs::AutoPreserveNonePass::run(Module &, ModuleAnalysisManager &) {
  return PreservedAnalyses::all();
}
