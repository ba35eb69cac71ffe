//===- AutoPreserveNone.cpp - Automatic preserve_none propagation ---------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A function that calls a preserve_none function has to save, in its own
// prologue, every callee-saved register it uses across that call: the cost
// the convention removed from the callee comes back in the caller. When no
// code outside the module can call the caller, it can take preserve_nonecc
// too, so that its own callers pay instead, and so on up the call graph.
//
// The pass starts from every preserve_nonecc function of the module (declared
// or defined) and walks the direct call edges backwards over a worklist. Each
// caller is decided once: it is infected (it and every call site of it get
// preserve_nonecc, in one step, so that no call ever mismatches its callee)
// when it is eligible, and otherwise an OptimizationRemarkMissed says why.
// Every call edge is visited at most once, so the pass is linear in the size
// of the call graph.
//
// A function is eligible when
//  - it is a definition with local linkage (so all its callers are in the
//    module), not interposable, not main, not in llvm.used or
//    llvm.compiler.used, not the aliasee of an alias or the resolver of an
//    ifunc, and not naked;
//  - every use of it is the callee operand of a direct call or invoke of its
//    own type: its address is never taken, and no block address of it is;
//  - its convention is C or fastcc (other conventions were asked for);
//  - it is not variadic and has no byval, inalloca, preallocated, swiftself,
//    swifterror or swiftasync parameter (LLVM 19's x86-64 lowering of
//    preserve_none miscompiles varargs and byval; the rest has no defined
//    lowering under preserve_none);
//  - no musttail call is in it or calls it (the conventions of both ends of
//    a musttail call must match);
//  - neither it nor any function calling it has a dynamically sized stack
//    frame (see cacs/StackFrame.h);
//  - on AArch64, no function calling it is optnone: AArch64 FastISel, which
//    lowers optnone functions when the code generator optimizes (a -O0
//    translation unit in an -O2 full-LTO link, __attribute__((optnone)) at
//    -O2, or a GlobalISel fallback at -O0), passes the arguments of a
//    preserve_none call in the C argument registers (LLVM 19 and 22).
//
// In the full-LTO link (Phase::LTOLink) only functions that carry
// APNEnabledAttr are eligible, so that each translation unit's
// -f[no-]auto-preserve-none is honoured; the per-TU run (Phase::PerTU) puts
// that attribute on every definition of its module before it infects.
//
//===----------------------------------------------------------------------===//

#include "cacs/AutoPreserveNone.h"
#include "cacs/StackFrame.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace cacs;

#define DEBUG_TYPE "auto-preserve-none"

STATISTIC(NumInfected, "Number of functions made preserve_none");
STATISTIC(NumCallSitesRewritten,
          "Number of call sites rewritten to preserve_none");
STATISTIC(NumRejectedNotEnabled,
          "Rejected: compiled without -fauto-preserve-none");
STATISTIC(NumRejectedLinkage, "Rejected: interposable or not local");
STATISTIC(NumRejectedMain, "Rejected: main");
STATISTIC(NumRejectedUsed, "Rejected: in llvm.used or llvm.compiler.used");
STATISTIC(NumRejectedNaked, "Rejected: naked");
STATISTIC(NumRejectedCC, "Rejected: explicit calling convention");
STATISTIC(NumRejectedVarArg, "Rejected: variadic");
STATISTIC(NumRejectedParamAttr,
          "Rejected: byval/inalloca/preallocated/swift* parameter");
STATISTIC(NumRejectedMustTail, "Rejected: musttail in it or at a call site");
STATISTIC(NumRejectedDynStack, "Rejected: dynamic stack in it or in a caller");
STATISTIC(NumRejectedOptNoneCaller, "Rejected: optnone caller on AArch64");
STATISTIC(NumRejectedAddressTaken,
          "Rejected: address taken, aliased, or an ifunc resolver");

