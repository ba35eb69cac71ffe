//===- PreserveNoneRulesWrapper.cpp - C-convention wrappers ---------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// WrapperBuilder and the code generation settings a wrapper keeps.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneRulesWrapper.h"
#include "cacs-compiler/PreserveNoneSymbols.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace cacs;

bool cacs::isCACSWrapper(const Function &F) {
  return F.hasFnAttribute(WrapperAttr) || F.getName().contains(CEntrySuffix);
}

/// The function attributes that change how a wrapper is lowered. The
/// vector registers that carry arguments depend on the target features;
/// branch protection, frame pointers and stack probes must not be lost on
/// the way.
static const char *const CodeGenAttrs[] = {"target-cpu",
                                           "target-features",
                                           "tune-cpu",
                                           "frame-pointer",
                                           "branch-target-enforcement",
                                           "sign-return-address",
                                           "sign-return-address-key",
                                           "branch-protection-pauth-lr",
                                           "guarded-control-stack",
                                           "probe-stack",
                                           "stack-probe-size",
                                           "no_caller_saved_registers",
                                           "indirect-branch-cs-prefix",
                                           "patchable-function-entry",
                                           "function-instrument",
                                           "instrument-function-entry",
                                           "instrument-function-exit",
                                           "instrument-function-entry-inlined",
                                           "xray-instruction-threshold",
                                           "min-legal-vector-width",
                                           "uniform-work-group-size"};

static std::string codeGenKey(const Function &F) {
  std::string Key;
  for (const char *Kind : CodeGenAttrs)
    if (F.hasFnAttribute(Kind))
      Key +=
          (Twine(Kind) + "=" + F.getFnAttribute(Kind).getValueAsString() + ";")
              .str();
  // Facts of the settings function that change the wrapper's code.
  Key += F.hasFnAttribute(Attribute::SanitizeAddress) ? "asan;" : "";
  Key += F.hasFnAttribute(Attribute::ShadowCallStack) ? "scs;" : "";
  Key += F.hasFnAttribute(Attribute::NoCfCheck) ? "nocf;" : "";
  Key += F.hasFnAttribute(Attribute::NoRedZone) ? "noredzone;" : "";
  return Key;
}

void cacs::copyCodeGenSettings(Function &To, const Function &From) {
  for (const char *Kind : CodeGenAttrs)
    if (From.hasFnAttribute(Kind))
      To.addFnAttr(From.getFnAttribute(Kind));
  for (Attribute::AttrKind Kind :
       {Attribute::ShadowCallStack, Attribute::NoCfCheck, Attribute::NoRedZone})
    if (From.hasFnAttribute(Kind))
      To.addFnAttr(Kind);
}

