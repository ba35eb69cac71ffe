//===- PreserveNoneSafety.cpp - Guard against known miscompiles -----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// See PreserveNoneSafety.h. The facts this pass relies on are pinned by
// the tests in test/CodeGen (preserve_none-base-pointer, -byval, -varargs).
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneSafety.h"
#include "cacs-compiler/Diagnostics.h"
#include "cacs-compiler/PreserveNoneRulesBinding.h"
#include "cacs-compiler/PreserveNoneRulesColdCall.h"
#include "cacs-compiler/PreserveNoneRulesEligibility.h"
#include "cacs-compiler/PreserveNoneRulesShield.h"
#include "cacs-compiler/PreserveNoneRulesWrapper.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Mangler.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace cacs;

#define DEBUG_TYPE "preserve-none-safety"

STATISTIC(NumShieldedCalls, "preserve_none calls routed through a shield");
STATISTIC(NumColdShielded, "rare preserve_none calls routed through a shield "
                           "to keep the hot path's registers");
STATISTIC(NumRuntimeShielded, "preserve_none yields routed through "
                              "libcacs's default-convention cacs_yield");
STATISTIC(NumWaitShielded, "yields of wait loops inside work loops routed "
                           "through a shield as rare");
STATISTIC(NumReverted, "APN-infected functions reverted to the C convention");
STATISTIC(NumSplit, "preserve_none definitions split around a probed frame");
STATISTIC(NumReturnedDropped,
          "returned attributes removed from preserve_none arguments");
STATISTIC(NumRejected, "preserve_none functions or calls diagnosed as "
                       "miscompiled by the backend");

namespace {

bool isMemoryArgument(const AttributeList &Attrs, unsigned NumParams) {
  for (unsigned I = 0; I != NumParams; ++I)
    if (Attrs.hasParamAttr(I, Attribute::ByVal) ||
        Attrs.hasParamAttr(I, Attribute::InAlloca) ||
        Attrs.hasParamAttr(I, Attribute::Preallocated))
      return true;
  return false;
}

/// "11th", "23rd": the position of an argument in a message.
std::string ordinal(unsigned N) {
  static const char *const Suffixes[] = {"th", "st", "nd", "rd"};
  unsigned Last = N % 10;
  bool Teen = N % 100 >= 11 && N % 100 <= 13;
  return std::to_string(N) + Suffixes[Teen || Last > 3 ? 0 : Last];
}

class FinalCheck {
public:
  FinalCheck(Module &M, ModuleAnalysisManager &MAM, bool CodeGenAtO0)
      : M(M), T(M.getTargetTriple()), RC(M, CodeGenAtO0), Wrappers(M),
        FAM(MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager()),
        PSI(&MAM.getResult<ProfileSummaryAnalysis>(M)) {}

  bool run() {
    if (!RC.isX86_64() && !RC.isAArch64())
      return false;
    // 0. For an LTO link, which makes the shields without this compile's
    // options.
    Changed |= recordColdShieldSettings(M);
    // 1. What APN decided earlier and later steps (LTO inlining, the
    // sanitizers' forecast) made wrong is undone first, so that the calls
    // are checked as they will be lowered.
    SmallVector<std::pair<Function *, std::string>, 8> Revert;
    for (Function &F : M)
      if (F.getCallingConv() == CallingConv::PreserveNone &&
          F.hasFnAttribute(APNInfectedAttr))
        if (Eligibility E = canTakePreserveNone(F, RC); !E)
          Revert.push_back({&F, E.Detail});
    for (auto &[F, Why] : Revert)
      revert(*F, Why);
    // 2. Every preserve_none function, then every preserve_none call.
    SmallVector<Function *, 8> Functions;
    for (Function &F : M)
      Functions.push_back(&F);
    for (Function *F : Functions) {
      if (F->getCallingConv() == CallingConv::PreserveNone)
        checkFunction(*F);
      if (!F->isDeclaration() && !F->getName().ends_with(".cacs.shield"))
        visitCalls(*F);
    }
    // The bodies that splitFrame moved out hold the split functions' calls.
    for (Function *Body : SplitBodies)
      visitCalls(*Body);
    // 3. Attributes the backend lowers wrongly, on every preserve_none
    // function and call left (the shields' calls included).
    if (returnedArgumentMiscompiles(T))
      for (Function &F : M)
        dropReturned(F);
    // 4. Sibling calls whose target address would find no register once the
    // calls are bound: ordinary calls instead (musttail ones are the
    // callee-saved pass's error).
    for (Function &F : M)
      for (Instruction &I : instructions(F))
        if (auto *CI = dyn_cast<CallInst>(&I);
            CI && CI->getTailCallKind() == CallInst::TCK_Tail &&
            jumpTargetLacksRegister(*CI, RC)) {
          CI->setTailCallKind(CallInst::TCK_None);
          Changed = true;
        }
    return Changed;
  }

private:
  Module &M;
  Triple T;
  RuleContext RC;
  WrapperBuilder Wrappers;
  FunctionAnalysisManager &FAM;
  ProfileSummaryInfo *PSI;
  bool Changed = false;
  /// The C-convention bodies splitFrame made, whose calls are still to be
  /// visited.
  SmallVector<Function *, 4> SplitBodies;

