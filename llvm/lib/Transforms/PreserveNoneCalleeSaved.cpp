//===- PreserveNoneCalleeSaved.cpp - The preserve_none callee-saved list --===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// See PreserveNoneCalleeSaved.h. Upstream keeps rbp callee-saved under
// preserve_none on x86-64; the paper's convention saves nothing. With the
// setting `none` this pass gives preserve_none functions and calls x86's
// "no_callee_saved_registers" attribute where that is sound. What the backend
// does with it (LLVM 22, pinned by test/PreserveNoneCalleeSaved):
//
//  - X86RegisterInfo::getCalleeSavedRegs: a function carrying it saves
//    nothing, so rbp is allocated like any other register;
//  - X86TargetLowering::LowerCall: a call site carrying it, or a direct call
//    of a function carrying it, gets the empty register mask;
//  - a caller that uses rbp as its frame pointer (or rbx as its base
//    pointer) pushes it around such a call (spillFPBP, LLVM 20 and later),
//    with CFI that does not depend on rbp, so unwinding through it works.
//    LLVM 19 has no spillFPBP: the caller reads its frame through a
//    clobbered rbp, so `none` is an error there.
//
// Known limits of spillFPBP (LLVM 22), which decide the call-site rule
// (callSiteCanClobberAll):
//  - an invoke whose callee clobbers the frame pointer stops with a fatal
//    error, so invokes keep upstream's mask;
//  - arguments passed on the stack are stored into the reserved call frame
//    over the pushed rbp: the caller then reads its frame through garbage.
//    Calls that may pass an argument on the stack keep upstream's mask.
//
// A definition may save nothing only if no caller expects rbp preserved:
//  - it is local (per translation unit; after internalization at the
//    full-LTO link) and every use is a direct call that takes the empty mask
//    (no address taken, no invoke, no stack arguments);
//  - and no caller that keeps rbp can turn a call of it into a jump: sibling
//    call eligibility compares the conventions, and only when they differ
//    the conventions' masks, never the call's. A C or fastcc caller never
//    jumps to a preserve_none function (its mask preserves less), but a
//    preserve_none caller that keeps rbp does, and rbp would reach that
//    caller's callers clobbered. So a `tail` or `musttail` call from a
//    caller of another convention that keeps its list excludes the callee;
//    this propagates down chains of tail calls over a worklist.
// Every other definition keeps upstream's list. An exported definition
// always does: code compiled without the setting, or in another translation
// unit, expects rbp preserved.
//
// The decisions are recomputed from scratch whenever the pass runs, and made
// only where nothing runs after it that could change a call (per
// translation unit, or at the full-LTO link); the LTO pre-link compile only
// records the setting, which travels to the link as a function attribute.
// ThinLTO links do not run the pass: there the setting has no effect.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneCalleeSaved.h"
#include "cacs-compiler/Annotations.h"
#include "cacs-compiler/Diagnostics.h"
#include "cacs-compiler/PreserveNoneRules.h"
#include "cacs-compiler/PreserveNoneRulesBinding.h"
#include "cacs-compiler/Settings.h"
#include "cacs/detail/contract.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace cacs;

#define DEBUG_TYPE "preserve-none-callee-saved"

