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
// or defined) and walks the direct call edges backwards (walkSwitchCallers,
// the walk of the functions that can reach a switch). Each caller is decided
// once: it is infected (it and every call site of it get preserve_nonecc,
// in one step, so that no call ever mismatches its callee) when it is
// eligible, and otherwise an OptimizationRemarkMissed says why.
// Every call edge is visited at most once, so the pass is linear in the size
// of the call graph.
//
// A function is eligible when cacs::canTakePreserveNone (PreserveNoneRules.h)
// says so with every question asked: every caller is in the module and can
// be rewritten (local, not interposable, not in llvm.used, its address and
// no block address taken, no alias or ifunc, no casted or musttail call, no
// caller with a dynamic stack or, on AArch64, an optnone caller); its
// signature can take the convention (the one rule the list pass asks too);
// its frame is not probed by a loop that clobbers an argument register
// (-fstack-clash-protection with 11+ integer arguments on x86-64); and it has
// no musttail call and no dynamic stack, now or after AddressSanitizer.
// An infected function carries APNInfectedAttr: the safety pass reverts it,
// with its call sites, if later steps make it ineligible.
//
// In the full-LTO link (Phase::LTOLink) only functions that carry
// APNEnabledAttr are eligible, so that each translation unit's
// -f[no-]auto-preserve-none is honoured; the per-TU run (Phase::PerTU) puts
// that attribute on every definition of its module before it infects.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/AutoPreserveNone.h"
#include "cacs-compiler/PreserveNoneRulesEligibility.h"
#include "cacs-compiler/SwitchCallers.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cacs;

#define DEBUG_TYPE "auto-preserve-none"

STATISTIC(NumInfected, "Number of functions made preserve_none");
STATISTIC(NumCallSitesRewritten,
          "Number of call sites rewritten to preserve_none");
STATISTIC(NumRejectedNotEnabled,
          "Rejected: compiled without -fauto-preserve-none");
STATISTIC(NumRejected, "Rejected: not eligible (see the remarks)");

namespace {

/// The remark name of a reason.
StringRef remarkName(Ineligible Why) {
  switch (Why) {
  case Ineligible::None:
    return "Eligible";
  case Ineligible::Wrapper:
    return "Wrapper";
  case Ineligible::Main:
    return "Main";
  case Ineligible::Naked:
    return "Naked";
  case Ineligible::CallingConv:
    return "CallingConv";
  case Ineligible::VarArg:
    return "VarArg";
  case Ineligible::ParamAttr:
    return "ParamAttr";
  case Ineligible::SplitInt128:
    return "SplitInt128";
  case Ineligible::ProbedScratchArgument:
    return "ProbedScratchArgument";
  case Ineligible::EntryHookArgument:
    return "EntryHookArgument";
  case Ineligible::MustTail:
    return "MustTail";
  case Ineligible::DynamicStack:
    return "DynamicStack";
  case Ineligible::Interposable:
    return "Interposable";
  case Ineligible::NotLocal:
    return "NotLocal";
  case Ineligible::Used:
    return "Used";
  case Ineligible::BlockAddress:
    return "BlockAddress";
  case Ineligible::Aliased:
    return "Aliased";
  case Ineligible::IFunc:
    return "IFunc";
  case Ineligible::CastedCall:
    return "CastedCall";
  case Ineligible::AddressTaken:
    return "AddressTaken";
  case Ineligible::MustTailCallSite:
    return "MustTailCallSite";
  case Ineligible::CallerReservedRegister:
    return "CallerReservedRegister";
  case Ineligible::CallerDynamicStack:
    return "CallerDynamicStack";
  case Ineligible::CallerSjLjSetjmp:
    return "CallerSjLjSetjmp";
  case Ineligible::CallerOptNone:
    return "CallerOptNone";
  }
  return "";
}

class AutoPreserveNone {
public:
  AutoPreserveNone(Module &M, FunctionAnalysisManager &FAM,
                   AutoPreserveNonePass::Phase P)
      : M(M), FAM(FAM), P(P), RC(M) {}

  bool run();

private:
  Eligibility check(const Function &F);
  void infect(Function &F, const Function &Callee);
  void explain(Function &F, const Function &Callee, const Eligibility &E);
  OptimizationRemarkEmitter &ore(Function &F) {
    return FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  }

  Module &M;
  FunctionAnalysisManager &FAM;
  AutoPreserveNonePass::Phase P;
  RuleContext RC;
};

} // namespace

Eligibility AutoPreserveNone::check(const Function &F) {
  if (P == AutoPreserveNonePass::Phase::LTOLink &&
      !F.hasFnAttribute(APNEnabledAttr)) {
    Eligibility E;
    E.Why = Ineligible::NotLocal; // Reported as NotEnabled by explain().
    E.Detail = "it was compiled without -fauto-preserve-none";
    return E;
  }
  return canTakePreserveNone(F, RC, AskAll);
}

void AutoPreserveNone::infect(Function &F, const Function &Callee) {
  F.setCallingConv(CallingConv::PreserveNone);
  // The safety pass may revert what later steps made ineligible; only what
  // AutoPreserveNone did is its to revert.
  F.addFnAttr(APNInfectedAttr);
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

void AutoPreserveNone::explain(Function &F, const Function &Callee,
                               const Eligibility &E) {
  StringRef Name = remarkName(E.Why);
  if (P == AutoPreserveNonePass::Phase::LTOLink &&
      !F.hasFnAttribute(APNEnabledAttr)) {
    Name = "NotEnabled";
    ++NumRejectedNotEnabled;
  } else {
    ++NumRejected;
  }
  ore(F).emit([&] {
    return OptimizationRemarkMissed(DEBUG_TYPE, Name, &F)
           << "'" << ore::NV("Function", F.getName())
           << "' calls preserve_none '" << ore::NV("Callee", Callee.getName())
           << "' but is not made preserve_none: "
           << ore::NV("Reason", E.Detail);
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

  // The walk (SwitchCallers.h) goes on through the callers it infects.
  walkSwitchCallers(M, [&](Function &Caller, Function &Callee) {
    Eligibility E = check(Caller);
    if (!E) {
      explain(Caller, Callee, E);
      return false;
    }
    infect(Caller, Callee);
    Changed = true;
    return true;
  });
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
