//===- PreserveNoneRules.cpp - When preserve_none is safe -----------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The facts every rule shares: targets, the per-module context, argument
// registers. The rules themselves are in PreserveNoneRules*.cpp.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneRules.h"
#include "cacs-compiler/Settings.h"
#include "cacs-compiler/StackFrame.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace cacs;

/// Was -fast-isel given? It is a cl::opt<cl::boolOrDefault> of
/// TargetPassConfig.cpp; any occurrence counts, -fast-isel=false too (a
/// shield too many costs time, one too few a wrong program).
static bool fastISelOptionGiven() {
  const auto &Options = cl::getRegisteredOptions();
  auto It = Options.find("fast-isel");
  return It != Options.end() && It->second->getNumOccurrences() > 0;
}

bool cacs::supportsPreserveNone(const Triple &T) {
  return T.getArch() == Triple::x86_64 || T.isAArch64() ||
         T.getArch() == Triple::UnknownArch;
}

std::string cacs::unsupportedTargetWarning(StringRef Flag, const Triple &T) {
  return (Flag + " does nothing on target '" + T.str() +
          "': cacs gives preserve_none on x86-64 and AArch64 only, and "
          "every function here keeps the C calling convention")
      .str();
}

RuleContext::RuleContext(const Module &M, bool CodeGenAtO0)
    : FastISelForced(fastISelOptionGiven()), CodeGenAtO0(CodeGenAtO0),
      LinkBindsNow(flagSetting(SettingID::LinkBindsNow)) {
  Triple T(M.getTargetTriple());
  AArch64 = T.isAArch64();
  X86_64 = T.getArch() == Triple::x86_64;
  AbsoluteAddresses = X86_64 && M.getCodeModel() == CodeModel::Large &&
                      M.getPICLevel() == PICLevel::NotPIC;
  SmallVector<GlobalValue *, 8> UsedVec;
  collectUsedGlobalVariables(M, UsedVec, /*CompilerUsed=*/false);
  collectUsedGlobalVariables(M, UsedVec, /*CompilerUsed=*/true);
  Used.insert(UsedVec.begin(), UsedVec.end());
}

bool RuleContext::mayHaveDynamicStack(const Function &F) {
  auto [It, Inserted] = DynamicStack.try_emplace(&F, false);
  if (Inserted)
    It->second = cacs::mayHaveDynamicStack(F);
  return It->second;
}

bool cacs::variadicPreserveNoneMiscompiles(const Triple &T) {
  return T.getArch() == Triple::x86_64;
}

bool cacs::returnedArgumentMiscompiles(const Triple &T) {
  return T.isAArch64();
}

/// The integer registers a value of type \p T takes when passed: the
/// backends split integers into 64-bit parts and aggregates into their
/// elements, each part taking the next register.
static unsigned integerRegistersOf(Type *T) {
  if (T->isPointerTy())
    return 1;
  if (T->isIntegerTy())
    return divideCeil(T->getIntegerBitWidth(), 64);
  if (auto *AT = dyn_cast<ArrayType>(T))
    return AT->getNumElements() * integerRegistersOf(AT->getElementType());
  if (auto *ST = dyn_cast<StructType>(T)) {
    unsigned N = 0;
    for (Type *E : ST->elements())
      N += integerRegistersOf(E);
    return N;
  }
  return 0;
}

unsigned cacs::integerArgumentRegisters(const FunctionType &FTy,
                                        const AttributeList &Attrs) {
  unsigned N = 0;
  for (unsigned I = 0, E = FTy.getNumParams(); I != E; ++I) {
    if (Attrs.hasParamAttr(I, Attribute::ByVal) ||
        Attrs.hasParamAttr(I, Attribute::InAlloca) ||
        Attrs.hasParamAttr(I, Attribute::Preallocated))
      continue;
    N += integerRegistersOf(FTy.getParamType(I));
  }
  return N;
}

unsigned cacs::firstClobberedArgument(const RuleContext &RC, ScratchUser U) {
  // x86-64 preserve_none: r12 r13 r14 r15 rdi rsi rdx rcx r8 r9 r11 rax.
  if (RC.isX86_64())
    return 11; // r11, in every case.
  // Only x86-64 keeps a scratch register in a split-stack prologue.
  if (U == ScratchUser::SplitStack)
    return 0;
  // AArch64 preserve_none: x20-x28, x0-x7, x10-x14, x9, x15. The lazy
  // resolver and an entry hook may use every temporary, x9-x15; the probe
  // loop and the KCFI check use x9.
  if (RC.isAArch64())
    return U == ScratchUser::StackProbe || U == ScratchUser::KCFICheck
               ? 23 /* x9 */
               : 18 /* x10 */;
  return 0;
}

/// Is \p Feature ("+name") among the target features of \p F?
bool cacs::hasTargetFeature(const Function &F, StringRef Feature) {
  SmallVector<StringRef, 32> Features;
  F.getFnAttribute("target-features")
      .getValueAsString()
      .split(Features, ',', -1, /*KeepEmpty=*/false);
  return is_contained(Features, Feature);
}

bool cacs::hasEntryHook(const Function &F) {
  StringRef Patchable =
      F.getFnAttribute("patchable-function-entry").getValueAsString();
  return F.getFnAttribute("fentry-call").getValueAsString() == "true" ||
         (!Patchable.empty() && Patchable != "0");
}

void cacs::removeEntryHooks(Function &F) {
  for (const char *Kind :
       {"fentry-call", "patchable-function-entry", "patchable-function-prefix"})
    F.removeFnAttr(Kind);
}

static bool isIntegerScalar(Type *T) {
  return T->isPointerTy() ||
         (T->isIntegerTy() && T->getIntegerBitWidth() <= 64);
}

static bool isFPScalar(Type *T) { return T->isFloatTy() || T->isDoubleTy(); }

bool cacs::mayPassArgumentsOnStack(const CallBase &CB) {
  Type *Ret = CB.getType();
  if (!Ret->isVoidTy() && !isIntegerScalar(Ret) && !isFPScalar(Ret))
    return true;
  const AttributeList &Attrs = CB.getAttributes();
  unsigned IntRegs = 0, FPRegs = 0;
  for (unsigned I = 0, E = CB.arg_size(); I != E; ++I) {
    Type *T = CB.getArgOperand(I)->getType();
    if (Attrs.hasParamAttr(I, Attribute::ByVal) ||
        Attrs.hasParamAttr(I, Attribute::InAlloca) ||
        Attrs.hasParamAttr(I, Attribute::Preallocated) ||
        Attrs.hasParamAttr(I, Attribute::Nest))
      return true;
    if (isIntegerScalar(T))
      ++IntRegs;
    else if (isFPScalar(T))
      ++FPRegs;
    else
      return true;
  }
  // r12-r15, rdi, rsi, rdx, rcx, r8, r9, r11, rax; xmm0-xmm7.
  return IntRegs > 12 || FPRegs > 8;
}
