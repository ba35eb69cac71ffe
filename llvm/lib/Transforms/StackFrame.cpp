//===- StackFrame.cpp - Stack frame facts the passes share ----------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "cacs/StackFrame.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

bool cacs::hasDynamicStack(const Function &F) {
  for (const Instruction &I : instructions(F)) {
    if (const auto *AI = dyn_cast<AllocaInst>(&I)) {
      if (!AI->isStaticAlloca())
        return true;
      continue;
    }
    const auto *CB = dyn_cast<CallBase>(&I);
    if (!CB)
      continue;
    if (const auto *II = dyn_cast<IntrinsicInst>(CB)) {
      Intrinsic::ID ID = II->getIntrinsicID();
      if (ID == Intrinsic::stacksave || ID == Intrinsic::stackrestore)
        return true;
      continue;
    }
    // Inline assembly that moves the stack pointer ("opaque SP adjustment").
    if (const auto *IA = dyn_cast<InlineAsm>(CB->getCalledOperand())) {
      StringRef Constraints = IA->getConstraintString();
      if (Constraints.contains("{rsp}") || Constraints.contains("{esp}") ||
          Constraints.contains("{sp}"))
        return true;
    }
  }
  return false;
}
