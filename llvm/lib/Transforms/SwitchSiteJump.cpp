//===- SwitchSiteJump.cpp - A resume jump at each yield site --------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// cacs__yield_pn resumes the next coroutine with `pop %rdx; jmp *%rdx`
// (yield_x86_64.S): one indirect jump that every switch of the thread takes,
// whose target is whichever site the resumed coroutine yielded from. Where
// the coroutines yield at different sites (a ping-pong of two functions, a
// ring of different functions, any server) its target changes at every
// switch and it mispredicts; an inline switch, with a jump at each site, is
// twice as fast there (bench/results/ANALYSIS.md, "The yield's chain").
//
// Under -fswitch-site-jumps this pass lowers each call of cacs_yield's entry
// (`call preserve_nonecc void @cacs__yield_pn()`) that is in a loop of its
// function (callReason says why only those) to
//
//   call cacs__yield_pn_site@PLT
//   notrack jmpq *%rdx
//
// in one inline assembly statement. cacs__yield_pn_site switches as
// cacs__yield_pn does, then returns (a `ret`, which the return stack buffer
// predicts: its top entry is this call) to this site on the new coroutine's
// stack with that coroutine's resume address in rdx; the site's own jump
// goes there. Each site's jump sees the targets that follow that site, one
// in a ring. The entry saves the address after the jump as the resume point
// (cacs/detail/contract.h), so the suspended layout is cacs__yield_pn's and
// any entry resumes any other's coroutines.
//
// Why it is sound, and where it does nothing:
//  - Registers: the statement clobbers every register the preserve_none
//    call does (all but rsp and rbp; the AVX-512 ones where the function
//    has them; the x87 stack), flags and memory, so the values live across
//    the call are kept as around the call. Functions that may use rbx as a
//    base pointer (mayHaveDynamicStack) keep the call: the safety pass
//    shields those calls, and rbx is reserved there.
//  - The stack: `alignstack` makes the backend treat the statement as a
//    call (the frame keeps the call's 16-byte alignment; no red zone, where
//    the entry stores rbp below its return address); `noredzone` says so
//    too.
//  - Nothing runs between the call and the jump: the entry returns onto the
//    other coroutine's stack, and the resume offset is the jump's length.
//    One statement guarantees both.
//  - It runs last, after AutoPreserveNone, the safety checks, the sync-block
//    check, SwitchReturns and the stack-bound record have seen the call
//    (walkSwitchCallers, the one rule of what reaches a switch, follows
//    calls; the statement is none). So it never runs in an LTO compile step
//    (the link's walks see the calls across units, then lower); ThinLTO
//    keeps the calls (its backends cannot be told from compile steps on
//    LLVM 19). Not at -O0 (the pipeline does not add it).
//  - CET: IBT: the jump is `notrack` (the resume point has no endbr64, as
//    after cacs__yield_pn's jump). A shadow stack (-fcf-protection=return,
//    full) is unsupported by cacs; the pass keeps the calls there.
//  - Sanitizers (ASan, TSan, MSan, HWASan): the calls stay (libcacs switches
//    through its annotated slow path under them anyway).
//  - -fcacs-stack-bounds: StackBoundRecord, before this pass, recorded the
//    call of cacs__yield_pn with its budget; the link's walk gives the
//    site entry that budget and takes the jump after a call of it as the
//    switch (cacs-stack-bounds.cpp).
//  - Indirect-branch hardening (-mretpoline, -mlvi-cfi, -mharden-sls=all,
//    speculative load hardening): the calls stay; the site's jump would be
//    an unhardened indirect branch in the user's code.
//  - Not x86-64 ELF (AArch64), the large code model: the calls stay, with a
//    warning.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/SwitchSiteJump.h"
#include "cacs-compiler/Diagnostics.h"
#include "cacs-compiler/PreserveNoneRules.h"
#include "cacs-compiler/StackFrame.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace cacs;

#define DEBUG_TYPE "switch-site-jump"

