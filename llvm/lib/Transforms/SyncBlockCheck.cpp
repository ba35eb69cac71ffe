//===- SyncBlockCheck.cpp - Sync blocks checked at compile time -----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A sync block (cacs/syncblock.h) promises that no other coroutine of the
// thread runs between its start and its end; libcacs aborts at run time on a
// switch inside one. This pass finds at compile time the calls inside a
// block that can reach a switch, and makes each an error naming the block
// and the path of calls to the switch, with a note for each step.
//
// Can reach a switch: a call of a preserve_none function (libcacs binds its
// yields, waits and effects' perform and resume to preserve_none entries,
// cacs/detail/bind.h; a list names more) or of a function that
// walkSwitchCallers (SwitchCallers.h), the one walk that APN infects along
// and SwitchReturns marks, reaches. So this pass runs before APN, whose
// infected functions would otherwise end the paths. Except the entries that
// libcacs's headers mark as allowed in a block
// (SyncBlockAllowsAnnotation, cacs/detail/contract.h): the I/O waits, which
// block the thread there, and an effect resume, a nested coroutine that
// comes back. The runtime lets exactly those through a block; they are no
// seeds of the walk, and a path through them does not count. What the
// module cannot see is taken not to switch: a declaration without
// preserve_none (libc, a library built without cacs; every printf would be
// an error otherwise), an indirect call, and what a resumed effect
// coroutine runs. The run-time check is the backstop for those.
//
// Inside a block: CACS_SYNC is `cacs_sync_begin(__FILE__, __LINE__)`, a
// one-pass loop, and a cleanup that calls cacs_sync_end on every way out
// (the loop's end, break, return, goto, an exception). An instruction is
// inside the block of a begin call when a path of the CFG reaches it from
// the begin with the depth of blocks still above 0: a begin adds one, an
// end takes one. So nested blocks are one walk (the error names the
// innermost block), and calls in a callee are inside when the callee is on
// the path. A return reached with the depth above 0 (a block the function
// opens with cacs_sync_begin and leaves open for its caller to close) is a
// warning: what runs after the return is not checked here.
//
// In the full-LTO link, the blocks of the functions marked by a per-TU run
// (SyncBlockCheckEnabledAttr: every definition of a unit that calls
// cacs_sync_begin) are checked again: calls into other units are visible
// there. A block the link inlines into a function of a unit that has no
// block of its own is checked in its unit and at run time only.
// -fno-sync-block-check turns the check off for a unit.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/SyncBlockCheck.h"
#include "cacs-compiler/Annotations.h"
#include "cacs-compiler/Diagnostics.h"
#include "cacs-compiler/PreserveNoneRulesEligibility.h"
#include "cacs-compiler/PreserveNoneSymbols.h"
#include "cacs-compiler/SwitchCallers.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cacs;

#define DEBUG_TYPE "sync-block-check"

STATISTIC(NumBlocks, "Number of sync blocks checked");
STATISTIC(NumErrors, "Number of calls inside a sync block that can switch");

namespace {

/// Blocks nest at most this deep in one function's walk (deeper is a loop
/// that opens blocks without closing them: the walk stops there).
constexpr unsigned MaxDepth = 64;

class SyncBlockCheck {
public:
  SyncBlockCheck(Module &M, Function &Begin, Function *End)
      : M(M), Begin(Begin), End(End) {}

  void run(bool LTOLink);

private:
  struct Inside {
    CallBase *Block; // the begin call of the innermost block
    unsigned Depth;
  };

  /// A switch itself: preserve_none, not allowed in a block, and not APN's
  /// (a full-LTO link sees the compile steps' infected functions): those
  /// are preserve_none because they call one, which the walk judges.
  bool isSwitch(const Function &F) const {
    return F.getCallingConv() == CallingConv::PreserveNone &&
           !Allowed.count(&F) && !F.hasFnAttribute(APNInfectedAttr);
  }
  bool canSwitch(const Function &F) const {
    return isSwitch(F) || Next.count(&F);
  }
  void walkBlock(CallBase &BeginCall, DenseMap<CallBase *, Inside> &Found);
  void report(CallBase &Call, CallBase &BeginCall);
  std::string blockLocation(const CallBase &BeginCall) const;