namespace {

/// -fpreserve-none-callee-saved=none (Settings.def's table).
bool calleeSavedNone() {
  return setting(SettingID::PreserveNoneCalleeSaved)
             .Choices[choiceSetting(SettingID::PreserveNoneCalleeSaved)] ==
         "none";
}

/// x86's attribute: on a function, an empty callee-saved list; on a call
/// site (or the callee of a direct call), the empty register mask.
constexpr const char *NoCalleeSavedAttr = "no_callee_saved_registers";

/// The comment in the asm of cacs/switch.h's tail switch that stores no rbp.
constexpr const char *TailEmptyListMark = CACS_CONTRACT_TAIL_EMPTY_LIST_MARK;

/// Registers preserve_none passes arguments in on x86-64: r12-r15, rdi, rsi,
/// rdx, rcx, r8, r9, r11, rax, then xmm0-xmm7 as the C convention does.
constexpr unsigned NumIntArgRegs = 12;

bool isX86_64(const Module &M) {
  return Triple(M.getTargetTriple()).getArch() == Triple::x86_64;
}

/// The one rule for call sites: why may this call not get the empty register
/// mask (so that a preserve_none callee may clobber rbp)? Null if it may. The
/// empty mask is always safe for the caller, which then saves what it needs
/// itself, except where LLVM 22's save of the frame pointer around the call
/// goes wrong: invokes (a fatal error) and arguments passed on the stack
/// (stored over the saved rbp).
const char *whyCallKeepsMask(const CallBase &CB) {
  if (CB.getCallingConv() != CallingConv::PreserveNone || CB.isInlineAsm())
    return "a call of it is not a preserve_none call";
  if (!isa<CallInst>(CB))
    return "it is invoked";
  if (CB.getFunctionType()->isVarArg())
    return "a call of it is variadic";
  if (mayPassArgumentsOnStack(CB))
    return "a call of it may pass arguments on the stack";
  return nullptr;
}

bool callSiteCanClobberAll(const CallBase &CB) { return !whyCallKeepsMask(CB); }

/// May \p CB become a jump (a sibling or musttail call) from a caller whose
/// callers expect rbp preserved? The backend compares the masks of the two
/// conventions when they differ, and a C or fastcc caller preserves more
/// than any preserve_none callee, so it never jumps to one. Errs toward a
/// jump (safe: its callee then keeps rbp). SwitchSiteJump's isTailJump
/// asks the opposite question of the same backend decision, erring toward
/// a call; the two cannot be one predicate.
bool mayJumpFromCallerKeepingList(const CallBase &CB) {
  const auto *CI = dyn_cast<CallInst>(&CB);
  if (!CI || !(CI->isTailCall() || CI->isMustTailCall()))
    return false;
  CallingConv::ID CallerCC = CB.getFunction()->getCallingConv();
  return CallerCC != CallingConv::C && CallerCC != CallingConv::Fast;
}

class CalleeSaved {
public:
  CalleeSaved(Module &M, PreserveNoneCalleeSavedPass::Phase P) : M(M), P(P) {}

  bool run() {
    bool Changed = false;
    if (P != PreserveNoneCalleeSavedPass::Phase::LTOLink && calleeSavedNone())
      Changed |= recordSetting();
    if (isX86_64(M))
      Changed |= checkMustTailCalls();
    if (P != PreserveNoneCalleeSavedPass::Phase::PreLink &&
        anyFunctionAsksForNone() && supported()) {
      Changed |= stripOwnAttributes();
      Changed |= apply();
    }
    Changed |= bindSavesNothing();
    return Changed;
  }

private:
  using Phase = PreserveNoneCalleeSavedPass::Phase;
  Module &M;
  Phase P;
  /// The preserve_none definitions that save nothing (apply's decision).
  SetVector<Function *> Empty;

  /// Does \p F keep rbp for its callers? Until the decisions are made (and
  /// where none are made) every function does.
  bool keepsList(const Function &F) const {
    return !Empty.contains(const_cast<Function *>(&F));
  }

