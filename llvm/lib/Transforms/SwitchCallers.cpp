//===- SwitchCallers.cpp - The functions that can reach a switch ----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/SwitchCallers.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

void cacs::walkSwitchCallers(
    Module &M, function_ref<bool(Function &Caller, Function &Callee)> Visit,
    bool VisitSeeds, function_ref<bool(const Function &)> IsSeed) {
  // Seeds: every preserve_none function, declared or defined (that IsSeed
  // accepts).
  SmallVector<Function *, 16> Worklist;
  DenseSet<const Function *> Seeds, Decided;
  for (Function &F : M)
    if (F.getCallingConv() == CallingConv::PreserveNone &&
        (!IsSeed || IsSeed(F))) {
      Worklist.push_back(&F);
      Seeds.insert(&F);
    }

  while (!Worklist.empty()) {
    Function *Callee = Worklist.pop_back_val();
    for (const Use &U : Callee->uses()) {
      const auto *CB = dyn_cast<CallBase>(U.getUser());
      if (!CB || !CB->isCallee(&U))
        continue;
      Function *Caller = const_cast<Function *>(CB->getFunction());
      if (!Decided.insert(Caller).second)
        continue;
      if (Seeds.count(Caller)) {
        // On the worklist already.
        if (VisitSeeds)
          Visit(*Caller, *Callee);
        continue;
      }
      if (Visit(*Caller, *Callee))
        Worklist.push_back(Caller);
    }
  }
}
