//===- PreserveNoneRules.cpp - When preserve_none is safe -----------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// See PreserveNoneRules.h.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneRules.h"
#include "cacs-compiler/PreserveNoneSymbols.h"
#include "cacs-compiler/Settings.h"
#include "cacs-compiler/StackFrame.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ProfDataUtils.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
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
static bool hasTargetFeature(const Function &F, StringRef Feature) {
  SmallVector<StringRef, 32> Features;
  F.getFnAttribute("target-features")
      .getValueAsString()
      .split(Features, ',', -1, /*KeepEmpty=*/false);
  return is_contained(Features, Feature);
}

ReservedRegisterHazard cacs::reservedRegisterHazard(const Function &Caller,
                                                    const FunctionType &FTy,
                                                    const AttributeList &Attrs,
                                                    const Function *Callee,
                                                    const RuleContext &RC) {
  // AArch64 preserve_none passes integer arguments in x20-x28, x0-x7,
  // x10-x14, x9, x15; -ffixed-xN reserves any of them ("+reserve-xN").
  static const unsigned AArch64Regs[] = {20, 21, 22, 23, 24, 25, 26, 27,
                                         28, 0,  1,  2,  3,  4,  5,  6,
                                         7,  10, 11, 12, 13, 14, 9,  15};
  ReservedRegisterHazard H;
  if (!RC.isAArch64())
    return H;
  auto Reserves = [](const Function &F, unsigned N) {
    return hasTargetFeature(F, "+reserve-x" + std::to_string(N));
  };
  unsigned Regs = std::min<unsigned>(integerArgumentRegisters(FTy, Attrs),
                                     std::size(AArch64Regs));
  for (unsigned I = 0; I != Regs; ++I)
    if (Reserves(Caller, AArch64Regs[I])) {
      H.What = ReservedRegisterHazard::Argument;
      H.Reg = "x" + std::to_string(AArch64Regs[I]);
      H.Number = I + 1;
      return H;
    }
  // x19 cannot be reserved (it may be the base pointer); x20-x28 are
  // callee-saved in the C convention only. The other reservable registers
  // are not preserved across a C call either, so every unit must reserve
  // them anyway. Only a definition that the linker keeps says how the callee
  // was compiled: clang gives a declaration the unit's own target features,
  // and another unit's copy, compiled otherwise, may replace a linkonce or
  // weak one.
  bool CalleeSeen =
      Callee && !Callee->isDeclaration() && Callee->isDefinitionExact();
  for (unsigned N = 20; N <= 28; ++N) {
    if (!Reserves(Caller, N))
      continue;
    H.Reg = "x" + std::to_string(N);
    if (LLVM_VERSION_MAJOR < 22) {
      H.What = ReservedRegisterHazard::Restore;
      return H;
    }
    if (!(CalleeSeen && Reserves(*Callee, N))) {
      H.What = ReservedRegisterHazard::Unknown;
      H.CalleeSeen = CalleeSeen;
      return H;
    }
  }
  H.Reg.clear();
  return H;
}

/// The name of a calling convention in messages.
static std::string ccName(CallingConv::ID CC) {
  switch (CC) {
  case CallingConv::Fast:
    return "fastcc";
  case CallingConv::Cold:
    return "coldcc";
  case CallingConv::GHC:
    return "ghccc";
  case CallingConv::PreserveMost:
    return "preserve_mostcc";
  case CallingConv::PreserveAll:
    return "preserve_allcc";
  case CallingConv::Swift:
    return "swiftcc";
  case CallingConv::SwiftTail:
    return "swifttailcc";
  case CallingConv::Tail:
    return "tailcc";
  case CallingConv::X86_StdCall:
    return "x86_stdcallcc";
  case CallingConv::X86_FastCall:
    return "x86_fastcallcc";
  case CallingConv::X86_ThisCall:
    return "x86_thiscallcc";
  case CallingConv::X86_VectorCall:
    return "x86_vectorcallcc";
  case CallingConv::X86_RegCall:
    return "x86_regcallcc";
  case CallingConv::X86_64_SysV:
    return "x86_64_sysvcc";
  case CallingConv::Win64:
    return "win64cc";
  case CallingConv::AArch64_VectorCall:
    return "aarch64_vector_pcs";
  case CallingConv::AArch64_SVE_VectorCall:
    return "aarch64_sve_vector_pcs";
  default:
    return "cc " + std::to_string(CC);
  }
}