namespace {

/// Does \p F contain a musttail call?
bool hasMustTailCall(const Function &F) {
  for (const BasicBlock &BB : F)
    if (BB.getTerminatingMustTailCall())
      return true;
  return false;
}

/// The name of the first parameter attribute of \p F that preserve_none
/// cannot take, or an empty string.
StringRef unsupportedParamAttr(const Function &F) {
  static const Attribute::AttrKind Kinds[] = {
      Attribute::ByVal,     Attribute::InAlloca,   Attribute::Preallocated,
      Attribute::SwiftSelf, Attribute::SwiftError, Attribute::SwiftAsync};
  for (const Argument &A : F.args())
    for (Attribute::AttrKind K : Kinds)
      if (A.hasAttribute(K))
        return Attribute::getNameFromAttrKind(K);
  return "";
}

/// Why a function cannot be made preserve_none; or Eligible.
enum class Rejection {
  Eligible,
  NotEnabled,
  Interposable,
  NotLocal,
  Main,
  Used,
  Naked,
  CallingConv,
  VarArg,
  ParamAttr,
  MustTail,
  MustTailCallSite,
  DynamicStack,
  CallerDynamicStack,
  CallerOptNone,
  BlockAddress,
  Aliased,
  IFunc,
  CastedCall,
  AddressTaken,
};

/// The outcome of the eligibility check: the reason, and what it is about.
struct Verdict {
  Rejection Why = Rejection::Eligible;
  /// The parameter attribute (ParamAttr).
  StringRef Attr;
  /// The offending user (Aliased, IFunc, AddressTaken, CastedCall), or the
  /// calling function (CallerDynamicStack, CallerOptNone, MustTailCallSite).
  const Value *Other = nullptr;
};

class AutoPreserveNone {
public:
  AutoPreserveNone(Module &M, FunctionAnalysisManager &FAM,
                   AutoPreserveNonePass::Phase P)
      : M(M), FAM(FAM), P(P),
        IsAArch64(Triple(M.getTargetTriple()).isAArch64()) {}

  bool run();

private:
  Verdict check(const Function &F);
  bool dynamicStack(const Function &F);
  void infect(Function &F, const Function &Callee);
  void explain(Function &F, const Function &Callee, const Verdict &V);
  OptimizationRemarkEmitter &ore(Function &F) {
    return FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  }

  Module &M;
  FunctionAnalysisManager &FAM;
  AutoPreserveNonePass::Phase P;
  /// Calls from optnone functions cannot be lowered safely (see above).
  bool IsAArch64;
  SmallPtrSet<const GlobalValue *, 8> Used;
  /// hasDynamicStack, computed once per function.
  DenseMap<const Function *, bool> DynamicStack;
};

} // namespace

bool AutoPreserveNone::dynamicStack(const Function &F) {
  auto [It, Inserted] = DynamicStack.try_emplace(&F, false);
  if (Inserted)
    It->second = cacs::hasDynamicStack(F);
  return It->second;
}

Verdict AutoPreserveNone::check(const Function &F) {
  auto Reject = [](Rejection R, const Value *Other = nullptr) {
    Verdict V;
    V.Why = R;
    V.Other = Other;
    return V;
  };

  if (P == AutoPreserveNonePass::Phase::LTOLink &&
      !F.hasFnAttribute(APNEnabledAttr))
    return Reject(Rejection::NotEnabled);
  if (F.isInterposable())
    return Reject(Rejection::Interposable);
  if (!F.hasLocalLinkage())
    return Reject(Rejection::NotLocal);
  if (F.getName() == "main")
    return Reject(Rejection::Main);
  if (Used.count(&F))
    return Reject(Rejection::Used);
  if (F.hasFnAttribute(Attribute::Naked))
    return Reject(Rejection::Naked);
  CallingConv::ID CC = F.getCallingConv();
  if (CC != CallingConv::C && CC != CallingConv::Fast)
    return Reject(Rejection::CallingConv);
  if (F.isVarArg())
    return Reject(Rejection::VarArg);
  StringRef Attr = unsupportedParamAttr(F);
  if (!Attr.empty()) {
    Verdict V = Reject(Rejection::ParamAttr);
    V.Attr = Attr;
    return V;
  }
  if (hasMustTailCall(F))
    return Reject(Rejection::MustTail);
  if (dynamicStack(F))
    return Reject(Rejection::DynamicStack);
  for (const BasicBlock &BB : F)
    if (BB.hasAddressTaken())
      return Reject(Rejection::BlockAddress);

  // Every use must be a direct call or invoke of F with F's own type, so
  // that every call site can be rewritten with it.
  for (const Use &U : F.uses()) {
    const User *Usr = U.getUser();
    if (isa<GlobalAlias>(Usr))
      return Reject(Rejection::Aliased, Usr);
    if (isa<GlobalIFunc>(Usr))
      return Reject(Rejection::IFunc, Usr);
    const auto *CB = dyn_cast<CallBase>(Usr);
    if (!CB || !CB->isCallee(&U) || !(isa<CallInst>(CB) || isa<InvokeInst>(CB)))
      return Reject(Rejection::AddressTaken, Usr);
    if (CB->getFunctionType() != F.getFunctionType())
      return Reject(Rejection::CastedCall, Usr);
    if (CB->isMustTailCall())
      return Reject(Rejection::MustTailCallSite, CB->getFunction());
    if (dynamicStack(*CB->getFunction()))
      return Reject(Rejection::CallerDynamicStack, CB->getFunction());
    if (IsAArch64 && CB->getFunction()->hasOptNone())
      return Reject(Rejection::CallerOptNone, CB->getFunction());
  }
  return {};
}

