//===- PreserveNoneRulesEligibility.cpp - May a function take it ----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// canTakePreserveNone: signature, lowering, body and callers, each a
// question of its own.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneRulesEligibility.h"
#include "cacs-compiler/PreserveNoneRulesShield.h"
#include "cacs-compiler/PreserveNoneRulesWrapper.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace cacs;

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

/// Does x86-64 LLVM 22 crash lowering a preserve_none function or call of
/// \p FTy (a null dereference in the argument assignment)? It does when a
/// second 128-bit integer (__int128) argument comes after the twelve integer
/// registers have run short: 9 or 11 i64 then two i128 (LLVM 19 and
/// AArch64 lower every shape; test/Hazards/int128-register-pairs.c). Counted
/// conservatively: two such arguments and more than twelve registers' worth.
static bool splitInt128Crashes(const FunctionType &FTy, const Module &M) {
  if (LLVM_VERSION_MAJOR < 22 ||
      Triple(M.getTargetTriple()).getArch() != Triple::x86_64)
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
