//===- InstackYield.cpp - Call-aligned frames at in-stack yields ----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The yield of the in-stack generator (cacs/instack_x86_64.h) is inline
// assembly ending in `call *%rdi`: the consumer continues below the
// generator's stack pointer and makes calls of its own there. The backend
// does not know that the assembly calls, so a function whose only "call" is
// the yield is a leaf to it, and a leaf on x86-64 may
//   - keep locals in the red zone, the 128 bytes below its stack pointer,
//     which the consumer's frames overwrite;
//   - leave its stack pointer as the caller's call left it (8 mod 16), so
//     that the consumer runs misaligned (an SSE spill faults).
// Compiled by cacs, the header marks the yield's assembly with a first line
// (InstackYieldMarker) and this pass rewrites each marked call:
//   - the marker goes (assembled, its `.error` would stop the build: a yield
//     that did not pass through here is never silently miscompiled);
//   - the assembly gets the `alignstack` flag, which makes the backend treat
//     the function as one that calls (MachineFrameInfo::adjustsStack): the
//     frame is call-aligned and there is no red zone (LLVM 19 and 22);
//   - an unused memory operand, the address of the return address (a fixed
//     stack object): shrink-wrapping ignores `alignstack`, and with a real
//     call elsewhere in the function it may set up the frame on that path
//     only, leaving the yield's path frameless. An instruction with a frame
//     index operand must run inside the frame, and this object costs no
//     stack space (a local would grow some frames by 16 bytes).
// Both travel with the call instruction when it is inlined later (the LTO
// link, cross-unit inlining), so the treatment follows the yield into its
// new function; the pass also runs at the full-LTO link for bitcode whose
// compile did not run it. Without the pass the header keeps a real call on
// a cold path after each yield (a cancel test: two instructions a yield).
// AArch64 needs none of this: its stack pointer is always 16-byte aligned
// and Linux has no red zone there, so the header marks nothing.
//
// The consumer addresses its own frame through its frame pointer, which a
// zero-byte dynamic allocation in it forces (cacs_isg_start). Its address
// goes to inline assembly only to keep it, and SafeStack moves any
// allocation whose address reaches an unknown call to the unsafe stack: the
// consumer then has no dynamic allocation on the real stack, addresses its
// frame from the stack pointer, and the generator moves that. Under SafeStack
// the header marks that assembly too (both targets), and the pass marks its
// operand `nocapture readnone`, which SafeStack takes as a safe use.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/InstackYield.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/ModRef.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace cacs;

#define DEBUG_TYPE "instack-yield"

STATISTIC(NumYieldsAligned,
          "Number of in-stack yields given a call-aligned frame");
STATISTIC(NumConsumerFramesKept,
          "Number of in-stack consumer frame markers kept off the unsafe "
          "stack");

namespace {

/// Gives every marked in-stack yield of a module a call-aligned frame.
class YieldFrameRewriter {
public:
  explicit YieldFrameRewriter(Module &M) : M(M) {}

  /// Rewrites every marked yield; true if any changed.
  bool run();

private:
  /// The inline assembly \p CB calls if its text starts with \p Marker.
  static InlineAsm *marked(const CallBase &CB, StringRef Marker);
  /// Removes the marker of a consumer frame's assembly and marks its
  /// pointer operands as neither captured nor read.
  static void keepConsumerFrame(CallInst &CI, InlineAsm &IA);
  /// \p Constraints with a memory input after the existing inputs.
  static std::string withMemoryInput(StringRef Constraints);
  /// Replaces \p CI by the treated call; false (and \p CI left as it is, so
  /// that its marker stops the build) if the constraints do not allow it.
  bool rewrite(CallInst &CI, InlineAsm &IA);

  Module &M;
};

InlineAsm *YieldFrameRewriter::marked(const CallBase &CB, StringRef Marker) {
  auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand());
  if (!IA || !StringRef(IA->getAsmString()).starts_with(Marker))
    return nullptr;
  return IA;
}

