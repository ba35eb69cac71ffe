//===- Annotations.cpp - Functions marked in the source -------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/Annotations.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"

using namespace llvm;

SmallVector<std::pair<Function *, StringRef>, 4>
cacs::functionAnnotations(const Module &M) {
  SmallVector<std::pair<Function *, StringRef>, 4> Found;
  const GlobalVariable *GV = M.getNamedGlobal("llvm.global.annotations");
  const auto *Array = GV && GV->hasInitializer()
                          ? dyn_cast<ConstantArray>(GV->getInitializer())
                          : nullptr;
  if (!Array)
    return Found;
  // Each entry: {the function, the string, file, line, arguments}.
  for (const Use &Op : Array->operands()) {
    const auto *Entry = dyn_cast<ConstantStruct>(Op.get());
    if (!Entry || Entry->getNumOperands() < 2)
      continue;
    auto *F = dyn_cast<Function>(Entry->getOperand(0)->stripPointerCasts());
    const auto *Str =
        dyn_cast<GlobalVariable>(Entry->getOperand(1)->stripPointerCasts());
    const auto *Data =
        Str && Str->hasInitializer()
            ? dyn_cast<ConstantDataSequential>(Str->getInitializer())
            : nullptr;
    if (F && Data && Data->isCString())
      Found.push_back({F, Data->getAsCString()});
  }
  return Found;
}

SmallVector<Function *, 4> cacs::annotatedFunctions(const Module &M,
                                                    StringRef Annotation) {
  SmallVector<Function *, 4> Found;
  for (const auto &[F, S] : functionAnnotations(M))
    if (S == Annotation && !is_contained(Found, F))
      Found.push_back(F);
  return Found;
}
