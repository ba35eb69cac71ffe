//===- PreserveNoneSafety.cpp - Guard against known miscompiles -----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// See cacs/PreserveNoneSafety.h. The facts this pass relies on are pinned by
// the tests in test/CodeGen (preserve_none-base-pointer, -byval, -varargs).
//
//===----------------------------------------------------------------------===//

#include "cacs/PreserveNoneSafety.h"
#include "cacs/StackFrame.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

#define DEBUG_TYPE "preserve-none-safety"

STATISTIC(NumShieldedCalls, "preserve_none calls routed through a shield "
                            "because the caller uses a base pointer");
STATISTIC(NumShields, "shield functions created");
STATISTIC(NumRejected, "preserve_none functions or calls diagnosed as "
                       "miscompiled by the backend");

namespace {

enum class Arch { X86_64, AArch64, Other };

Arch archOf(const Module &M) {
  Triple T(M.getTargetTriple());
  if (T.getArch() == Triple::x86_64)
    return Arch::X86_64;
  if (T.getArch() == Triple::aarch64 || T.getArch() == Triple::aarch64_be)
    return Arch::AArch64;
  return Arch::Other;
}

/// Does a base-pointer caller lose its base pointer across a preserve_none
/// call on this target? x86-64 was fixed by LLVM 22, which saves rbx around
/// the call; AArch64 does not save x19 in 19 nor in 22.
bool basePointerLostAcrossCall(Arch A) {
  if (A == Arch::AArch64)
    return true;
  return A == Arch::X86_64 && LLVM_VERSION_MAJOR < 22;
}

bool hasMemoryArgument(const AttributeList &Attrs, unsigned NumParams) {
  for (unsigned I = 0; I != NumParams; ++I)
    if (Attrs.hasParamAttr(I, Attribute::ByVal) ||
        Attrs.hasParamAttr(I, Attribute::InAlloca) ||
        Attrs.hasParamAttr(I, Attribute::Preallocated))
      return true;
  return false;
}

class Safety {
public:
  explicit Safety(Module &M) : M(M), A(archOf(M)) {}

  bool run() {
    if (A == Arch::Other)
      return false;
    for (Function &F : M) {
      if (F.getCallingConv() == CallingConv::PreserveNone)
        checkDefinitionOrDeclaration(F);
      if (!F.isDeclaration())
        visitCalls(F);
    }
    return Changed;
  }

private:
  Module &M;
  Arch A;
  bool Changed = false;
  DenseMap<Function *, Function *> Shields;

  void error(const Function &Where, const Twine &Msg,
             const DebugLoc &DL = DebugLoc()) {
    ++NumRejected;
    std::string Text = Msg.str();
    M.getContext().diagnose(
        DiagnosticInfoUnsupported(Where, Text, DiagnosticLocation(DL)));
  }

  /// A preserve_none function the backend cannot get right. Only functions
  /// that are defined here or used here are reported.
  void checkDefinitionOrDeclaration(Function &F) {
    if (F.isDeclaration() && F.use_empty())
      return;
    if (hasMemoryArgument(F.getAttributes(), F.arg_size()))
      error(F, "preserve_none function '" + F.getName() +
                   "' takes an argument by value in memory (byval), which "
                   "LLVM passes without a copy under preserve_none; pass a "
                   "pointer instead");
    else if (F.isVarArg() && A == Arch::X86_64)
      error(F, "preserve_none function '" + F.getName() +
                   "' is variadic, which LLVM miscompiles on x86-64 (the "
                   "variadic arguments are passed and read in different "
                   "registers)");
  }