void AutoPreserveNone::infect(Function &F, const Function &Callee) {
  F.setCallingConv(CallingConv::PreserveNone);
  unsigned Rewritten = 0;
  for (User *U : F.users()) {
    // check() saw to it that every user is a call or invoke of F.
    cast<CallBase>(U)->setCallingConv(CallingConv::PreserveNone);
    ++Rewritten;
  }
  ++NumInfected;
  NumCallSitesRewritten += Rewritten;

  ore(F).emit([&] {
    return OptimizationRemark(DEBUG_TYPE, "Infected", &F)
           << "made '" << ore::NV("Function", F.getName())
           << "' preserve_none: it calls preserve_none '"
           << ore::NV("Callee", Callee.getName()) << "' ("
           << ore::NV("CallSites", Rewritten)
           << (Rewritten == 1 ? " call site" : " call sites") << " rewritten)";
  });
}

/// A name for a user of a function in a remark.
static std::string describeUser(const Value *U) {
  if (const auto *I = dyn_cast<Instruction>(U)) {
    std::string S = "by ";
    S += I->getOpcodeName();
    S += " in '";
    S += I->getFunction()->getName();
    S += "'";
    return S;
  }
  if (const auto *GV = dyn_cast<GlobalValue>(U))
    return ("by global '" + GV->getName() + "'").str();
  return "by a constant (a global initializer or a constant expression)";
}