void YieldFrameRewriter::keepConsumerFrame(CallInst &CI, InlineAsm &IA) {
  StringRef Asm = StringRef(IA.getAsmString())
                      .drop_front(StringRef(InstackConsumerMarker).size());
  CI.setCalledOperand(InlineAsm::get(
      IA.getFunctionType(), Asm, IA.getConstraintString(), IA.hasSideEffects(),
      IA.isAlignStack(), IA.getDialect(), IA.canThrow()));
  LLVMContext &Ctx = CI.getContext();
  for (unsigned I = 0, E = CI.arg_size(); I != E; ++I) {
    if (!CI.getArgOperand(I)->getType()->isPointerTy())
      continue;
#if LLVM_VERSION_MAJOR >= 21
    CI.addParamAttr(I, Attribute::getWithCaptureInfo(Ctx, CaptureInfo::none()));
#else
    CI.addParamAttr(I, Attribute::get(Ctx, Attribute::NoCapture));
#endif
    CI.addParamAttr(I, Attribute::get(Ctx, Attribute::ReadNone));
  }
}

std::string YieldFrameRewriter::withMemoryInput(StringRef Constraints) {
  SmallVector<StringRef, 16> Parts;
  Constraints.split(Parts, ',');
  // Clobbers come last; the new input follows the existing inputs, so it
  // is the last argument of the call.
  auto FirstClobber =
      find_if(Parts, [](StringRef C) { return C.starts_with("~"); });
  Parts.insert(FirstClobber, "*m");
  return join(Parts, ",");
}

bool YieldFrameRewriter::rewrite(CallInst &CI, InlineAsm &IA) {
  FunctionType *OldTy = IA.getFunctionType();
  SmallVector<Type *, 8> Params(OldTy->params());
  IRBuilder<> B(&CI);
  Params.push_back(B.getPtrTy());
  auto *NewTy = FunctionType::get(OldTy->getReturnType(), Params, false);
  std::string Constraints = withMemoryInput(IA.getConstraintString());
  if (Error E = InlineAsm::verify(NewTy, Constraints)) {
    consumeError(std::move(E));
    return false;
  }
  StringRef Asm = StringRef(IA.getAsmString())
                      .drop_front(StringRef(InstackYieldMarker).size());
  InlineAsm *NewIA =
      InlineAsm::get(NewTy, Asm, Constraints, IA.hasSideEffects(),
                     /*isAlignStack=*/true, IA.getDialect(), IA.canThrow());

  Value *RetAddrSlot =
      B.CreateIntrinsic(Intrinsic::addressofreturnaddress, {B.getPtrTy()}, {});
  SmallVector<Value *, 8> Args(CI.args());
  Args.push_back(RetAddrSlot);
  SmallVector<OperandBundleDef, 1> Bundles;
  CI.getOperandBundlesAsDefs(Bundles);
  CallInst *New = B.CreateCall(NewTy, NewIA, Args, Bundles);
  LLVMContext &Ctx = CI.getContext();
  New->setAttributes(CI.getAttributes().addParamAttribute(
      Ctx, Args.size() - 1,
      Attribute::get(Ctx, Attribute::ElementType, B.getInt8Ty())));
  New->setTailCallKind(CI.getTailCallKind());
  New->copyMetadata(CI);
  New->takeName(&CI);
  CI.replaceAllUsesWith(New);
  CI.eraseFromParent();
  return true;
}

bool YieldFrameRewriter::run() {
  // The header marks x86-64 yields only; a marker elsewhere stays and stops
  // the build with its message. Consumer frames are marked on any target.
  bool YieldsMarked = Triple(M.getTargetTriple()).getArch() == Triple::x86_64;
  SmallVector<CallInst *, 8> Yields;
  bool Changed = false;
  for (Function &F : M)
    for (Instruction &I : instructions(F)) {
      auto *CI = dyn_cast<CallInst>(&I);
      if (!CI)
        continue;
      if (InlineAsm *IA = marked(*CI, InstackConsumerMarker)) {
        keepConsumerFrame(*CI, *IA);
        ++NumConsumerFramesKept;
        Changed = true;
      } else if (YieldsMarked && marked(*CI, InstackYieldMarker)) {
        Yields.push_back(CI);
      }
    }
  for (CallInst *CI : Yields) {
    if (!rewrite(*CI, *marked(*CI, InstackYieldMarker)))
      continue;
    ++NumYieldsAligned;
    Changed = true;
  }
  return Changed;
}

} // namespace

PreservedAnalyses InstackYieldPass::run(Module &M, ModuleAnalysisManager &) {
  if (!YieldFrameRewriter(M).run())
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}