  /// Declarations annotated SavesNothingAnnotation: external code that may
  /// clobber rbp. Whatever the setting of the callers, every direct call of
  /// one gets the empty mask from the attribute (also calls that an LTO link
  /// inlined into a function compiled without the setting), so the calls the
  /// backend gets wrong with it are errors, and a caller that keeps rbp may
  /// not jump to it.
  bool bindSavesNothing() {
    bool Changed = false;
    SmallVector<Function *, 2> Found = annotatedSavesNothing();
    // Only libcacs's x86-64 entry is annotated (coro.h binds it on LLVM 22
    // only); LLVM 19 cannot save a caller's frame pointer around its calls.
    if (Found.empty() || !isX86_64(M))
      return false;
    if (LLVM_VERSION_MAJOR < 22) {
      emitSavesNothingError(*Found.front(), nullptr,
                            "its calls need LLVM 22, which saves a caller's "
                            "frame pointer around them");
      return false;
    }
    for (Function *F : Found) {
      F->addFnAttr(NoCalleeSavedAttr);
      Changed = true;
      for (Use &Op : make_early_inc_range(F->uses())) {
        User *U = Op.getUser();
        if (onlyAnnotates(U))
          continue;
        auto *CB = dyn_cast<CallBase>(U);
        if (!CB || !CB->isCallee(&Op) ||
            CB->getFunctionType() != F->getFunctionType()) {
          emitSavesNothingError(*F, U, "its address is taken");
          continue;
        }
        if (const char *Why = whyCallKeepsMask(*CB)) {
          emitSavesNothingError(*F, U, Why);
          continue;
        }
        auto *CI = cast<CallInst>(CB);
        if (!mayJumpFromCallerKeepingList(*CI) ||
            !keepsList(*CI->getFunction()))
          continue;
        if (CI->isMustTailCall()) {
          emitSavesNothingError(*F, U,
                                "a musttail call of it would hand a caller "
                                "that keeps rbp a clobbered rbp");
          continue;
        }
        // A sibling call would return to the caller's callers with rbp
        // clobbered; without the marker the backend makes an ordinary call.
        CI->setTailCallKind(CallInst::TCK_None);
      }
    }
    return Changed;
  }

  /// The declarations annotated SavesNothingAnnotation.
  SmallVector<Function *, 2> annotatedSavesNothing() const {
    SmallVector<Function *, 2> Found;
    for (Function *F : annotatedFunctions(M, SavesNothingAnnotation))
      if (F->isDeclaration())
        Found.push_back(F);
    return Found;
  }

  /// Is \p U a constant that only llvm.global.annotations uses (the entry
  /// that annotates the function)?
  static bool onlyAnnotates(const User *U) {
    if (const auto *GV = dyn_cast<GlobalVariable>(U))
      return GV->getName() == "llvm.global.annotations";
    if (!isa<Constant>(U) || isa<GlobalValue>(U) || U->use_empty())
      return false;
    return all_of(U->users(), [](const User *V) { return onlyAnnotates(V); });
  }

  void emitSavesNothingError(const Function &Callee, const User *U,
                             const char *Why) {
    const auto *I = dyn_cast<Instruction>(U);
    const Function *Where = I ? I->getFunction() : nullptr;
    std::string Msg = "'" + Callee.getName().str() +
                      "' saves no register, rbp included: " + Why;
    if (Where)
      emitError(*Where, Msg + " (in '" + Where->getName() + "')",
                I->getDebugLoc());
    else
      emit(M.getContext(), DS_Error, Msg);
  }

  bool recordSetting() {
    bool Changed = false;
    for (Function &F : M)
      if (!F.isDeclaration() && !F.hasFnAttribute(CalleeSavedNoneAttr)) {
        F.addFnAttr(CalleeSavedNoneAttr);
        Changed = true;
      }
    return Changed;
  }

  bool anyFunctionAsksForNone() const {
    for (const Function &F : M)
      if (F.hasFnAttribute(CalleeSavedNoneAttr))
        return true;
    return false;
  }

  /// Only x86-64 on LLVM 22 can give preserve_none an empty list soundly.
  /// Elsewhere asking for it is an error (LLVM 19 on x86-64, where it would
  /// miscompile frame-pointer callers) or has no effect (other targets).
  bool supported() {
    if (!isX86_64(M)) {
      emit(M.getContext(), DS_Warning,
           "-fpreserve-none-callee-saved=none has no effect on " +
               Triple(M.getTargetTriple()).getArchName() +
               ": only x86-64 can give preserve_none functions an empty "
               "callee-saved list; upstream's list is kept");
      return false;
    }
    if (LLVM_VERSION_MAJOR < 22) {
      emit(M.getContext(), DS_Error,
           "-fpreserve-none-callee-saved=none needs LLVM 22 on x86-64: "
           "LLVM " +
               Twine(LLVM_VERSION_MAJOR) +
               " does not save the frame pointer around a call that "
               "clobbers it, so an empty callee-saved list would miscompile "
               "every caller that uses rbp as its frame pointer");
      return false;
    }
    return true;
  }

