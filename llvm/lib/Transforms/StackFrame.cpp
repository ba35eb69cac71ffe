//===- StackFrame.cpp - Stack frame facts the passes share ----------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/StackFrame.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;

bool cacs::mayHaveDynamicStack(const Function &F) {
  // AddressSanitizer, which clang runs after the cacs passes of a compile,
  // moves the locals of an instrumented frame into a 32-byte aligned frame
  // of its own, a dynamic alloca when the fake stack for use-after-return is
  // off at run time: the function realigns its stack and addresses it
  // through rbx or x19 (x86-64 and AArch64, LLVM 19 and 22). HWASan, MSan
  // and MTE stack tagging keep the frame static (test/Hazards/asan-frame.c).
  bool ASan = F.hasFnAttribute(Attribute::SanitizeAddress);
  for (const Instruction &I : instructions(F)) {
    if (const auto *AI = dyn_cast<AllocaInst>(&I)) {
      if (!AI->isStaticAlloca() || ASan)
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