void AutoPreserveNone::explain(Function &F, const Function &Callee,
                               const Verdict &V) {
  StringRef Name;
  std::string Why;
  switch (V.Why) {
  case Rejection::Eligible:
    return;
  case Rejection::NotEnabled:
    ++NumRejectedNotEnabled;
    Name = "NotEnabled";
    Why = "it was compiled without -fauto-preserve-none";
    break;
  case Rejection::Interposable:
    ++NumRejectedLinkage;
    Name = "Interposable";
    Why = "it is interposable: another definition may replace it at link time";
    break;
  case Rejection::NotLocal:
    ++NumRejectedLinkage;
    Name = "NotLocal";
    Why = "it is visible outside the module, where callers keep the C "
          "convention";
    break;
  case Rejection::Main:
    ++NumRejectedMain;
    Name = "Main";
    Why = "it is main";
    break;
  case Rejection::Used:
    ++NumRejectedUsed;
    Name = "Used";
    Why = "it is in llvm.used or llvm.compiler.used";
    break;
  case Rejection::Naked:
    ++NumRejectedNaked;
    Name = "Naked";
    Why = "it is naked";
    break;
  case Rejection::CallingConv:
    ++NumRejectedCC;
    Name = "CallingConv";
    Why = "it has an explicit calling convention (only C and fastcc change)";
    break;
  case Rejection::VarArg:
    ++NumRejectedVarArg;
    Name = "VarArg";
    Why = "it is variadic";
    break;
  case Rejection::ParamAttr:
    ++NumRejectedParamAttr;
    Name = "ParamAttr";
    Why = ("it has a parameter with the " + V.Attr + " attribute").str();
    break;
  case Rejection::MustTail:
    ++NumRejectedMustTail;
    Name = "MustTail";
    Why = "it makes a musttail call";
    break;
  case Rejection::MustTailCallSite:
    ++NumRejectedMustTail;
    Name = "MustTailCallSite";
    Why = ("'" + V.Other->getName() + "' calls it with musttail").str();
    break;
  case Rejection::DynamicStack:
    ++NumRejectedDynStack;
    Name = "DynamicStack";
    Why = "it allocates stack dynamically, and its frame may need a base "
          "pointer, which preserve_none does not support";
    break;
  case Rejection::CallerDynamicStack:
    ++NumRejectedDynStack;
    Name = "CallerDynamicStack";
    Why = ("its caller '" + V.Other->getName() +
           "' allocates stack dynamically, and a base pointer is not kept "
           "across preserve_none calls")
              .str();
    break;
  case Rejection::CallerOptNone:
    ++NumRejectedOptNoneCaller;
    Name = "CallerOptNone";
    Why = ("its caller '" + V.Other->getName() +
           "' is optnone, and AArch64 FastISel would pass the call's "
           "arguments in the C registers")
              .str();
    break;
  case Rejection::BlockAddress:
    ++NumRejectedAddressTaken;
    Name = "BlockAddress";
    Why = "the address of one of its blocks is taken";
    break;
  case Rejection::Aliased:
    ++NumRejectedAddressTaken;
    Name = "Aliased";
    Why = ("it is aliased by '" + V.Other->getName() + "'").str();
    break;
  case Rejection::IFunc:
    ++NumRejectedAddressTaken;
    Name = "IFunc";
    Why = ("it is the resolver of ifunc '" + V.Other->getName() + "'").str();
    break;
  case Rejection::CastedCall:
    ++NumRejectedAddressTaken;
    Name = "CastedCall";
    Why =
        "it is called with a different function type " + describeUser(V.Other);
    break;
  case Rejection::AddressTaken:
    ++NumRejectedAddressTaken;
    Name = "AddressTaken";
    Why = "its address is taken " + describeUser(V.Other);
    break;
  }

  ore(F).emit([&] {
    return OptimizationRemarkMissed(DEBUG_TYPE, Name, &F)
           << "'" << ore::NV("Function", F.getName())
           << "' calls preserve_none '" << ore::NV("Callee", Callee.getName())
           << "' but is not made preserve_none: " << ore::NV("Reason", Why);
  });
}

bool AutoPreserveNone::run() {
  bool Changed = false;
  if (P == AutoPreserveNonePass::Phase::PerTU) {
    for (Function &F : M)
      if (!F.isDeclaration() && !F.hasFnAttribute(APNEnabledAttr)) {
        F.addFnAttr(APNEnabledAttr);
        Changed = true;
      }
  }

  SmallVector<GlobalValue *, 8> UsedVec;
  collectUsedGlobalVariables(M, UsedVec, /*CompilerUsed=*/false);
  collectUsedGlobalVariables(M, UsedVec, /*CompilerUsed=*/true);
  Used.insert(UsedVec.begin(), UsedVec.end());

  // Seeds: every preserve_none function, declared or defined.
  SmallVector<Function *, 16> Worklist;
  DenseSet<const Function *> Decided;
  for (Function &F : M)
    if (F.getCallingConv() == CallingConv::PreserveNone) {
      Worklist.push_back(&F);
      Decided.insert(&F);
    }

  while (!Worklist.empty()) {
    Function *Callee = Worklist.pop_back_val();
    for (const Use &U : Callee->uses()) {
      const auto *CB = dyn_cast<CallBase>(U.getUser());
      if (!CB || !CB->isCallee(&U))
        continue;
      Function *Caller = const_cast<Function *>(CB->getFunction());
      if (!Decided.insert(Caller).second)
        continue;
      Verdict V = check(*Caller);
      if (V.Why != Rejection::Eligible) {
        explain(*Caller, *Callee, V);
        continue;
      }
      infect(*Caller, *Callee);
      Worklist.push_back(Caller);
      Changed = true;
    }
  }
  return Changed;
}

PreservedAnalyses AutoPreserveNonePass::run(Module &M,
                                            ModuleAnalysisManager &AM) {
  FunctionAnalysisManager &FAM =
      AM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  if (!AutoPreserveNone(M, FAM, P).run())
    return PreservedAnalyses::all();
  // Only calling conventions and attributes change.
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}