Function *WrapperBuilder::get(WrapperKind K, Function *Callee,
                              FunctionType *FTy, AttributeList CallAttrs,
                              const Function &SettingsFrom, bool NoThrow) {
  std::string Settings = codeGenKey(SettingsFrom);
  Settings += NoThrow ? ";nounwind" : "";
  Function *&W = Cache[{static_cast<int>(K), Callee, FTy,
                        CallAttrs.getRawPointer(), Settings}];
  if (W)
    return W;

  LLVMContext &Ctx = M.getContext();
  if (K == WrapperKind::CEntry) {
    // One address for the whole program: a thunk that another module of a
    // full-LTO link made already is the one.
    std::string Name = (Callee->getName() + CEntrySuffix).str();
    if (Function *T = M.getFunction(Name))
      if (!T->isDeclaration() && T->getFunctionType() == FTy)
        return W = T;
  }

  SmallVector<Type *, 8> Params;
  if (!Callee)
    Params.push_back(PointerType::getUnqual(Ctx));
  Params.append(FTy->param_begin(), FTy->param_end());
  FunctionType *WTy =
      FunctionType::get(FTy->getReturnType(), Params, /*isVarArg=*/false);
  std::string Name = (Callee ? Callee->getName() : StringRef("indirect")).str();
  Name += K == WrapperKind::Shield ? ".cacs.shield" : CEntrySuffix;
  if (K == WrapperKind::AliasEntry)
    Name += ".alias";
  W = Function::Create(WTy, GlobalValue::PrivateLinkage,
                       Callee ? Callee->getAddressSpace() : 0, Name, &M);
  if (K == WrapperKind::CEntry) {
    W->setLinkage(GlobalValue::InternalLinkage);
    if (!Callee->hasLocalLinkage()) {
      // One address for the whole program (or shared object): the thunk is
      // merged across translation units like an inline function.
      W->setLinkage(GlobalValue::LinkOnceODRLinkage);
      W->setVisibility(Callee->getVisibility());
      W->setDSOLocal(Callee->isDSOLocal() ||
                     Callee->getVisibility() != GlobalValue::DefaultVisibility);
      if (Triple(M.getTargetTriple()).supportsCOMDAT())
        W->setComdat(M.getOrInsertComdat(W->getName()));
    }
  } else if (K == WrapperKind::AliasEntry) {
    W->setLinkage(GlobalValue::InternalLinkage);
  } else {
    // The shield must stay a real call frame: inlined, it would save
    // nothing.
    W->addFnAttr(Attribute::NoInline);
  }
  W->setCallingConv(CallingConv::C);
  W->addFnAttr(WrapperAttr);
  // An entry stands for the function wherever its address is taken, so an
  // indirect call checked by KCFI (!kcfi_type), CFI (!type, the jump tables
  // of LowerTypeTests) or -fsanitize=function (!func_sanitize, the
  // signature before the entry) reaches it with the function's type.
  if (Callee && K != WrapperKind::Shield) {
    SmallVector<MDNode *, 2> Types;
    Callee->getMetadata(LLVMContext::MD_type, Types);
    for (MDNode *Type : Types)
      W->addMetadata(LLVMContext::MD_type, *Type);
    for (unsigned Kind :
         {LLVMContext::MD_kcfi_type, LLVMContext::MD_func_sanitize})
      if (MDNode *MD = Callee->getMetadata(Kind))
        W->setMetadata(Kind, MD);
  }
  copyCodeGenSettings(*W, SettingsFrom);
  if (NoThrow)
    W->setDoesNotThrow();
  else // An exception unwinds through the wrapper.
    W->setUWTableKind(UWTableKind::Default);
  // Parameter and return attributes describe the values (sret, noundef,
  // zeroext, ...), which the wrapper passes on unchanged.
  unsigned Shift = Callee ? 0 : 1;
  for (unsigned I = 0; I != FTy->getNumParams(); ++I)
    W->addParamAttrs(I + Shift, AttrBuilder(Ctx, CallAttrs.getParamAttrs(I)));
  W->addRetAttrs(AttrBuilder(Ctx, CallAttrs.getRetAttrs()));

  BasicBlock *BB = BasicBlock::Create(Ctx, "entry", W);
  IRBuilder<> B(BB);
  SmallVector<Value *, 8> Args;
  for (Argument &Arg : W->args())
    Args.push_back(&Arg);
  Value *Target = Callee;
  if (!Callee) {
    Target = Args.front();
    Args.erase(Args.begin());
  }
  CallInst *Call = B.CreateCall(FTy, Target, Args);
  Call->setCallingConv(CallingConv::PreserveNone);
  Call->setAttributes(CallAttrs);
  // `tail`, in tail position: AArch64 FastISel (every function at -O0 with
  // -fno-global-isel) leaves tail calls to SelectionDAG, which passes the
  // arguments in the preserve_none registers; SelectionDAG then makes no
  // sibling call, because the C caller's callee-saved registers are not
  // preserved by preserve_none, so the wrapper keeps its frame and saves
  // them (test/CodeGen/AArch64/preserve_none-tail-wrapper.ll).
  Call->setTailCallKind(CallInst::TCK_Tail);
  if (FTy->getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
  return W;
}