static Eligibility reject(Ineligible Why, std::string Detail,
                          const Value *Other = nullptr) {
  Eligibility E;
  E.Why = Why;
  E.Detail = std::move(Detail);
  E.Other = Other;
  return E;
}

bool cacs::isCACSWrapper(const Function &F) {
  return F.hasFnAttribute(WrapperAttr) || F.getName().contains(CEntrySuffix);
}

/// Does x86-64 LLVM 22 crash lowering a preserve_none function or call of
/// \p FTy (a null dereference in the argument assignment)? It does when a
/// second 128-bit integer (__int128) argument comes after the twelve integer
/// registers have run short: 9 or 11 i64 then two i128 (LLVM 19 and
/// AArch64 lower every shape; test/Hazards/int128-register-pairs.c). Counted
/// conservatively: two such arguments and more than twelve registers' worth.
static bool splitInt128Crashes(const FunctionType &FTy, const Module &M) {
  if (LLVM_VERSION_MAJOR < 22 || Triple(M.getTargetTriple()).getArch() !=
                                     Triple::x86_64)
    return false;
  unsigned Wide = count_if(FTy.params(), [](const Type *T) {
    return T->isIntegerTy() && T->getIntegerBitWidth() > 64;
  });
  return Wide >= 2 && integerArgumentRegisters(FTy, AttributeList()) > 12;
}

static Eligibility checkSignature(const Function &F) {
  if (isCACSWrapper(F))
    return reject(Ineligible::Wrapper,
                  "it is a wrapper cacs made (a shield or a C entry), which "
                  "must keep the C convention");
  if (F.getName() == "main")
    return reject(Ineligible::Main, "it is 'main'");
  if (F.hasFnAttribute(Attribute::Naked))
    return reject(Ineligible::Naked, "it is naked");
  CallingConv::ID CC = F.getCallingConv();
  if (CC == CallingConv::X86_INTR)
    return reject(Ineligible::CallingConv,
                  "it is an interrupt handler (x86_intrcc)");
  // The optimizer gives internal functions fastcc and coldcc; that is no
  // choice of the source, and every call of them is in the module.
  bool Changeable = CC == CallingConv::C || CC == CallingConv::PreserveNone ||
                    ((CC == CallingConv::Fast || CC == CallingConv::Cold) &&
                     F.hasLocalLinkage());
  if (!Changeable)
    return reject(Ineligible::CallingConv,
                  "it has another calling convention (" + ccName(CC) + ")");
  if (F.isVarArg())
    return reject(Ineligible::VarArg, "it is variadic");
  // byval, inalloca and preallocated arguments are passed without a copy
  // under preserve_none (the callee writes the caller's object); the swift*
  // registers have no defined lowering under it.
  static const Attribute::AttrKind Kinds[] = {
      Attribute::ByVal,     Attribute::InAlloca,   Attribute::Preallocated,
      Attribute::SwiftSelf, Attribute::SwiftError, Attribute::SwiftAsync};
  for (unsigned I = 0; I < F.arg_size(); ++I)
    for (Attribute::AttrKind K : Kinds)
      if (F.hasParamAttribute(I, K))
        return reject(Ineligible::ParamAttr,
                      "its parameter " + std::to_string(I + 1) + " is " +
                          Attribute::getNameFromAttrKind(K).str());
  if (splitInt128Crashes(*F.getFunctionType(), *F.getParent()))
    return reject(Ineligible::SplitInt128,
                  "it takes two 128-bit integer arguments after more than "
                  "the integer argument registers hold, which LLVM 22 cannot "
                  "lower under preserve_none on x86-64");
  return {};
}