  Module &M;
  Function &Begin;
  Function *End;
  /// The entries a sync block allows (SyncBlockAllowsAnnotation).
  DenseSet<const Function *> Allowed;
  /// For each function that can reach a switch and is not one itself, the
  /// callee it reaches it through (walkSwitchCallers).
  DenseMap<const Function *, const Function *> Next;
};

std::string nameOf(const Function &F) { return sourceName(F.getName()); }

std::string locationOf(const DebugLoc &DL) {
  if (!DL)
    return "";
  return (DL->getFilename() + ":" + Twine(DL.getLine()) + ":" +
          Twine(DL.getCol()) + ": ")
      .str();
}

/// The first direct call of \p Callee in \p Caller.
const CallBase *firstCall(const Function &Caller, const Function &Callee) {
  for (const Use &U : Callee.uses()) {
    const auto *CB = dyn_cast<CallBase>(U.getUser());
    if (CB && CB->isCallee(&U) && CB->getFunction() == &Caller)
      return CB;
  }
  return nullptr;
}

/// Where cacs_sync_begin's (file, line) start among a call's operands: after
/// the pointer to the result where the token is returned in memory (sret),
/// as it is on x86-64 and AArch64 since the token outgrew two registers.
unsigned firstBeginArg(const CallBase &CB) {
  return CB.hasStructRetAttr() ? 1 : 0;
}

} // namespace

std::string SyncBlockCheck::blockLocation(const CallBase &BeginCall) const {
  // CACS_SYNC passes __FILE__ and __LINE__, what the run-time check names.
  StringRef File;
  unsigned A = firstBeginArg(BeginCall);
  const auto *Line = dyn_cast<ConstantInt>(BeginCall.getArgOperand(A + 1));
  if (getConstantStringInfo(BeginCall.getArgOperand(A), File) && Line)
    return (File + ":" + Twine(Line->getSExtValue())).str();
  if (const DebugLoc &DL = BeginCall.getDebugLoc())
    return (DL->getFilename() + ":" + Twine(DL.getLine())).str();
  return "'" + nameOf(*BeginCall.getFunction()) + "'";
}

void SyncBlockCheck::walkBlock(CallBase &BeginCall,
                               DenseMap<CallBase *, Inside> &Found) {
  ++NumBlocks;
  Function &F = *BeginCall.getFunction();
  DenseSet<std::pair<BasicBlock *, unsigned>> Seen;
  SmallVector<std::pair<BasicBlock::iterator, unsigned>, 16> Work;
  Work.push_back({std::next(BeginCall.getIterator()), 1});
  bool WarnedOpen = false;
  while (!Work.empty()) {
    auto [It, Depth] = Work.pop_back_val();
    BasicBlock *BB = It->getParent();
    bool Closed = false;
    for (; It != BB->end(); ++It) {
      auto *CB = dyn_cast<CallBase>(&*It);
      const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
      if (!Callee)
        continue;
      if (Callee == &Begin) {
        if (++Depth > MaxDepth) {
          Closed = true;
          break;
        }
      } else if (Callee == End) {
        if (--Depth == 0) {
          Closed = true;
          break;
        }
      } else if (canSwitch(*Callee)) {
        auto [Where, New] = Found.try_emplace(CB, Inside{&BeginCall, Depth});
        if (!New && Depth < Where->second.Depth)
          Where->second = Inside{&BeginCall, Depth};
      }
    }
    if (Closed)
      continue;
    Instruction *Term = BB->getTerminator();
    if (isa<ReturnInst>(Term) && !WarnedOpen) {
      WarnedOpen = true;
      emitWarning(F,
                  "the sync block at " + blockLocation(BeginCall) +
                      " may still be open when '" + nameOf(F) +
                      "' returns: the calls made until it ends are not "
                      "checked at compile time (the run-time check is)",
                  Term->getDebugLoc());
    }
    for (BasicBlock *Succ : successors(BB))
      if (Seen.insert({Succ, Depth}).second)
        Work.push_back({Succ->begin(), Depth});
  }
}

