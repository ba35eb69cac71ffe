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

#include <map>
#include <optional>
#include <tuple>

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
  std::map<std::tuple<Function *, FunctionType *, void *>, Function *> Shields;

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

  /// Why a preserve_none call must go through a shield.
  enum class ShieldReason {
    /// The caller may address its frame through a base pointer, which the
    /// preserve_none callee need not preserve.
    BasePointer,
    /// The caller is optnone, so on AArch64 FastISel lowers the call, and
    /// passes the arguments in the AAPCS registers (x0, x1, ...) where the
    /// callee reads x20, x21, ... (LLVM 19 and 22). A shield is compiled by
    /// the optimizing selector. At plain -O0 AArch64 uses GlobalISel, which
    /// gets it right, and the shield does no harm there.
    FastISel,
  };

  void visitCalls(Function &F) {
    SmallVector<CallBase *, 4> ToShield;
    std::optional<ShieldReason> Reason;
    if (basePointerLostAcrossCall(A) && cacs::hasDynamicStack(F))
      Reason = ShieldReason::BasePointer;
    else if (A == Arch::AArch64 && F.hasOptNone())
      Reason = ShieldReason::FastISel;
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->getCallingConv() != CallingConv::PreserveNone)
        continue;
      // A direct callee was checked with its declaration.
      if (!CB->getCalledFunction()) {
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
      // A shield cannot forward variadic arguments (only a musttail call
      // can, and a tail call would save nothing). FastISel leaves variadic
      // calls to SelectionDAG, so those need no shield; a base pointer
      // across one is reported in shield().
      if (Reason == ShieldReason::FastISel &&
          CB->getFunctionType()->isVarArg())
        continue;
      if (Reason)
        ToShield.push_back(CB);
    }
    for (CallBase *CB : ToShield)
      shield(F, *CB, *Reason);
  }

  /// Route CB through a C-convention function that makes the preserve_none
  /// call itself. The shield's prologue saves every callee-saved register
  /// (the caller's base pointer among them) and restores it on return, and
  /// the shield is never optnone, so the optimizing selector lowers the call.
  void shield(Function &Caller, CallBase &CB, ShieldReason Why) {
    auto *CI = dyn_cast<CallInst>(&CB);
    if ((CI && CI->isMustTailCall()) || CB.hasOperandBundles() ||
        CB.getFunctionType()->isVarArg()) {
      error(Caller,
            "'" + Caller.getName() + "' " +
                (Why == ShieldReason::BasePointer
                     ? "addresses its stack frame through a base pointer, "
                       "which this preserve_none call does not preserve"
                     : "is optnone, and on AArch64 LLVM passes the "
                       "arguments of its preserve_none calls in the wrong "
                       "registers") +
                ", and cacs cannot route this call through a shield "
                "(variadic, musttail or operand bundles)",
            CB.getDebugLoc());
      return;
    }
    Function *Callee = CB.getCalledFunction();
    Function *Shield = getShield(Callee, CB);
    if (Callee) {
      CB.setCalledFunction(Shield);
      CB.setCallingConv(CallingConv::C);
      if (CI)
        CI->setTailCallKind(CallInst::TCK_None);
    } else {
      // The shield of an indirect call takes the callee as its first
      // argument; the call is rebuilt with it.
      SmallVector<Value *, 8> Args{CB.getCalledOperand()};
      Args.append(CB.arg_begin(), CB.arg_end());
      IRBuilder<> B(&CB);
      CallBase *New;
      if (auto *II = dyn_cast<InvokeInst>(&CB))
        New = B.CreateInvoke(Shield, II->getNormalDest(), II->getUnwindDest(),
                             Args);
      else
        New = B.CreateCall(Shield, Args);
      New->setAttributes(Shield->getAttributes());
      New->setDebugLoc(CB.getDebugLoc());
      New->takeName(&CB);
      CB.replaceAllUsesWith(New);
      CB.eraseFromParent();
    }
    ++NumShieldedCalls;
    Changed = true;

    OptimizationRemarkEmitter ORE(&Caller);
    ORE.emit([&] {
      OptimizationRemark R(DEBUG_TYPE, "Shielded", &Caller);
      R << "a preserve_none call in '" << ore::NV("Caller", Caller.getName())
        << "' goes through a shield";
      if (Callee)
        R << " (callee '" << ore::NV("Callee", Callee->getName()) << "')";
      R << (Why == ShieldReason::BasePointer
                ? ": the caller may use a base pointer"
                : ": the caller is optnone, lowered by AArch64 FastISel");
      return R;
    });
  }

  /// One shield per callee (or, for indirect calls, per function type) and
  /// per set of call-site attributes, which describe the ABI of the values.
  Function *getShield(Function *Callee, CallBase &Example) {
    FunctionType *FTy = Example.getFunctionType();
    AttributeList CallAttrs = Example.getAttributes();
    Function *&S = Shields[{Callee, FTy, CallAttrs.getRawPointer()}];
    if (S)
      return S;

    SmallVector<Type *, 8> Params;
    if (!Callee)
      Params.push_back(PointerType::getUnqual(M.getContext()));
    Params.append(FTy->param_begin(), FTy->param_end());
    FunctionType *STy =
        FunctionType::get(FTy->getReturnType(), Params, /*isVarArg=*/false);
    S = Function::Create(STy, GlobalValue::PrivateLinkage,
                         (Callee ? Callee->getName() : "indirect") +
                             ".cacs.shield",
                         M);
    S->setCallingConv(CallingConv::C);
    // The shield must stay a real call frame: inlined, or ending in a tail
    // jump, it would save nothing.
    S->addFnAttr(Attribute::NoInline);
    Function *Caller = Example.getFunction();
    // Code generation must match the caller's: the vector registers that
    // carry arguments depend on the target features, and branch protection
    // and frame pointers must not be lost on the way.
    for (StringRef Kind :
         {"target-cpu", "target-features", "tune-cpu", "frame-pointer",
          "branch-target-enforcement", "sign-return-address",
          "sign-return-address-key", "probe-stack", "stack-probe-size"})
      if (Caller->hasFnAttribute(Kind))
        S->addFnAttr(Caller->getFnAttribute(Kind));
    if (Example.doesNotThrow())
      S->setDoesNotThrow();
    else if (Caller->hasUWTable())
      S->setUWTableKind(Caller->getUWTableKind());
    // Parameter and return attributes describe the values (sret, noundef,
    // zeroext, ...), which the shield passes on unchanged.
    unsigned Shift = Callee ? 0 : 1;
    for (unsigned I = 0; I != FTy->getNumParams(); ++I)
      S->addParamAttrs(I + Shift, AttrBuilder(M.getContext(),
                                              CallAttrs.getParamAttrs(I)));
    S->addRetAttrs(AttrBuilder(M.getContext(), CallAttrs.getRetAttrs()));

    BasicBlock *BB = BasicBlock::Create(M.getContext(), "entry", S);
    IRBuilder<> B(BB);
    SmallVector<Value *, 8> Args;
    for (Argument &Arg : S->args())
      Args.push_back(&Arg);
    Value *Target = Callee;
    if (!Callee) {
      Target = Args.front();
      Args.erase(Args.begin());
    }
    CallInst *Call = B.CreateCall(FTy, Target, Args);
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
