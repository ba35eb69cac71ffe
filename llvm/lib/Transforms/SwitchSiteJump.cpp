//===- SwitchSiteJump.cpp - Yields entered by a jump ----------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// cacs__yield_pn is entered by a `call` that it never returns to: it leaves
// into the resumed coroutine by `pop %rdx; jmp *%rdx` (yield_x86_64.S). On
// AMD Zen 5 that unreturned call costs ~2 ns per switch against the same
// switch entered by a jump (bench/results/switch-returns/jmp-entry.md).
//
// Under -fswitch-site-jumps this pass lowers each call of cacs_yield's entry
// (`call preserve_nonecc void @cacs__yield_pn()`) to
//
//   leaq 1f(%rip), %r11
//   movq %r11, -8(%rsp)
//   jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)
//   1:
//
// in one inline assembly statement: the site stores its resume address
// where a call would have pushed it and jumps; the entry moves rsp down to
// that word and is cacs__yield_pn from there, so the suspended layout is
// cacs__yield_pn's and any entry resumes any other's coroutines
// (cacs/detail/contract.h). Every call is lowered, in a loop or not: there
// is no per-site cost beyond the site's two instructions (the earlier
// lowering, a call of a site entry and a jump at each site, lost where a
// yield was not in a loop; this one does not: jmp-entry.md).
//
// Why it is sound, and where it does nothing:
//  - Registers: the statement clobbers every register the preserve_none
//    call does (all but rsp and rbp; the AVX-512 ones where the function
//    has them; the x87 stack), flags and memory, so the values live across
//    the call are kept as around the call. Functions that may use rbx as a
//    base pointer (mayHaveDynamicStack) keep the call: the safety pass
//    shields those calls, and rbx is reserved there.
//  - The stack: `alignstack` makes the backend treat the statement as a
//    call (the frame keeps the call's 16-byte alignment, also in a function
//    that calls nothing, so that the entry's slow path runs C with a call's
//    alignment; no red zone, where the site stores its resume address and
//    the entry rbp); `noredzone` says so too.
//  - The resume address is the label after the jump, in the same statement:
//    nothing can be scheduled between the store and the jump, or between
//    the jump and the label.
//  - Nothing may write below rsp between the store and the entry, so the
//    jump never goes through a PLT: glibc's lazy resolver pushes there (the
//    PLT entry's `push $index`) and would overwrite the resume address at
//    the first yield of a shared object that links libcacs (built with
//    -DCACS_TLS_INITIAL_EXEC). The jump reads the entry from the GOT, which
//    the dynamic linker fills at load time; where the entry is in the same
//    module (libcacs linked into the executable) the linker relaxes it to
//    a direct `jmp` (R_X86_64_GOTPCRELX), as -fno-plt does for calls
//    (test/SwitchSiteJump/shared-lazy.c).
//  - It runs last, after AutoPreserveNone, the safety checks, the sync-block
//    check, SwitchReturns and the stack-bound record have seen the call
//    (walkSwitchCallers, the one rule of what reaches a switch, follows
//    calls; the statement is none). So it never runs in an LTO compile step
//    (the link's walks see the calls across units, then lower); ThinLTO
//    keeps the calls (its backends cannot be told from compile steps on
//    LLVM 19). Not at -O0 (the pipeline does not add it).
//  - CET: IBT: the entry starts with endbr64 (an indirect jump reaches it
//    from another module); the resume point has no endbr64, as a call's
//    return site has none: every resumer reaches it by a `ret` or a
//    `notrack` jump (yield_x86_64.S). A shadow stack
//    (-fcf-protection=return, full) is unsupported by cacs; the pass keeps
//    the calls there.
//  - Sanitizers (ASan, TSan, MSan, HWASan): the calls stay (libcacs switches
//    through its annotated slow path under them anyway).
//  - -fcacs-stack-bounds: StackBoundRecord, before this pass, recorded the
//    call of cacs__yield_pn with its budget; the link's walk gives the jump
//    entry that budget and follows the jump to it as to a callee
//    (cacs-stack-bounds.cpp).
//  - Indirect-branch hardening (-mretpoline, -mlvi-cfi, -mharden-sls=all,
//    speculative load hardening): the calls stay; the site's jump is
//    indirect where the entry is in another module.
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
  // The site's rip-relative operands (its resume label, the GOT slot) are
  // 32-bit, which the large code model cannot assume.
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
  // Builds that harden indirect branches keep the plain call (the file
  // comment).
  if (hasTargetFeature(F, "+retpoline-indirect-branches") ||
      hasTargetFeature(F, "+lvi-cfi") ||
      hasTargetFeature(F, "+harden-sls-ijmp") ||
      F.hasFnAttribute(Attribute::SpeculativeLoadHardening))
    return "the function is hardened against indirect-branch speculation "
           "(-mretpoline, -mlvi-cfi, -mharden-sls, SLH)";
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
/// what is lowered, functionReason's. Every call, in a loop or not: the
/// jump entry is cacs__yield_pn's switch without its call, which gained
/// wherever measured (bench/results/switch-returns/jmp-entry.md).
const char *callReason(const CallInst &CI) {
  return functionReason(*CI.getFunction());
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

/// Replaces \p CI with the jump-entered yield.
void lower(CallInst &CI) {
  Function &F = *CI.getFunction();
  std::string Asm = (Twine("leaq 1f(%rip), %r11\n\t"
                           "movq %r11, -8(%rsp)\n\t"
                           "jmpq *") +
                     CACS_CONTRACT_JUMP_ENTRY + "@GOTPCREL(%rip)\n1:")
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
    for (CallInst *CI : Calls) {
      if (const char *Why = callReason(*CI)) {
        ORE.emit([&] {
          return OptimizationRemarkMissed(DEBUG_TYPE, "KeptCall", CI)
                 << "cacs_yield stays a call: " << Why;
        });
        continue;
      }
      ORE.emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "Lowered", CI)
               << "cacs_yield is entered by a jump at this site";
      });
      lower(*CI);
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