  /// Decisions are recomputed each time: the attribute on preserve_none
  /// functions and calls is this pass's own (bindSavesNothing gives it back
  /// to annotated declarations).
  bool stripOwnAttributes() {
    bool Changed = false;
    for (Function &F : M) {
      if (F.getCallingConv() == CallingConv::PreserveNone &&
          F.hasFnAttribute(NoCalleeSavedAttr)) {
        F.removeFnAttr(NoCalleeSavedAttr);
        Changed = true;
      }
      for (Instruction &I : instructions(F)) {
        auto *CB = dyn_cast<CallBase>(&I);
        // The call site's own attribute, not its callee's.
        if (CB && CB->getCallingConv() == CallingConv::PreserveNone &&
            CB->getAttributes().hasFnAttr(NoCalleeSavedAttr)) {
          CB->removeFnAttr(NoCalleeSavedAttr);
          Changed = true;
        }
      }
    }
    return Changed;
  }

  /// Could \p F save nothing as far as F itself and each call of it go,
  /// leaving aside which callers may jump to it? Returns why not, or null.
  static const char *whyKeepList(const Function &F) {
    if (!F.hasFnAttribute(CalleeSavedNoneAttr))
      return "compiled without -fpreserve-none-callee-saved=none";
    if (!F.hasLocalLinkage())
      return "it is exported: code compiled elsewhere expects rbp preserved";
    for (const Use &U : F.uses()) {
      const auto *CB = dyn_cast<CallBase>(U.getUser());
      if (!CB || !CB->isCallee(&U) ||
          CB->getFunctionType() != F.getFunctionType())
        return "its address is taken";
      if (const char *Why = whyCallKeepsMask(*CB))
        return Why;
    }
    return nullptr;
  }

  bool apply() {
    // Candidates, then the fixpoint: a candidate that a caller keeping its
    // list may jump to keeps its list too, and so do the candidates it may
    // jump to in turn.
    SmallVector<Function *, 8> Worklist;
    for (Function &F : M) {
      if (F.isDeclaration() || F.getCallingConv() != CallingConv::PreserveNone)
        continue;
      if (const char *Why = whyKeepList(F))
        remarkKept(F, Why);
      else
        Empty.insert(&F);
    }
    for (Function *F : Empty)
      Worklist.push_back(F);
    while (!Worklist.empty()) {
      Function *F = Worklist.pop_back_val();
      if (!Empty.contains(F))
        continue;
      for (User *U : F->users()) {
        auto *CB = cast<CallBase>(U);
        if (mayJumpFromCallerKeepingList(*CB) &&
            keepsList(*CB->getFunction())) {
          Empty.remove(F);
          remarkKept(*F, "a caller that keeps rbp may jump to it");
          // F keeps its list now: what F may jump to must keep it too.
          for (Instruction &I : instructions(*F))
            if (auto *Call = dyn_cast<CallInst>(&I))
              if (Function *Callee = Call->getCalledFunction())
                if (Empty.contains(Callee))
                  Worklist.push_back(Callee);
          break;
        }
      }
    }

    checkEmptyListTailSwitches();

    bool Changed = false;
    for (Function *F : Empty) {
      F->addFnAttr(NoCalleeSavedAttr);
      remarkEmpty(*F);
      Changed = true;
    }
    // Call sites: the mask is the caller's business. A direct call of an
    // empty-list function gets the empty mask from its callee anyway.
    for (Function &Caller : M) {
      if (!Caller.hasFnAttribute(CalleeSavedNoneAttr))
        continue;
      for (Instruction &I : instructions(Caller)) {
        auto *CB = dyn_cast<CallBase>(&I);
        if (CB && callSiteCanClobberAll(*CB)) {
          CB->addFnAttr(Attribute::get(M.getContext(), NoCalleeSavedAttr));
          Changed = true;
        }
      }
    }
    return Changed;
  }