STATISTIC(NumLowered, "Yields lowered to a switch site");

namespace {

bool moduleFlagSet(const Module &M, StringRef Name) {
  const auto *Flag =
      mdconst::extract_or_null<ConstantInt>(M.getModuleFlag(Name));
  return Flag && !Flag->isZero();
}

/// Is \p M an LTO compile step or a ThinLTO backend? clang adds these flags
/// before it runs the pipeline of a compile that writes bitcode for LTO, and
/// a ThinLTO backend reads them back.
bool isLTOModule(const Module &M) {
  return M.getModuleFlag("ThinLTO") || M.getModuleFlag("EnableSplitLTOUnit");
}

/// Why the pass keeps every call of \p M, or null.
const char *moduleReason(const Module &M) {
  Triple T(M.getTargetTriple());
  if (T.getArch() != Triple::x86_64 || T.isX32() || !T.isOSBinFormatELF())
    return "it is implemented for x86-64 ELF only";
  if (moduleFlagSet(M, "cf-protection-return"))
    return "cacs does not support shadow stacks (-fcf-protection=return)";
  // The site's call is rel32, which the large code model cannot assume.
  if (M.getCodeModel() == CodeModel::Large)
    return "the site's call does not reach everywhere in the large code "
           "model";
  return nullptr;
}

bool isYieldCall(const CallInst &CI) {
  const Function *Callee = CI.getCalledFunction();
  if (!Callee || Callee->getCallingConv() != CallingConv::PreserveNone ||
      CI.getCallingConv() != CallingConv::PreserveNone ||
      CI.hasOperandBundles() || CI.isMustTailCall())
    return false;
  StringRef Name = Callee->getName();
  Name.consume_front("\1");
  FunctionType *FTy = CI.getFunctionType();
  return Name == YieldEntryName && FTy->getNumParams() == 0 &&
         FTy->getReturnType()->isVoidTy() && !FTy->isVarArg();
}

/// Why the calls in \p F stay calls, or null.
const char *functionReason(const Function &F) {
  if (F.hasFnAttribute(Attribute::SanitizeAddress) ||
      F.hasFnAttribute(Attribute::SanitizeThread) ||
      F.hasFnAttribute(Attribute::SanitizeMemory) ||
      F.hasFnAttribute(Attribute::SanitizeHWAddress))
    return "the function is instrumented by a sanitizer";
  if (F.hasFnAttribute(Attribute::OptimizeNone))
    return "the function is optnone";
  if (F.hasFnAttribute(Attribute::Naked))
    return "the function is naked";
  if (mayHaveDynamicStack(F))
    return "the function may address its frame through rbx";
  // APX's extra registers: the clobber list below does not name them.
  if (hasTargetFeature(F, "+egpr"))
    return "the function may use APX registers";
  // The site's jump is a plain indirect jump, which these would have made
  // a thunk or followed by a speculation barrier.
  if (hasTargetFeature(F, "+retpoline-indirect-branches") ||
      hasTargetFeature(F, "+lvi-cfi") ||
      hasTargetFeature(F, "+harden-sls-ijmp") ||
      F.hasFnAttribute(Attribute::SpeculativeLoadHardening))
    return "the function is hardened against indirect-branch speculation "
           "(-mretpoline, -mlvi-cfi, -mharden-sls, SLH), which the site's "
           "jump would bypass";
  switch (F.getCallingConv()) {
  case CallingConv::C:
  case CallingConv::Fast:
  case CallingConv::Cold:
  case CallingConv::PreserveNone:
    return nullptr;
  default:
    return "the function's calling convention is not C, fastcc, coldcc or "
           "preserve_none";
  }
}

/// Why \p CI, a call of the yield entry, stays a call, or null: the rule of
/// what is lowered. Besides functionReason's: a site costs five
/// instructions and a call/ret pair more than the plain entry and gains
/// where the entry's one shared jump mispredicts. On AMD Zen 5 it gained
/// 0.1-1.2 ns per switch where the coroutine yields in a loop (it resumes at
/// the site it left and yields from it again: a ping-pong, a ring, a
/// pipeline stage, a wait loop) and lost 0.2-1.6 ns where the yield is in
/// straight-line code of a function that returns after it (a handler's
/// read, a nested wait; bench/results/ANALYSIS.md, "Switch sites in
/// loops"), so only the first are lowered.
const char *callReason(const CallInst &CI, const LoopInfo &LI) {
  if (const char *Why = functionReason(*CI.getFunction()))
    return Why;
  if (!LI.getLoopFor(CI.getParent()))
    return "the yield is not in a loop of its function";
  return nullptr;
}

/// The clobbers of the statement: what a preserve_none call clobbers on
/// x86-64 (all but rsp and rbp).
std::string clobbers(const Function &F) {
  std::string C;
  auto Add = [&](const Twine &R) { C += ("~{" + R + "},").str(); };
  for (const char *R : {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9",
                        "r10", "r11", "r12", "r13", "r14", "r15"})
    Add(R);
  bool AVX512 = hasTargetFeature(F, "+avx512f");
  for (unsigned I = 0; I < (AVX512 ? 32u : 16u); ++I)
    Add("xmm" + Twine(I));
  if (AVX512)
    for (unsigned I = 0; I < 8; ++I)
      Add("k" + Twine(I));
  Add("st");
  for (unsigned I = 1; I < 8; ++I)
    Add("st(" + Twine(I) + ")");
  C += "~{dirflag},~{fpsr},~{flags},~{memory}";
  return C;
}

/// Replaces \p CI with the site.
void lower(CallInst &CI) {
  Function &F = *CI.getFunction();
  std::string Asm = (Twine("call ") + CACS_CONTRACT_SITE_ENTRY +
                     "@PLT\n\t" CACS_CONTRACT_SITE_JUMP)
                        .str();
  auto *IA = InlineAsm::get(CI.getFunctionType(), Asm, clobbers(F),
                            /*hasSideEffects=*/true, /*isAlignStack=*/true);
  auto *Site = CallInst::Create(IA, {}, "", CI.getIterator());
  Site->setDebugLoc(CI.getDebugLoc());
  Site->addFnAttr(Attribute::NoUnwind);
  CI.eraseFromParent();
  F.addFnAttr(Attribute::NoRedZone);
  ++NumLowered;
}

} // namespace