  void error(const Function &Where, const Twine &Msg,
             const DebugLoc &DL = DebugLoc()) {
    ++NumRejected;
    emitError(Where, Msg, DL);
  }

  /// Removes `returned` from the parameters of \p F if it is preserve_none,
  /// and from the arguments of its preserve_none calls: an optimization hint
  /// only (returnedArgumentMiscompiles says why it must go).
  void dropReturned(Function &F) {
    auto Drop = [&](auto &Holder, unsigned NumArgs) {
      for (unsigned I = 0; I != NumArgs; ++I)
        if (Holder.getAttributes().hasParamAttr(I, Attribute::Returned)) {
          Holder.removeParamAttr(I, Attribute::Returned);
          ++NumReturnedDropped;
          Changed = true;
        }
    };
    if (F.getCallingConv() == CallingConv::PreserveNone)
      Drop(F, F.arg_size());
    for (Instruction &I : instructions(F))
      if (auto *CB = dyn_cast<CallBase>(&I);
          CB && CB->getCallingConv() == CallingConv::PreserveNone)
        Drop(*CB, CB->arg_size());
  }

  /// After an error about \p CB: the module is not emitted, but the backend
  /// still lowers it, and must not stop with a fatal error on the call.
  void recoverFromError(CallBase &CB) {
    CB.setCallingConv(CallingConv::C);
    Changed = true;
  }