/// Does the backend stop on a preserve_none function that realigns its
/// stack and allocates it dynamically ("Stack realignment in presence of
/// dynamic allocas is not supported with this calling convention")? x86-64
/// until LLVM 22, whose preserve_none keeps rbx for the base pointer.
static bool realignedDynamicStackUnsupported(const RuleContext &RC) {
  return RC.isX86_64() && LLVM_VERSION_MAJOR < 22;
}

static Eligibility dynamicStack() {
  return reject(Ineligible::DynamicStack,
                "it allocates stack dynamically, and its frame may need a "
                "base pointer, which preserve_none does not support");
}

/// The first integer argument of \p F that \p U clobbers, if F has that
/// many; else 0.
static unsigned clobberedArgument(const Function &F, const RuleContext &RC,
                                  ScratchUser U) {
  unsigned First = firstClobberedArgument(RC, U);
  bool Reached = First && integerArgumentRegisters(*F.getFunctionType(),
                                                   F.getAttributes()) >= First;
  return Reached ? First : 0;
}

static Eligibility checkLowering(const Function &F, RuleContext &RC) {
  if (F.isDeclaration())
    return {};
  if (realignedDynamicStackUnsupported(RC) && RC.mayHaveDynamicStack(F))
    return dynamicStack();
  // The inline stack probe loop of a large frame keeps its bound in r11
  // (x86-64) or x9 (AArch64) before the body reads the arguments.
  if (F.getFnAttribute("probe-stack").getValueAsString() == "inline-asm")
    if (unsigned First = clobberedArgument(F, RC, ScratchUser::StackProbe))
      return reject(Ineligible::ProbedScratchArgument,
                    "its stack frame may be probed (-fstack-clash-protection) "
                    "by a loop that uses " +
                        std::string(RC.isX86_64() ? "r11" : "x9") +
                        ", which carries its integer argument " +
                        std::to_string(First));
  // The -fsplit-stack prologue compares the stack limit through r11 and
  // passes the argument size to __morestack in it (x86-64).
  if (F.hasFnAttribute("split-stack"))
    if (unsigned First = clobberedArgument(F, RC, ScratchUser::SplitStack))
      return reject(Ineligible::ProbedScratchArgument,
                    "its prologue checks the stack limit (-fsplit-stack) "
                    "through r11, which carries its integer argument " +
                        std::to_string(First));
  if (hasEntryHook(F))
    if (unsigned First = clobberedArgument(F, RC, ScratchUser::EntryHook))
      return reject(Ineligible::EntryHookArgument,
                    "its entry calls a hook before the prologue (-mfentry, "
                    "-fpatchable-function-entry) that need not preserve " +
                        std::string(RC.isX86_64()
                                        ? "r11, its integer argument "
                                        : "x9-x15, its integer arguments "
                                          "from ") +
                        std::to_string(First));
  return {};
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

const CallInst *cacs::firstMustTailCall(const Function &F) {
  for (const BasicBlock &BB : F)
    if (const CallInst *CI = BB.getTerminatingMustTailCall())
      return CI;
  return nullptr;
}

static Eligibility checkBody(const Function &F, RuleContext &RC) {
  if (F.isDeclaration())
    return {};
  if (firstMustTailCall(F))
    return reject(Ineligible::MustTail, "it makes a musttail call");
  if (RC.mayHaveDynamicStack(F))
    return dynamicStack();
  return {};
}

/// A name for a user of a function in a message.
static std::string describeUser(const Value *U) {
  if (const auto *I = dyn_cast<Instruction>(U))
    return ("by " + Twine(I->getOpcodeName()) + " in '" +
            I->getFunction()->getName() + "'")
        .str();
  if (const auto *GV = dyn_cast<GlobalValue>(U))
    return ("by global '" + GV->getName() + "'").str();
  return "by a constant (a global initializer or a constant expression)";
}

static Eligibility checkVisibility(const Function &F, RuleContext &RC) {
  if (F.isInterposable())
    return reject(Ineligible::Interposable,
                  "it is interposable: another definition may replace it "
                  "at link time");
  if (!F.hasLocalLinkage())
    return reject(Ineligible::NotLocal,
                  "it is visible outside the module, where callers keep the "
                  "C convention");
  if (RC.isUsed(F))
    return reject(Ineligible::Used, "it is in llvm.used or llvm.compiler.used");
  return {};
}

static Eligibility checkCallers(const Function &F, RuleContext &RC) {
  for (const BasicBlock &BB : F)
    if (BB.hasAddressTaken())
      return reject(Ineligible::BlockAddress,
                    "the address of one of its blocks is taken");
  // Every use must be a direct call or invoke of F with F's own type, so
  // that every call site can be rewritten with it.
  for (const Use &U : F.uses()) {
    const User *Usr = U.getUser();
    if (isa<GlobalAlias>(Usr))
      return reject(Ineligible::Aliased,
                    ("it is aliased by '" + Usr->getName() + "'").str(), Usr);
    if (isa<GlobalIFunc>(Usr))
      return reject(
          Ineligible::IFunc,
          ("it is the resolver of ifunc '" + Usr->getName() + "'").str(), Usr);
    const auto *CB = dyn_cast<CallBase>(Usr);
    if (!CB || !CB->isCallee(&U) || !(isa<CallInst>(CB) || isa<InvokeInst>(CB)))
      return reject(Ineligible::AddressTaken,
                    "its address is taken " + describeUser(Usr), Usr);
    if (CB->getFunctionType() != F.getFunctionType())
      return reject(Ineligible::CastedCall,
                    "it is called with a different function type " +
                        describeUser(Usr),
                    Usr);
    const Function *Caller = CB->getFunction();
    if (CB->isMustTailCall())
      return reject(
          Ineligible::MustTailCallSite,
          ("'" + Caller->getName() + "' calls it with musttail").str(), Caller);
    if (ReservedRegisterHazard H = reservedRegisterHazard(
            *Caller, *CB->getFunctionType(), CB->getAttributes(), &F, RC))
      return reject(
          Ineligible::CallerReservedRegister,
          ("its caller '" + Caller->getName() + "' reserves " + H.Reg +
           " (-ffixed-" + H.Reg + "), " +
           (H.What == ReservedRegisterHazard::Argument
                ? "in which the call would pass its integer argument " +
                      Twine(H.Number)
            : H.What == ReservedRegisterHazard::Restore
                ? Twine("which it would no longer preserve")
                : "which it would no longer preserve: it does not "
                  "reserve " +
                      Twine(H.Reg)))
              .str(),
          Caller);
    // A call that would need a shield once it is preserve_none: infecting
    // would only move the cost into the shield.
    switch (needsShield(*CB, RC)) {
    case ShieldReason::None:
      break;
    case ShieldReason::BasePointer:
      return reject(Ineligible::CallerDynamicStack,
                    ("its caller '" + Caller->getName() +
                     "' allocates stack dynamically, and a base pointer is "
                     "not kept across preserve_none calls")
                        .str(),
                    Caller);
    case ShieldReason::SjLjSetjmp:
      return reject(Ineligible::CallerSjLjSetjmp,
                    ("its caller '" + Caller->getName() +
                     "' calls __builtin_setjmp, whose landing block reloads "
                     "values from spill slots that a preserve_none call's "
                     "spills may reuse")
                        .str(),
                    Caller);
    case ShieldReason::ReservedRegister:
      llvm_unreachable("reservedRegisterHazard rejected it above");
    case ShieldReason::Cold:
    case ShieldReason::ColdWait:
      llvm_unreachable("needsShield asks only for safety");
    case ShieldReason::FastISel:
      return reject(
          Ineligible::CallerOptNone,
          ("its caller '" + Caller->getName() + "' is " +
           (Caller->hasOptNone()
                ? "optnone"
                : "lowered by FastISel (-O0 code generation or -mllvm "
                  "-fast-isel)") +
           ", and AArch64 FastISel would pass the call's arguments "
           "in the C registers")
              .str(),
          Caller);
    }
  }
  return {};
}

Eligibility cacs::canTakePreserveNone(const Function &F, RuleContext &RC,
                                      unsigned Questions) {
  Eligibility E;
  // Whether every caller is in view comes first: it is the common reason.
  if ((Questions & AskCallers) && !(E = checkVisibility(F, RC)))
    return E;
  if ((Questions & AskSignature) && !(E = checkSignature(F)))
    return E;
  if ((Questions & AskLowering) && !(E = checkLowering(F, RC)))
    return E;
  if ((Questions & AskBody) && !(E = checkBody(F, RC)))
    return E;
  if ((Questions & AskCallers) && !(E = checkCallers(F, RC)))
    return E;
  return {};
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

/// Does a caller that uses a base pointer lose it across this preserve_none
/// call? x86-64 was fixed by LLVM 22, which saves rbx around a call, but not
/// around an invoke: there the backend stops with "Stack realignment in
/// presence of dynamic allocas is not supported with this calling
/// convention" (a C++ frame with ASan, or an over-aligned local and a VLA,
/// calling a preserve_none function inside a destructor's scope); nor
/// around a call with arguments on the stack ("Interference usage of base
/// pointer/frame pointer"). AArch64 does not save x19 in 19 nor in 22.
static bool basePointerLostAcrossCall(const CallBase &CB,
                                      const RuleContext &RC) {
  // Other targets: assume the worst.
  return !(RC.isX86_64() && LLVM_VERSION_MAJOR >= 22) || isa<InvokeInst>(CB) ||
         mayPassArgumentsOnStack(CB);
}

/// Does \p F call __builtin_setjmp? __builtin_longjmp lands in a block
/// that reloads every value it needs from its spill slot, but no edge of the
/// CFG leads there from the calls that may longjmp, and the function is not
/// marked as calling a returns_twice function (a libc setjmp is), so
/// StackSlotColoring gives those slots to values spilled after the setjmp.
/// Across a C call the values stay in callee-saved registers; a
/// preserve_none call spills all of them: x86-64 LLVM 19 and 22, stock clang
/// with the attribute too (test/Hazards/builtin-setjmp-spill-slots.c).
static bool callsSjLjSetjmp(const Function &F) {
  const Function *SjLj =
      F.getParent()->getFunction(Intrinsic::getName(Intrinsic::eh_sjlj_setjmp));
  return SjLj && any_of(SjLj->users(), [&](const User *U) {
           const auto *CB = dyn_cast<CallBase>(U);
           return CB && CB->getFunction() == &F;
         });
}

ShieldReason cacs::needsShield(const CallBase &CB, RuleContext &RC) {
  const Function &Caller = *CB.getFunction();
  if (basePointerLostAcrossCall(CB, RC) && RC.mayHaveDynamicStack(Caller))
    return ShieldReason::BasePointer;
  if (callsSjLjSetjmp(Caller))
    return ShieldReason::SjLjSetjmp;
  // FastISel leaves variadic calls to SelectionDAG, which gets them right.
  if (RC.isAArch64() && (Caller.hasOptNone() || RC.mayFastISelLowerAll()) &&
      !CB.getFunctionType()->isVarArg())
    return ShieldReason::FastISel;
  if (reservedRegisterHazard(Caller, *CB.getFunctionType(), CB.getAttributes(),
                             CB.getCalledFunction(), RC)
          .What == ReservedRegisterHazard::Restore)
    return ShieldReason::ReservedRegister;
  return ShieldReason::None;
}

bool cacs::canRouteThroughShield(const CallBase &CB) {
  const auto *CI = dyn_cast<CallInst>(&CB);
  return !(CI && CI->isMustTailCall()) && !CB.hasOperandBundles() &&
         !CB.getFunctionType()->isVarArg();
}

/// Can a shield make \p CB's call exactly as the call site does, and has it
/// something to gain? The safety pass reports the calls it cannot shield when
/// a shield is needed; a shield for speed is simply not made.
static bool shieldKeepsCall(const CallBase &CB) {
  if (!canRouteThroughShield(CB) || CB.isInlineAsm())
    return false;
  // setjmp-like: the second return would come back into the shield's
  // frame, gone by then. A call that does not return leaves no value live
  // across it, so the allocator has nothing to keep in memory.
  if (CB.hasFnAttr(Attribute::ReturnsTwice) || CB.doesNotReturn())
    return false;
  const Function *Callee = CB.getCalledFunction();
  return !Callee || !Callee->isIntrinsic();
}

/// Is \p SI a counter update, `store (add/sub (load P), C), P`, whose load
/// and arithmetic serve it alone? Returns the load.
static const LoadInst *counterLoad(const StoreInst &SI) {
  auto *Op = dyn_cast<BinaryOperator>(SI.getValueOperand());
  if (!Op || !Op->hasOneUse() ||
      (Op->getOpcode() != Instruction::Add &&
       Op->getOpcode() != Instruction::Sub) ||
      !isa<Constant>(Op->getOperand(1)))
    return nullptr;
  auto *Load = dyn_cast<LoadInst>(Op->getOperand(0));
  if (!Load || !Load->hasOneUse() ||
      Load->getPointerOperand()->stripPointerCasts() !=
          SI.getPointerOperand()->stripPointerCasts())
    return nullptr;
  return Load;
}

/// A wait loop has at most this many instructions (debug ones aside).
static constexpr unsigned MaxWaitLoopSize = 32;

/// Is \p W a wait loop around \p Yield (see isRareWait): besides the yield,
/// only reads of memory, what decides whether to go on waiting, and counter
/// updates, so that nothing but memory carries from one round to the next?
static bool isWaitLoop(const Loop &W, const CallBase &Yield) {
  SmallPtrSet<const Value *, 4> Counters;
  SmallPtrSet<const Instruction *, 8> CounterWork;
  for (const BasicBlock *BB : W.blocks())
    for (const Instruction &I : *BB)
      if (const auto *SI = dyn_cast<StoreInst>(&I)) {
        const LoadInst *Load = counterLoad(*SI);
        if (!Load)
          return false;
        Counters.insert(SI->getPointerOperand()->stripPointerCasts());
        CounterWork.insert(Load);
        CounterWork.insert(cast<Instruction>(SI->getValueOperand()));
      }
  unsigned Size = 0;
  for (const BasicBlock *BB : W.blocks())
    for (const Instruction &I : *BB) {
      if (I.isDebugOrPseudoInst())
        continue;
      if (++Size > MaxWaitLoopSize)
        return false;
      if (&I == &Yield || isa<StoreInst>(I) || CounterWork.contains(&I))
        continue;
      // What the wait reads must not be a counter it keeps itself: then
      // it would count, not wait.
      if (const auto *Load = dyn_cast<LoadInst>(&I)) {
        if (Counters.contains(Load->getPointerOperand()->stripPointerCasts()))
          return false;
        continue;
      }
      if (isa<CmpInst, BranchInst, GetElementPtrInst, CastInst>(I))
        continue;
      if (I.getType()->isIntegerTy(1) && (I.getOpcode() == Instruction::And ||
                                          I.getOpcode() == Instruction::Or ||
                                          I.getOpcode() == Instruction::Xor))
        continue;
      // A phi may bring round only what the loop read.
      if (const auto *Phi = dyn_cast<PHINode>(&I)) {
        for (unsigned K = 0, E = Phi->getNumIncomingValues(); K != E; ++K) {
          const auto *In = dyn_cast<Instruction>(Phi->getIncomingValue(K));
          if (W.contains(Phi->getIncomingBlock(K)) &&
              !(In && isa<LoadInst>(In) && W.contains(In)))
            return false;
        }
        continue;
      }
      // Another call, arithmetic, a select, an atomic update, a fence.
      return false;
    }
  return true;
}

/// Collects into \p Out the constants \p V may be when control comes round
/// the work loop \p L: what L stores to the memory V reads, what a phi
/// brings round L, and what a comparison or a cast of those folds to.
static void constantsComingRound(const Value *V, const Loop &L,
                                 const DataLayout &DL,
                                 SmallVectorImpl<Constant *> &Out,
                                 unsigned Depth = 0) {
  constexpr unsigned MaxDepth = 4, MaxConstants = 16;
  if (Depth > MaxDepth || Out.size() >= MaxConstants)
    return;
  if (const auto *C = dyn_cast<Constant>(V)) {
    Out.push_back(const_cast<Constant *>(C));
    return;
  }
  if (const auto *Load = dyn_cast<LoadInst>(V)) {
    const Value *P = Load->getPointerOperand()->stripPointerCasts();
    for (const BasicBlock *BB : L.blocks())
      for (const Instruction &I : *BB)
        if (const auto *SI = dyn_cast<StoreInst>(&I))
          if (SI->getPointerOperand()->stripPointerCasts() == P &&
              SI->getValueOperand()->getType() == Load->getType())
            if (const auto *C = dyn_cast<Constant>(SI->getValueOperand()))
              Out.push_back(const_cast<Constant *>(C));
    return;
  }
  if (const auto *Phi = dyn_cast<PHINode>(V)) {
    for (unsigned K = 0, E = Phi->getNumIncomingValues(); K != E; ++K)
      if (L.contains(Phi->getIncomingBlock(K)))
        constantsComingRound(Phi->getIncomingValue(K), L, DL, Out, Depth + 1);
    return;
  }
  if (const auto *Cmp = dyn_cast<CmpInst>(V)) {
    SmallVector<Constant *, 4> A, B;
    constantsComingRound(Cmp->getOperand(0), L, DL, A, Depth + 1);
    constantsComingRound(Cmp->getOperand(1), L, DL, B, Depth + 1);
    for (Constant *X : A)
      for (Constant *Y : B)
        if (Constant *R =
                ConstantFoldCompareInstOperands(Cmp->getPredicate(), X, Y, DL))
          Out.push_back(R);
    return;
  }
  if (const auto *Cast = dyn_cast<CastInst>(V)) {
    SmallVector<Constant *, 4> A;
    constantsComingRound(Cast->getOperand(0), L, DL, A, Depth + 1);
    for (Constant *X : A)
      if (Constant *R = ConstantFoldCastOperand(Cast->getOpcode(), X,
                                                Cast->getType(), DL))
        Out.push_back(R);
  }
}

bool cacs::isRareWait(const CallBase &CB, const LoopInfo &LI) {
  const Loop *W = LI.getLoopFor(CB.getParent());
  if (!W || !W->getParentLoop() || !isWaitLoop(*W, CB))
    return false;
  const Loop &L = *W->getParentLoop();
  // The branches that decide whether to wait, each with the successor that
  // waits: W's exits, and the branches of L that enter W (the guard of a
  // rotated `while`).
  SmallVector<std::pair<const BranchInst *, const BasicBlock *>, 4> Decisions;
  for (const BasicBlock *BB : W->blocks())
    if (const auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
        Br && Br->isConditional())
      for (unsigned K = 0; K != 2; ++K)
        if (W->contains(Br->getSuccessor(K)) &&
            !W->contains(Br->getSuccessor(1 - K)))
          Decisions.push_back({Br, Br->getSuccessor(K)});
  for (const BasicBlock *Pred : predecessors(W->getHeader()))
    if (const auto *Br = dyn_cast<BranchInst>(Pred->getTerminator());
        !W->contains(Pred) && Br && Br->isConditional() &&
        Br->getSuccessor(0) != Br->getSuccessor(1))
      Decisions.push_back({Br, W->getHeader()});
  if (Decisions.empty())
    return false;
  const DataLayout &DL = CB.getModule()->getDataLayout();
  for (auto [Br, WaitSucc] : Decisions) {
    // A hint or a profile says how often it waits: the block frequencies
    // know it.
    if (hasBranchWeightMD(*Br))
      return false;
    // Armed: a value that comes round L makes it wait.
    bool WaitsIf = Br->getSuccessor(0) == WaitSucc;
    SmallVector<Constant *, 8> Round;
    constantsComingRound(Br->getCondition(), L, DL, Round);
    for (Constant *C : Round)
      if (const auto *CI = dyn_cast<ConstantInt>(C);
          CI && CI->getType()->isIntegerTy(1) && CI->isOne() == WaitsIf)
        return false;
  }
  return true;
}

/// Is the cold-shield setting \p On, recorded per function as \p Attr, on
/// for \p F: on in this pass, and not recorded off by F's compile?
static bool coldSettingOn(bool On, const Function &F, StringRef Attr) {
  return On && F.getFnAttribute(Attr).getValueAsString() != "false";
}

bool cacs::recordColdShieldSettings(Module &M) {
  bool Changed = false;
  for (auto [On, Attr] :
       {std::pair(coldCallShieldEnabled(), ColdCallShieldAttr),
        std::pair(coldWaitLoopEnabled(), ColdWaitLoopAttr)}) {
    if (On)
      continue;
    for (Function &F : M)
      if (!F.isDeclaration() && coldSettingOn(true, F, Attr)) {
        F.addFnAttr(Attr, "false");
        Changed = true;
      }
  }
  return Changed;
}

ShieldReason
cacs::shieldsColdCall(const CallBase &CB, const RuleContext &RC,
                      function_ref<const BlockFrequencyInfo &()> GetBFI,
                      function_ref<const LoopInfo &()> GetLI,
                      const ProfileSummaryInfo *PSI) {
  const Function &Caller = *CB.getFunction();
  if (!coldSettingOn(coldCallShieldEnabled(), Caller, ColdCallShieldAttr) ||
      RC.codeGenAtO0() || Caller.hasOptNone() ||
      CB.getCallingConv() != CallingConv::PreserveNone || !shieldKeepsCall(CB))
    return ShieldReason::None;
  const BasicBlock *BB = CB.getParent();
  const BlockFrequencyInfo &BFI = GetBFI();
  if (PSI && PSI->hasProfileSummary())
    return PSI->isColdBlock(BB, &BFI) ? ShieldReason::Cold : ShieldReason::None;
  uint64_t Hottest = 0;
  for (const BasicBlock &B : Caller)
    Hottest = std::max(Hottest, BFI.getBlockFreq(&B).getFrequency());
  uint64_t Freq = BFI.getBlockFreq(BB).getFrequency();
  // Freq * ColdCallRatio <= Hottest, without overflow.
  if (Freq <= Hottest / ColdCallRatio)
    return ShieldReason::Cold;
  if (coldSettingOn(coldWaitLoopEnabled(), Caller, ColdWaitLoopAttr) &&
      isRareWait(CB, GetLI()))
    return ShieldReason::ColdWait;
  return ShieldReason::None;
}

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