void SyncBlockCheck::report(CallBase &Call, CallBase &BeginCall) {
  ++NumErrors;
  Function &F = *Call.getFunction();
  const Function *Callee = Call.getCalledFunction();
  SmallVector<const Function *, 8> Path{Callee};
  while (const Function *N = Next.lookup(Path.back()))
    Path.push_back(N);

  std::string Chain;
  for (const Function *P : Path)
    Chain += (Chain.empty() ? "" : " -> ") + nameOf(*P);
  std::string Block = blockLocation(BeginCall);
  emitError(F,
            "call to '" + nameOf(*Callee) + "' inside the sync block at " +
                Block + " can switch coroutines: " + Chain,
            Call.getDebugLoc());

  LLVMContext &Ctx = M.getContext();
  emit(Ctx, DS_Note,
       locationOf(BeginCall.getDebugLoc()) + "the sync block at " + Block +
           " starts here, in '" + nameOf(F) + "'");
  for (size_t I = 0; I + 1 < Path.size(); ++I) {
    const CallBase *Step = firstCall(*Path[I], *Path[I + 1]);
    emit(Ctx, DS_Note,
         (Step ? locationOf(Step->getDebugLoc()) : std::string()) + "'" +
             nameOf(*Path[I]) + "' calls '" + nameOf(*Path[I + 1]) + "'");
  }
  emit(Ctx, DS_Note,
       "'" + nameOf(*Path.back()) +
           "' switches to another coroutine: a switch or wait of libcacs "
           "(not an I/O wait, which blocks inside a sync block, nor an "
           "effect resume), an effect's perform, or a preserve_none "
           "function (a list's, or written so)");
}

void SyncBlockCheck::run(bool LTOLink) {
  for (Function *F : annotatedFunctions(M, SyncBlockAllowsAnnotation))
    Allowed.insert(F);
  walkSwitchCallers(
      M,
      [&](Function &Caller, Function &Callee) {
        // An allowed entry defined here (libcacs in the link) waits or
        // resumes through switches of its own: not a path.
        if (Allowed.count(&Caller))
          return false;
        Next.try_emplace(&Caller, &Callee);
        return true;
      },
      /*VisitSeeds=*/false,
      [&](const Function &F) { return isSwitch(F); });

  SmallVector<CallBase *, 8> Begins;
  for (Use &U : Begin.uses()) {
    auto *CB = dyn_cast<CallBase>(U.getUser());
    if (!CB || !CB->isCallee(&U) || CB->arg_size() != firstBeginArg(*CB) + 2)
      continue;
    if (LTOLink &&
        !CB->getFunction()->hasFnAttribute(SyncBlockCheckEnabledAttr))
      continue;
    Begins.push_back(CB);
  }

  DenseMap<CallBase *, Inside> Found;
  for (CallBase *B : Begins)
    walkBlock(*B, Found);

  // In the order of the code, whatever the order of the uses.
  DenseSet<Function *> Reported;
  for (CallBase *B : Begins) {
    Function *F = B->getFunction();
    if (!Reported.insert(F).second)
      continue;
    for (Instruction &I : instructions(*F))
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        auto It = Found.find(CB);
        if (It != Found.end())
          report(*CB, *It->second.Block);
      }
  }
}

PreservedAnalyses SyncBlockCheckPass::run(Module &M, ModuleAnalysisManager &) {
  Function *Begin = M.getFunction(SyncBeginName);
  if (!Begin)
    return PreservedAnalyses::all();
  bool Changed = false;
  // Every definition of a unit that uses blocks: the link may inline a
  // block into any of them.
  if (P == Phase::PerTU)
    for (Function &F : M)
      if (!F.isDeclaration() && !F.hasFnAttribute(SyncBlockCheckEnabledAttr)) {
        F.addFnAttr(SyncBlockCheckEnabledAttr);
        Changed = true;
      }
  SyncBlockCheck(M, *Begin, M.getFunction(SyncEndName))
      .run(P == Phase::LTOLink);
  // Only a function attribute changes.
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}