  /// F was made preserve_none by APN, and no longer may be: back to C, with
  /// every call of it (APN made sure that every use is a direct call).
  void revert(Function &F, StringRef Why) {
    F.setCallingConv(CallingConv::C);
    F.removeFnAttr(APNInfectedAttr);
    for (Use &U : F.uses())
      if (auto *CB = dyn_cast<CallBase>(U.getUser()); CB && CB->isCallee(&U))
        CB->setCallingConv(CallingConv::C);
    ++NumReverted;
    Changed = true;
    OptimizationRemarkEmitter ORE(&F);
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Reverted", &F)
             << "'" << ore::NV("Function", F.getName())
             << "' is made C again: " << ore::NV("Reason", Why);
    });
  }

  /// A preserve_none function the backend cannot get right. Only functions
  /// that are defined here or used here are reported.
  void checkFunction(Function &F) {
    if (F.isDeclaration() && F.use_empty())
      return;
    if (isMemoryArgument(F.getAttributes(), F.arg_size())) {
      error(F, "preserve_none function '" + F.getName() +
                   "' takes an argument by value in memory (byval), which "
                   "LLVM passes without a copy under preserve_none; pass a "
                   "pointer instead");
      return;
    }
    Eligibility E = canTakePreserveNone(F, RC, AskSignature | AskLowering);
    if (E.Why == Ineligible::VarArg && variadicPreserveNoneMiscompiles(T))
      error(F, "preserve_none function '" + F.getName() +
                   "' is variadic, which LLVM miscompiles on x86-64 (the "
                   "variadic arguments are passed and read in different "
                   "registers)");
    else if (E.Why == Ineligible::SplitInt128)
      error(F, "preserve_none function '" + F.getName() + "' " +
                   StringRef(E.Detail).drop_front(3) +
                   "; pass them by pointer, or fewer arguments before them");
    else if (E.Why == Ineligible::ProbedScratchArgument ||
             E.Why == Ineligible::DynamicStack)
      splitFrame(F, E.Detail);
    else if (E.Why == Ineligible::EntryHookArgument)
      // What a profile or a tracer shows changes (the hook sees the body),
      // what the program computes does not: a remark, not a warning, which
      // -Werror would make an error with no way to build the program.
      splitFrame(F, E.Detail);
    if (mustBindAtLoadTime(F, RC))
      bindAtLoadTime(F);
  }

  /// F's frame may be probed by a loop (or checked by a split-stack
  /// prologue, or its entry may call a hook) that clobbers one of its
  /// argument registers before the body reads it, or may be realigned and
  /// dynamic, which the backend does not lower under preserve_none. Its body
  /// moves into a C-convention function, which F calls: F's own frame is
  /// small and fixed, and the body receives its arguments where the prologue
  /// leaves them alone.
  void splitFrame(Function &F, StringRef Why) {
    if (const CallInst *MustTail = firstMustTailCall(F)) {
      // The body's musttail call would have to be made from a C-convention
      // function: invalid IR, and a jump that drops the arguments the C
      // epilogue restores (r12-r15 carry the first four).
      error(F,
            "preserve_none function '" + F.getName() +
                "' makes a musttail call, but " + Why +
                "; cacs would move its body into a C-convention "
                "function, from which the musttail call cannot be made; "
                "drop the musttail, or what makes its frame unsafe",
            MustTail->getDebugLoc());
      // The backend still lowers the module: an ordinary call is valid.
      for (BasicBlock &BB : F)
        if (CallInst *CI = BB.getTerminatingMustTailCall())
          CI->setTailCallKind(CallInst::TCK_None);
    }
    Function *Body =
        Function::Create(F.getFunctionType(), GlobalValue::PrivateLinkage,
                         F.getAddressSpace(), F.getName() + ".cacs.body", &M);
    Body->copyAttributesFrom(&F);
    Body->setCallingConv(CallingConv::C);
    Body->setLinkage(GlobalValue::PrivateLinkage);
    Body->setVisibility(GlobalValue::DefaultVisibility);
    Body->setComdat(nullptr);
    SplitBodies.push_back(Body);
    // The address of a block (a computed goto's table: `&&label`) names its
    // function as well on LLVM 19: the constants must follow their blocks
    // into the body, or the module is invalid (the bitcode writer gives
    // such a reference an ID it cannot read back). LLVM 22 derives the
    // function from the block: there the old constant is the new one.
    SmallVector<std::pair<BlockAddress *, BasicBlock *>, 4> Addresses;
    for (BasicBlock &BB : F)
      if (BlockAddress *BA = BlockAddress::lookup(&BB))
        Addresses.push_back({BA, &BB});
    Body->splice(Body->begin(), &F);
    for (auto [Old, BB] : Addresses)
      if (BlockAddress *New = BlockAddress::get(Body, BB); New != Old) {
        Old->replaceAllUsesWith(New);
        Old->destroyConstant();
      }
    Body->setSubprogram(F.getSubprogram());
    F.setSubprogram(nullptr);
    for (auto [Old, New] : zip(F.args(), Body->args())) {
      Old.replaceAllUsesWith(&New);
      New.takeName(&Old);
    }
    BasicBlock *BB = BasicBlock::Create(M.getContext(), "entry", &F);
    IRBuilder<> B(BB);
    SmallVector<Value *, 12> Args;
    for (Argument &A : F.args())
      Args.push_back(&A);
    CallInst *Call = B.CreateCall(Body, Args);
    Call->setCallingConv(CallingConv::C);
    Call->setAttributes(AttributeList::get(
        M.getContext(), AttributeSet(), F.getAttributes().getRetAttrs(), [&] {
          SmallVector<AttributeSet, 12> PA;
          for (unsigned I = 0; I < F.arg_size(); ++I)
            PA.push_back(F.getAttributes().getParamAttrs(I));
          return PA;
        }()));
    if (F.getReturnType()->isVoidTy())
      B.CreateRetVoid();
    else
      B.CreateRet(Call);
    for (Function *G : {&F, Body}) {
      G->removeFnAttr(Attribute::AlwaysInline);
      G->addFnAttr(Attribute::NoInline);
    }
    // The entry's own split-stack prologue would clobber r11 before the
    // call; its frame is small, the body checks the stack limit. So would
    // an entry hook: the body has it, in the C convention, and a symbol of
    // its own, so that a profile names it.
    F.removeFnAttr("split-stack");
    bool MovedHook = hasEntryHook(F);
    if (MovedHook) {
      removeEntryHooks(F);
      Body->setLinkage(GlobalValue::InternalLinkage);
    }
    ++NumSplit;
    Changed = true;
    OptimizationRemarkEmitter ORE(&F);
    ORE.emit([&] {
      OptimizationRemark R(DEBUG_TYPE, "Split", &F);
      R << "the body of preserve_none '" << ore::NV("Function", F.getName())
        << "' moves into a C-convention function: " << Why;
      if (MovedHook)
        R << "; the hook moves with it, so the hook and a profile see '"
          << ore::NV("Body", Body->getName()) << "'";
      return R;
    });
  }

  void visitCalls(Function &F) {
    SmallVector<std::pair<CallBase *, ShieldReason>, 4> ToShield;
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->getCallingConv() != CallingConv::PreserveNone)
        continue;
      // A direct callee was checked with its declaration.
      if (!CB->getCalledFunction()) {
        if (isMemoryArgument(CB->getAttributes(), CB->arg_size()))
          error(F, "indirect preserve_none call in '" + F.getName() +
                       "' passes an argument by value in memory (byval), "
                       "which LLVM does not copy under preserve_none",
                CB->getDebugLoc());
        else if (CB->getFunctionType()->isVarArg() &&
                 variadicPreserveNoneMiscompiles(T))
          error(F, "indirect preserve_none call in '" + F.getName() +
                       "' is variadic, which LLVM miscompiles on x86-64",
                CB->getDebugLoc());
      }
      checkReservedRegister(F, *CB);
      if (CB->getCallingConv() == CallingConv::PreserveNone)
        checkBinding(F, *CB);
      if (CB->getCallingConv() != CallingConv::PreserveNone)
        continue; // An error was reported.
      ShieldReason Why = needsShield(*CB, RC);
      if (Why == ShieldReason::None)
        Why = shieldsColdCall(
            *CB, RC,
            [&]() -> const BlockFrequencyInfo & { return blockFreqs(F); },
            [&]() -> const LoopInfo & { return loops(F); }, PSI);
      if (Why != ShieldReason::None)
        ToShield.push_back({CB, Why});
    }
    for (auto [CB, Why] : ToShield)
      shield(F, *CB, Why);
  }

  /// The block frequencies of \p F as it is now: the steps before may have
  /// changed it since an earlier pass computed them.
  const BlockFrequencyInfo &blockFreqs(Function &F) {
    if (!FreqsFresh.contains(&F)) {
      FAM.invalidate(F, PreservedAnalyses::none());
      FreqsFresh.insert(&F);
    }
    return FAM.getResult<BlockFrequencyAnalysis>(F);
  }
  SmallPtrSet<Function *, 16> FreqsFresh;

  /// The loops of \p F as it is now (fresh, like blockFreqs).
  const LoopInfo &loops(Function &F) {
    blockFreqs(F);
    return FAM.getResult<LoopAnalysis>(F);
  }

  /// A call that may overwrite a register its caller reserves.
  void checkReservedRegister(Function &Caller, CallBase &CB) {
    Function *Callee = CB.getCalledFunction();
    ReservedRegisterHazard H = reservedRegisterHazard(
        Caller, *CB.getFunctionType(), CB.getAttributes(), Callee, RC);
    // A register LLVM 19 would restore: the call goes through a shield.
    if (!H || H.What == ReservedRegisterHazard::Restore)
      return;
    std::string Call = ("preserve_none call " +
                        (Callee ? "to '" + Callee->getName() + "' "
                                : Twine("through a pointer ")) +
                        "in '" + Caller.getName() + "' ")
                           .str();
    std::string Fix = "do not reserve " + H.Reg +
                      " in code that calls preserve_none functions";
    if (H.What == ReservedRegisterHazard::Argument)
      error(Caller,
            Call + "passes its integer argument " + Twine(H.Number) + " in " +
                H.Reg + ", which -ffixed-" + H.Reg +
                " reserves (for a global register variable, say); " + Fix,
            CB.getDebugLoc());
    else
      error(Caller,
            Call + "may overwrite " + H.Reg + ", which -ffixed-" + H.Reg +
                " reserves (for a global register variable, say): a "
                "preserve_none function need not preserve " +
                H.Reg + ", and " +
                (H.CalleeSeen
                     ? "'" + Callee->getName() + "' does not reserve it"
                     : Twine("cacs cannot see whether the callee reserves "
                             "it")) +
                "; " + Fix,
            CB.getDebugLoc());
    recoverFromError(CB);
  }

  /// Code outside the compiler's view between the call and the callee: the
  /// lazy PLT resolver, a retpoline thunk, a KCFI check.
  void checkBinding(Function &Caller, CallBase &CB) {
    switch (bindingHazard(CB, RC)) {
    case BindingHazard::None:
      return;
    case BindingHazard::LazyBinding: {
      // The call passes more integer arguments than the callee's type
      // (mustBindAtLoadTime) says.
      bindAtLoadTime(*CB.getCalledFunction());
      // A retpoline caller of it cannot make that call (see below).
      if (bindingHazard(CB, RC) == BindingHazard::RetpolineNoRegister)
        checkBinding(Caller, CB);
      return;
    }
    case BindingHazard::RetpolineNoRegister: {
      Function *Callee = CB.getCalledFunction();
      error(Caller,
            "preserve_none call " +
                (Callee ? "to '" + Callee->getName() + "' "
                        : Twine("through a pointer ")) +
                "in '" + Caller.getName() +
                "' passes 11 or more integer arguments, the 11th in r11, "
                "which the retpoline thunk of an indirect call (or of a call "
                "bound at load time, as cacs binds calls that the lazy PLT "
                "resolver would clobber) needs; pass fewer integer "
                "arguments, or compile without -mretpoline "
                "(-mspeculative-load-hardening and -mlvi-cfi imply it)",
            CB.getDebugLoc());
      recoverFromError(CB);
      return;
    }
    case BindingHazard::KCFIScratch: {
      unsigned N = firstClobberedArgument(RC, ScratchUser::KCFICheck);
      error(Caller,
            "preserve_none call through a pointer in '" + Caller.getName() +
                "' passes " + Twine(N) +
                " or more integer arguments, and the KCFI check of the call "
                "(-fsanitize=kcfi) may use " +
                (RC.isX86_64() ? "r11" : "x9") + ", which carries the " +
                ordinal(N) + "; pass fewer integer arguments, or compile "
                "without -fsanitize=kcfi",
            CB.getDebugLoc());
      recoverFromError(CB);
      return;
    }
    }
  }

  /// Every reference of this module to \p F is bound at load time: calls go
  /// through the GOT (nonlazybind), an address taken in code comes from the
  /// GOT (not dso_local), and a global whose initializer holds the address
  /// is writable, so that the dynamic linker relocates it at load time. A
  /// read-only one in code that is not position-independent would be
  /// resolved by the linker to a canonical PLT entry (a position-independent
  /// compile puts it into .data.rel.ro, which is writable until relocated;
  /// the full-LTO link may generate code that is not, so no exception).
  ///
  /// On AArch64 ELF, the mark of a function whose calling convention is not
  /// the base one (STO_AARCH64_VARIANT_PCS, `.variant_pcs`; LLVM gives it to
  /// vector-PCS functions only) also makes the dynamic linker bind every PLT
  /// entry of the symbol at load time, a canonical one too: the static
  /// linker takes it from any object that marks the symbol, the definition
  /// in a shared library included. GNU ld turns a pointer to it in writable
  /// data into a canonical PLT entry as well.
  void bindAtLoadTime(Function &F) {
    if (RC.takesAbsoluteAddresses() &&
        !F.hasFnAttribute(Attribute::NonLazyBind))
      error(F, "preserve_none function '" + F.getName() +
                   "' may be bound lazily, and its integer argument " +
                   Twine(firstClobberedArgument(RC, ScratchUser::LazyBinding)) +
                   " is in a register the lazy PLT resolver clobbers; code of "
                   "the large code model (-mcmodel=large) that is not "
                   "position-independent takes its address directly, which "
                   "makes the PLT entry its address everywhere, so cacs "
                   "cannot bind it at load time; compile with -fPIC or -fPIE, "
                   "or link with -z now in the command that compiles");
    F.addFnAttr(Attribute::NonLazyBind);
    F.setDSOLocal(false);
    if (RC.isAArch64() && T.isOSBinFormatELF())
      markVariantPCS(F);
    SmallVector<const User *, 8> Work(F.users());
    SmallPtrSet<const User *, 8> Seen;
    while (!Work.empty()) {
      const User *U = Work.pop_back_val();
      if (!Seen.insert(U).second)
        continue;
      if (auto *GV = dyn_cast<GlobalVariable>(U))
        const_cast<GlobalVariable *>(GV)->setConstant(false);
      else if (isa<Constant>(U) && !isa<GlobalValue>(U))
        Work.append(U->user_begin(), U->user_end());
    }
    Changed = true;
  }

  void markVariantPCS(const Function &F) {
    SmallString<64> Name;
    Mangler().getNameWithPrefix(Name, &F, /*CannotUsePrivateLabel=*/false);
    std::string Line = ".variant_pcs \"";
    for (char C : Name) {
      if (C == '"' || C == '\\')
        Line += '\\';
      Line += C;
    }
    Line += '"';
    // Once per module: the full-LTO link sees the compile steps' lines.
    SmallVector<StringRef, 8> Lines;
    StringRef(M.getModuleInlineAsm()).split(Lines, '\n');
    if (!is_contained(Lines, Line))
      M.appendModuleInlineAsm(Line);
  }

  /// libcacs's default-convention entry that does what a shield of a call
  /// to \p Callee would, or null. A shield ends in `ret`, and after a
  /// switch the return stack buffer's top entry is the other coroutine's
  /// call site: that `ret` mispredicts on every resume (issue 22: a
  /// ping-pong of yields marked rare took 22.8 ns per switch through
  /// shields, 6.0 through this entry; bench/results/ANALYSIS.md).
  /// libcacs's `cacs_yield` saves the same registers around cacs__yield_pn
  /// and resumes its caller by a jump on x86-64 (yield_x86_64.S); elsewhere
  /// it is the same C function a shield is. The waits' default-convention
  /// entries end in `ret` like a shield, so only the yield's entries are
  /// redirected.
  Function *runtimeShield(const CallBase &CB, const Function &Caller) {
    const Function *Callee = CB.getCalledFunction();
    if (!Callee)
      return nullptr;
    StringRef Name = Callee->getName();
    Name.consume_front("\1");
    if (Name != "cacs__yield_pn" && Name != "cacs__yield_pn_bp" &&
        Name != "cacs__yield_pn_none")
      return nullptr;
    FunctionType *FTy = CB.getFunctionType();
    // The C entry itself makes this call (sched.c, off x86-64).
    if (Caller.getName() == "cacs_yield" || FTy->getNumParams() ||
        !FTy->getReturnType()->isVoidTy())
      return nullptr;
    Function *Entry = M.getFunction("cacs_yield");
    if (!Entry) {
      Entry =
          Function::Create(FTy, GlobalValue::ExternalLinkage, "cacs_yield", M);
      Entry->setDoesNotThrow();
    }
    return Entry->getFunctionType() == FTy ? Entry : nullptr;
  }

  /// Route CB through a C-convention function that makes the preserve_none
  /// call itself. The shield's prologue saves every callee-saved register
  /// (the caller's base pointer among them) and restores it on return, and
  /// its call is lowered by SelectionDAG (see WrapperBuilder).
  void shield(Function &Caller, CallBase &CB, ShieldReason Why) {
    auto *CI = dyn_cast<CallInst>(&CB);
    if (!canRouteThroughShield(CB)) {
      std::string What;
      if (Why == ShieldReason::BasePointer)
        What = "addresses its stack frame through a base pointer, which "
               "this preserve_none call does not preserve";
      else if (Why == ShieldReason::ReservedRegister)
        What = "reserves a register (-ffixed-xN) that a C call preserves "
               "and this preserve_none call does not";
      else if (Why == ShieldReason::SjLjSetjmp)
        What = "calls __builtin_setjmp, whose landing block reloads values "
               "from spill slots that this preserve_none call's spills may "
               "reuse";
      else
        What = std::string(Caller.hasOptNone()
                               ? "is optnone"
                               : "is lowered by FastISel (-O0 code "
                                 "generation or -mllvm -fast-isel)") +
               ", and on AArch64 LLVM passes the arguments of its "
               "preserve_none calls in the wrong registers";
      error(Caller,
            "'" + Caller.getName() + "' " + What +
                ", and cacs cannot route this call through a shield "
                "(variadic, musttail or operand bundles)",
            CB.getDebugLoc());
      return;
    }
    Function *Callee = CB.getCalledFunction();
    Function *Entry = runtimeShield(CB, Caller);
    Function *Shield =
        Entry ? Entry
              : Wrappers.get(WrapperKind::Shield, Callee, CB.getFunctionType(),
                             CB.getAttributes(), Caller, CB.doesNotThrow());
    if (Callee) {
      CB.setCalledFunction(Shield);
      CB.setCallingConv(CallingConv::C);
      if (CI)
        CI->setTailCallKind(CallInst::TCK_None);
    } else {
      // The shield of an indirect call takes the callee as its first
      // argument; the call is rebuilt with it.
      SmallVector<Value *, 8> Args{CB.getCalledOperand()};
      Args.append(CB.arg_begin(), CB.arg_end());
      IRBuilder<> B(&CB);
      CallBase *New;
      if (auto *II = dyn_cast<InvokeInst>(&CB))
        New = B.CreateInvoke(Shield, II->getNormalDest(), II->getUnwindDest(),
                             Args);
      else
        New = B.CreateCall(Shield, Args);
      New->setAttributes(Shield->getAttributes());
      New->setDebugLoc(CB.getDebugLoc());
      New->takeName(&CB);
      CB.replaceAllUsesWith(New);
      CB.eraseFromParent();
    }
    ++NumShieldedCalls;
    NumRuntimeShielded += Entry != nullptr;
    NumColdShielded += Why == ShieldReason::Cold;
    NumWaitShielded += Why == ShieldReason::ColdWait;
    Changed = true;

    OptimizationRemarkEmitter ORE(&Caller);
    ORE.emit([&] {
      OptimizationRemark R(DEBUG_TYPE, "Shielded", &Caller);
      R << "a preserve_none call in '" << ore::NV("Caller", Caller.getName())
        << "' goes through a shield";
      if (Callee)
        R << " (callee '" << ore::NV("Callee", Callee->getName()) << "')";
      R << (Why == ShieldReason::BasePointer ? ": the caller may use a base "
                                               "pointer"
            : Why == ShieldReason::ReservedRegister
                ? ": the caller reserves a register that preserve_none "
                  "does not preserve"
            : Why == ShieldReason::SjLjSetjmp
                ? ": the caller calls __builtin_setjmp, and the values this "
                  "call would spill stay in callee-saved registers"
            : Why == ShieldReason::Cold
                ? ": the call is rare, and the hot path around it keeps its "
                  "callee-saved registers"
            : Why == ShieldReason::ColdWait
                ? ": the call waits in a loop inside a work loop that does "
                  "not arm the wait, taken as rare, and the work loop keeps "
                  "its callee-saved registers"
                : ": the caller is lowered by AArch64 FastISel");
      if (Entry)
        R << "; the shield is libcacs's default-convention '"
          << ore::NV("Shield", Entry->getName()) << "'";
      return R;
    });
  }
};

} // namespace

PreservedAnalyses
cacs::PreserveNoneSafetyPass::run(Module &M, ModuleAnalysisManager &MAM) {
  return FinalCheck(M, MAM, CodeGenAtO0).run() ? PreservedAnalyses::none()
                                               : PreservedAnalyses::all();
}
