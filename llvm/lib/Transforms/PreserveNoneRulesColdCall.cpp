//===- PreserveNoneRulesColdCall.cpp - Rare calls through a shield --------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// shieldsColdCall: block frequencies, profiles and the wait-loop heuristic.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneRulesColdCall.h"
#include "cacs-compiler/Settings.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ProfDataUtils.h"

using namespace llvm;
using namespace cacs;

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