PreservedAnalyses SwitchSiteJumpPass::run(Module &M,
                                          ModuleAnalysisManager &MAM) {
  bool Changed = false;
  if (const char *Why = moduleReason(M)) {
    if (P != Phase::LTOLink)
      emit(M.getContext(), DS_Warning,
           Twine("-fswitch-site-jumps has no effect here: ") + Why +
               "; calls of cacs_yield stay calls");
    return PreservedAnalyses::all();
  }
  if (P != Phase::LTOLink) {
    for (Function &F : M)
      if (!F.isDeclaration() && !F.hasFnAttribute(SwitchSiteJumpEnabledAttr)) {
        F.addFnAttr(SwitchSiteJumpEnabledAttr);
        Changed = true;
      }
    // The link lowers, after its walks.
    if (P == Phase::PreLink || isLTOModule(M))
      return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function &F : M) {
    if (F.isDeclaration() || !F.hasFnAttribute(SwitchSiteJumpEnabledAttr))
      continue;
    SmallVector<CallInst *, 4> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I); CI && isYieldCall(*CI))
        Calls.push_back(CI);
    if (Calls.empty())
      continue;
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    for (CallInst *CI : Calls) {
      if (const char *Why = callReason(*CI, LI)) {
        ORE.emit([&] {
          return OptimizationRemarkMissed(DEBUG_TYPE, "KeptCall", CI)
                 << "cacs_yield stays a call: " << Why;
        });
        continue;
      }
      ORE.emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "Lowered", CI)
               << "cacs_yield resumes through a jump at this site";
      });
      lower(*CI);
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