  void visitCalls(Function &F) {
    SmallVector<CallBase *, 4> ToShield;
    bool NeedsBP = basePointerLostAcrossCall(A) && cacs::hasDynamicStack(F);
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->getCallingConv() != CallingConv::PreserveNone)
        continue;
      Function *Callee = CB->getCalledFunction();
      // A direct callee was checked with its declaration.
      if (!Callee) {
        if (hasMemoryArgument(CB->getAttributes(), CB->arg_size()))
          error(F, "indirect preserve_none call in '" + F.getName() +
                       "' passes an argument by value in memory (byval), "
                       "which LLVM does not copy under preserve_none",
                CB->getDebugLoc());
        else if (CB->getFunctionType()->isVarArg() && A == Arch::X86_64)
          error(F, "indirect preserve_none call in '" + F.getName() +
                       "' is variadic, which LLVM miscompiles on x86-64",
                CB->getDebugLoc());
      }
      if (NeedsBP)
        ToShield.push_back(CB);
    }
    for (CallBase *CB : ToShield)
      shield(F, *CB);
  }

  /// Route CB through a C-convention function that makes the preserve_none
  /// call itself: the shield's prologue saves every callee-saved register,
  /// the caller's base pointer among them, and restores it on return.
  void shield(Function &Caller, CallBase &CB) {
    Function *Callee = CB.getCalledFunction();
    auto *CI = dyn_cast<CallInst>(&CB);
    if (!Callee || (CI && CI->isMustTailCall()) ||
        CB.hasOperandBundles()) {
      error(Caller,
            "'" + Caller.getName() +
                "' addresses its stack frame through a base pointer, which "
                "this preserve_none call does not preserve, and cacs cannot "
                "route it through a shield (indirect, musttail or with "
                "operand bundles)",
            CB.getDebugLoc());
      return;
    }
    Function *&Shield = Shields[Callee];
    if (!Shield)
      Shield = createShield(*Callee, CB);
    CB.setCalledFunction(Shield);
    CB.setCallingConv(CallingConv::C);
    if (CI)
      CI->setTailCallKind(CallInst::TCK_None);
    ++NumShieldedCalls;
    Changed = true;

    OptimizationRemarkEmitter ORE(&Caller);
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Shielded", &CB)
             << "call to preserve_none function '"
             << ore::NV("Callee", Callee->getName()) << "' in '"
             << ore::NV("Caller", Caller.getName())
             << "' goes through a shield that saves the base pointer";
    });
  }

  Function *createShield(Function &Callee, CallBase &Example) {
    FunctionType *FTy = Callee.getFunctionType();
    Function *S = Function::Create(FTy, GlobalValue::PrivateLinkage,
                                   Callee.getName() + ".cacs.shield", M);
    S->setCallingConv(CallingConv::C);
    // The shield must stay a real call frame: inlined, or ending in a tail
    // jump, it would save nothing.
    S->addFnAttr(Attribute::NoInline);
    if (Callee.doesNotThrow())
      S->setDoesNotThrow();
    else if (Example.getFunction()->hasUWTable())
      S->setUWTableKind(Example.getFunction()->getUWTableKind());
    // Parameter attributes describe the values (sret, noundef, zeroext...),
    // which the shield passes on unchanged.
    AttributeList CallAttrs = Example.getAttributes();
    for (unsigned I = 0; I != FTy->getNumParams(); ++I)
      S->addParamAttrs(I, AttrBuilder(M.getContext(),
                                      CallAttrs.getParamAttrs(I)));

    BasicBlock *BB = BasicBlock::Create(M.getContext(), "entry", S);
    IRBuilder<> B(BB);
    SmallVector<Value *, 8> Args;
    for (Argument &Arg : S->args())
      Args.push_back(&Arg);
    CallInst *Call = B.CreateCall(FTy, &Callee, Args);
    Call->setCallingConv(CallingConv::PreserveNone);
    Call->setAttributes(CallAttrs);
    Call->setTailCallKind(CallInst::TCK_NoTail);
    if (FTy->getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Call);
    ++NumShields;
    return S;
  }
};

} // namespace

PreservedAnalyses cacs::PreserveNoneSafetyPass::run(Module &M,
                                                    ModuleAnalysisManager &) {
  return Safety(M).run() ? PreservedAnalyses::none()
                         : PreservedAnalyses::all();
}
