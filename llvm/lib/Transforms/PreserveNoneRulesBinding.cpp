//===- PreserveNoneRulesBinding.cpp - Calls the linker binds --------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// bindingHazard, mustBindAtLoadTime and jumpTargetLacksRegister.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneRulesBinding.h"

#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/LLVMContext.h"

using namespace llvm;
using namespace cacs;

/// Whether \p F (a direct callee) may be reached through a lazily bound PLT
/// entry: a function outside this object, or one that another may replace.
static bool mayBeBoundLazily(const Function &F) {
  if (F.hasLocalLinkage() || !F.hasDefaultVisibility() || F.isIntrinsic())
    return false;
  // A definition known to stay in this object is called directly. A
  // declaration may live in a shared library, even when it is dso_local
  // (clang -fno-pic: the executable's own PLT is lazily bound too).
  return F.isDeclarationForLinker() || !F.isDSOLocal();
}

/// Does \p F make its indirect calls through a thunk that takes the target
/// in r11 (x86-64)? That is X86Subtarget::useIndirectThunkCalls: retpolines
/// (-mretpoline, -mretpoline-external-thunk, and -mspeculative-load-hardening,
/// which implies them) or LVI control-flow hardening (-mlvi-cfi).
static bool usesIndirectThunkCalls(const Function &F) {
  return hasTargetFeature(F, "+retpoline-indirect-calls") ||
         hasTargetFeature(F, "+lvi-cfi");
}

/// Do \p Regs integer argument registers reach one that the lazy resolver
/// clobbers?
static bool lazyResolverClobbers(unsigned Regs, const RuleContext &RC) {
  if (RC.linkBindsNow())
    return false;
  unsigned Lazy = firstClobberedArgument(RC, ScratchUser::LazyBinding);
  return Lazy && Regs >= Lazy;
}

bool cacs::mustBindAtLoadTime(const Function &F, const RuleContext &RC) {
  unsigned Regs =
      integerArgumentRegisters(*F.getFunctionType(), F.getAttributes());
  return F.getCallingConv() == CallingConv::PreserveNone &&
         lazyResolverClobbers(Regs, RC) && mayBeBoundLazily(F);
}

/// Does \p CB take its target from a register: a call through a pointer,
/// or through the GOT? A dso_local callee is called directly whatever
/// nonlazybind says.
static bool callsThroughRegister(const CallBase &CB) {
  const Function *Callee = CB.getCalledFunction();
  return !Callee || (Callee->hasFnAttribute(Attribute::NonLazyBind) &&
                     !Callee->isDSOLocal());
}

bool cacs::jumpTargetLacksRegister(const CallBase &CB, const RuleContext &RC) {
  return RC.isX86_64() && !CB.isInlineAsm() &&
         CB.getCallingConv() == CallingConv::PreserveNone &&
         callsThroughRegister(CB) &&
         integerArgumentRegisters(*CB.getFunctionType(), CB.getAttributes()) >=
             12;
}

BindingHazard cacs::bindingHazard(const CallBase &CB, const RuleContext &RC) {
  unsigned Regs =
      integerArgumentRegisters(*CB.getFunctionType(), CB.getAttributes());
  const Function *Callee = CB.getCalledFunction();
  bool ThroughGOT = callsThroughRegister(CB);
  bool LazyHazard =
      Callee && lazyResolverClobbers(Regs, RC) && mayBeBoundLazily(*Callee);
  // An x86-64 retpoline thunk takes the target in r11, the 11th argument.
  if (RC.isX86_64() && Regs >= 11 && (ThroughGOT || LazyHazard) &&
      usesIndirectThunkCalls(*CB.getFunction()))
    return BindingHazard::RetpolineNoRegister;
  // The KCFI check of an indirect call may take a scratch register that
  // carries an argument (see BindingHazard::KCFIScratch).
  unsigned KCFIScratch = firstClobberedArgument(RC, ScratchUser::KCFICheck);
  if (!Callee && KCFIScratch && Regs >= KCFIScratch &&
      CB.getOperandBundle(LLVMContext::OB_kcfi))
    return BindingHazard::KCFIScratch;
  if (LazyHazard && !ThroughGOT)
    return BindingHazard::LazyBinding;
  return BindingHazard::None;
}