  /// cacs/switch.h's tail switch under the setting (CACS__TAIL_EMPTY_LIST)
  /// leaves the caller's rbp to the callers: in a preserve_none function
  /// that keeps rbp, whose callers expect it back, the jump would hand them
  /// a stale one (docs/hazards.md). The form names itself with a comment in
  /// its asm (TailEmptyListMark).
  void checkEmptyListTailSwitches() {
    for (Function &F : M) {
      if (F.isDeclaration() ||
          F.getCallingConv() != CallingConv::PreserveNone || !keepsList(F))
        continue;
      for (Instruction &I : instructions(F)) {
        const auto *CB = dyn_cast<CallBase>(&I);
        const auto *IA =
            CB ? dyn_cast<InlineAsm>(CB->getCalledOperand()) : nullptr;
        if (!IA || !StringRef(IA->getAsmString()).contains(TailEmptyListMark))
          continue;
        const char *Why = whyKeepList(F);
        emitError(F,
                  "the tail switch of cacs/switch.h in '" + F.getName() +
                      "' leaves rbp to its callers "
                      "(-fpreserve-none-callee-saved=none), but '" +
                      F.getName() + "' keeps rbp callee-saved: " +
                      (Why ? Why : "a caller that keeps rbp may jump to it") +
                      "; the form needs a function that saves nothing "
                      "(docs/callee-saved.md), or a build without the "
                      "setting",
                  CB->getDebugLoc());
        break;
      }
    }
  }

  void remarkEmpty(Function &F) {
    OptimizationRemarkEmitter ORE(&F);
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "EmptyList", &F)
             << "'" << ore::NV("Function", F.getName())
             << "' saves no register";
    });
  }

  void remarkKept(Function &F, const char *Why) {
    OptimizationRemarkEmitter ORE(&F);
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "KeptList", &F)
             << "'" << ore::NV("Function", F.getName())
             << "' keeps rbp callee-saved: " << ore::NV("Reason", Why);
    });
  }

  /// A preserve_none musttail call through a pointer or the GOT whose
  /// arguments take all 12 integer argument registers leaves none for the
  /// target address (x86-64, LLVM 19 and 22: "ran out of registers during
  /// register allocation"; jumpTargetLacksRegister). Diagnosed in every
  /// phase: the sooner the better.
  bool checkMustTailCalls() {
    bool Changed = false;
    RuleContext RC(M);
    for (Function &F : M)
      for (Instruction &I : instructions(F)) {
        auto *CI = dyn_cast<CallInst>(&I);
        if (!CI || !CI->isMustTailCall() || !jumpTargetLacksRegister(*CI, RC))
          continue;
        unsigned Regs = integerArgumentRegisters(*CI->getFunctionType(),
                                                 CI->getAttributes());
        const Function *Callee = CI->getCalledFunction();
        emitError(F,
                  (Callee ? "preserve_none musttail call to '" +
                                Callee->getName() + "' through the GOT"
                          : Twine("indirect preserve_none musttail call")) +
                      " in '" + F.getName() + "' needs " + Twine(Regs) +
                      " integer argument registers; on x86-64 at most " +
                      Twine(NumIntArgRegs - 1) +
                      " leave one for the target address",
                  CI->getDebugLoc());
        // The compile fails with the error above; an ordinary call keeps the
        // backend from adding its own.
        CI->setTailCallKind(CallInst::TCK_None);
        Changed = true;
      }
    return Changed;
  }
};

} // namespace

PreservedAnalyses
cacs::PreserveNoneCalleeSavedPass::run(Module &M, ModuleAnalysisManager &) {
  return CalleeSaved(M, P).run() ? PreservedAnalyses::none()
                                 : PreservedAnalyses::all();
}
