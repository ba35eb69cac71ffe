//===- TLSMigration.cpp - Thread-local storage across switches -----------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A coroutine suspended on thread A and resumed on thread B must use B's
// errno and __thread variables after the switch. LLVM computes them as
// values that do not depend on where they are computed:
//  - llvm.threadlocal.address and llvm.thread.pointer are `memory(none)` and
//    `speculatable`: EarlyCSE, GVN and LICM reuse one call across any other
//    call, and `&tls == &tls` folds to true;
//  - glibc declares __errno_location (and __h_errno_location, __res_state,
//    __ctype_b_loc, pthread_self, ...) `const`, so clang calls it once;
//  - code generation builds one thread-local address per basic block
//    (SelectionDAG), and on AArch64 MachineLICM and MachineCSE move the read
//    of TPIDR_EL0 out of loops and across calls; only x86-64's local-exec and
//    initial-exec loads and stores re-read %fs at each access.
//
// The pass runs before the optimizer (and again at the start of the full-LTO
// link, for bitcode compiled without it). It replaces every such value with
// a call that reads inaccessible memory, `memory(inaccessiblemem: read)`:
//  - each thread-local address and the thread pointer become calls of an
//    accessor, `<variable>.cacs.tls()` (`cacs.thread_pointer()`), a local
//    function the pass defines around the intrinsic. It is `noinline` (so
//    the reuse does not come back by inlining) and `optnone`, which keeps
//    FunctionAttrs from inferring `memory(none)` from its body at any later
//    step (the LTO link included). Code generation never merges calls, so
//    the reuse cannot come back there either;
//  - calls of `const` functions whose result may depend on the thread
//    (mayDependOnThread) get the same memory effects, on the call and on the
//    declaration.
// A call that may switch is one that may write inaccessible memory, which
// LLVM decides: every call it knows nothing about (an external function, a
// call through a pointer, the runtime's yields and preserve_none switches),
// every inline asm statement that is volatile or clobbers memory (the
// runtime's cacs_switch), and every function that calls one of these, as
// FunctionAttrs infers bottom-up over the call graph. Between two switches
// the accessor calls are still merged and hoisted like any read-only call.
//
// A function the program declares `const` or `pure` (`memory(none)`,
// `memory(read)`) tells LLVM that it writes no memory, so its calls would be
// no switch to the callers, which would then reuse thread-local addresses
// across them. Two rules keep that from happening:
//  - a definition in the module is judged by its body (MaySwitch, checked
//    before anything is rewritten): if the body may switch, the pass warns
//    and drops the attribute from the definition and from its calls;
//  - a call of a function whose body the module cannot see (a declaration,
//    a definition the linker may replace, a call through a pointer) is not
//    believed (hidesSwitch): the pass adds "may write inaccessible memory"
//    to its effects, on the call and on the declaration, so that it orders
//    the accessor calls and nothing else. Loads and stores of the program's
//    own memory still move across it; only the call itself is no longer
//    merged, hoisted or deleted. Intrinsics, library functions LLVM knows
//    and thread-dependent `const` calls (which are re-read, above) are
//    believed. This is what makes a caller in another file right: there
//    the declaration is all the compile step sees.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/TLSMigration.h"
#include "cacs-compiler/Diagnostics.h"
#include "cacs-compiler/PreserveNoneRulesWrapper.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ReplaceConstant.h"
#include "llvm/Support/ModRef.h"

#include <optional>

using namespace llvm;
using namespace cacs;

#define DEBUG_TYPE "tls-migration"

STATISTIC(NumAddressesRewritten,
          "Number of thread-local addresses made accessor calls");
STATISTIC(NumAccessors, "Number of thread-local accessors defined");
STATISTIC(NumSwitchingPureDropped,
          "Number of const or pure definitions that may switch, whose "
          "attribute was dropped");
STATISTIC(NumOpaqueReadOnlyCalls,
          "Number of calls of unseen const or pure functions taken to "
          "write inaccessible memory");
STATISTIC(NumConstCallsRewritten,
          "Number of calls of const functions that may depend on the thread "
          "made to read inaccessible memory");

/// Marks the accessors the pass defines: their own intrinsic stays.
static constexpr const char *AccessorAttr = "cacs-tls-accessor";

/// What a thread-dependent value reads: the state a switch changes.
static MemoryEffects threadStateRead() {
  return MemoryEffects::inaccessibleMemOnly(ModRefInfo::Ref);
}

/// What a call that may switch adds to its effects: it may change that
/// state.
static MemoryEffects threadStateWrite() {
  return MemoryEffects::inaccessibleMemOnly(ModRefInfo::ModRef);
}

/// Adds threadStateWrite to what \p F's calls may do, or \p CB (whose own
/// attribute only narrows its callee's).
static void mayWriteThreadState(Function &F) {
  F.setMemoryEffects(F.getMemoryEffects() | threadStateWrite());
}
static void mayWriteThreadState(CallBase &CB) {
  CB.setMemoryEffects(CB.getAttributes().getMemoryEffects() |
                      threadStateWrite());
}

/// Is \p F's body the one its calls run, for the module to judge?
static bool bodyIsFinal(const Function &F) {
  return !F.isDeclaration() && !F.isInterposable();
}

bool cacs::mayDependOnThread(const Function &F, const TargetLibraryInfo &TLI) {
  if (F.isIntrinsic())
    return false;
  LibFunc LF;
  if (TLI.getLibFunc(F, LF) && TLI.has(LF))
    return false;
  if (F.getReturnType()->isPointerTy())
    return true;
  StringRef Name = F.getName();
  return Name == "pthread_self" || Name == "thrd_current";
}

static bool isThreadIntrinsic(const CallBase &CB) {
  const auto *II = dyn_cast<IntrinsicInst>(&CB);
  return II && (II->getIntrinsicID() == Intrinsic::threadlocal_address ||
                II->getIntrinsicID() == Intrinsic::thread_pointer);
}

/// The variable of a thread intrinsic; null for the thread pointer.
static Value *accessedVariable(const IntrinsicInst &II) {
  return II.getIntrinsicID() == Intrinsic::threadlocal_address
             ? II.getArgOperand(0)
             : nullptr;
}

bool cacs::isThreadDependentCall(const CallBase &CB,
                                 const TargetLibraryInfo &TLI) {
  if (isThreadIntrinsic(CB))
    return true;
  // A call that reads memory is not reused across a switch, which writes
  // all of it; inline asm without side effects cannot depend on a switch.
  if (!CB.doesNotAccessMemory() || CB.isInlineAsm())
    return false;
  if (const Function *Callee = CB.getCalledFunction())
    return mayDependOnThread(*Callee, TLI);
  return CB.getType()->isPointerTy();
}

/// Is \p CB a call that may switch although its memory effects say that it
/// writes no memory, as `const` and `pure` say, of a function whose body the
/// module cannot check (the file comment)? Intrinsics, library functions
/// LLVM knows, the pass's accessors and thread-dependent calls (rewritten
/// or not: a compile step and its link each run the pass) are believed; so
/// is inline asm, which cannot hide a call. Effects that C cannot declare
/// (writing only the arguments) come from LLVM's inference over the body,
/// and are believed too.
static bool hidesSwitch(const CallBase &CB, const TargetLibraryInfo &TLI) {
  if (!CB.onlyReadsMemory() || CB.isInlineAsm() ||
      isThreadDependentCall(CB, TLI) ||
      CB.getMemoryEffects() == threadStateRead())
    return false;
  const Function *Callee = CB.getCalledFunction();
  if (!Callee)
    return true;
  if (bodyIsFinal(*Callee) || Callee->isIntrinsic() ||
      Callee->hasFnAttribute(AccessorAttr))
    return false;
  LibFunc LF;
  return !(TLI.getLibFunc(*Callee, LF) && TLI.has(LF));
}

namespace {

/// Which definitions of a module may switch coroutines: those that make a
/// call that may, directly or through other definitions of the module. A
/// call of a definition counts as its body says, whatever attributes the
/// call carries (a `pure` wrapper of a `pure` wrapper of a yield); any other
/// call as LLVM decides (the file comment): inline asm that is volatile or
/// may write memory, and every call that may write inaccessible memory,
/// apart from intrinsics and the library functions LLVM knows. The calls
/// that may hide a switch (hidesSwitch) count if \p CountHidden says so.
class MaySwitch {
public:
  MaySwitch(Module &M, FunctionAnalysisManager &FAM,
            const SmallPtrSetImpl<const CallBase *> &Hidden, bool CountHidden);
  /// The first call of \p F that may switch, or null.
  const CallBase *firstSwitch(const Function &F) const;

private:
  bool maySwitch(const CallBase &CB, const TargetLibraryInfo &TLI) const;
  SmallPtrSet<const Function *, 16> Switching;
  FunctionAnalysisManager &FAM;
  const SmallPtrSetImpl<const CallBase *> &Hidden;
  bool CountHidden;
};

MaySwitch::MaySwitch(Module &M, FunctionAnalysisManager &FAM,
                     const SmallPtrSetImpl<const CallBase *> &Hidden,
                     bool CountHidden)
    : FAM(FAM), Hidden(Hidden), CountHidden(CountHidden) {
  // To a fixed point: a call graph may have cycles.
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (Function &F : M)
      if (!F.isDeclaration() && !Switching.contains(&F) && firstSwitch(F)) {
        Switching.insert(&F);
        Grew = true;
      }
  }
}

const CallBase *MaySwitch::firstSwitch(const Function &F) const {
  if (F.hasFnAttribute(AccessorAttr))
    return nullptr;
  const TargetLibraryInfo &TLI =
      FAM.getResult<TargetLibraryAnalysis>(const_cast<Function &>(F));
  for (const Instruction &I : instructions(F))
    if (const auto *CB = dyn_cast<CallBase>(&I); CB && maySwitch(*CB, TLI))
      return CB;
  return nullptr;
}

bool MaySwitch::maySwitch(const CallBase &CB,
                          const TargetLibraryInfo &TLI) const {
  if (Hidden.contains(&CB))
    return CountHidden;
  if (const auto *IA = dyn_cast<InlineAsm>(CB.getCalledOperand()))
    return IA->hasSideEffects() || !CB.onlyReadsMemory();
  if (const Function *Callee = CB.getCalledFunction()) {
    if (bodyIsFinal(*Callee))
      return Switching.contains(Callee);
    LibFunc LF;
    if (Callee->isIntrinsic() || (TLI.getLibFunc(*Callee, LF) && TLI.has(LF)))
      return false;
  }
  return isModSet(
      CB.getMemoryEffects().getModRef(IRMemLocation::InaccessibleMem));
}

/// Rewrites the thread-dependent values of a module (the file comment says
/// which and how).
class TLSMigration {
public:
  TLSMigration(Module &M, FunctionAnalysisManager &FAM) : M(M), FAM(FAM) {}
  bool run();

private:
  void wrapDirectUses(GlobalValue &GV);
  Function *accessorFor(IntrinsicInst &II, const Function &User);
  bool distrustOpaqueReadOnly(ArrayRef<Function *> Work);
  bool dropSwitchingPure(ArrayRef<Function *> Work);
  bool rewrite(Function &F);

  Module &M;
  FunctionAnalysisManager &FAM;
  /// The accessor of each variable (null: the thread pointer).
  DenseMap<Value *, Function *> Accessors;
  /// The calls distrustOpaqueReadOnly widened.
  SmallPtrSet<const CallBase *, 8> Hidden;
};

/// Uses of a thread-local variable outside llvm.threadlocal.address (bitcode
/// from before LLVM 16, constant expressions) get the intrinsic first.
void TLSMigration::wrapDirectUses(GlobalValue &GV) {
  convertUsersOfConstantsToInstructions({&GV});
  SmallVector<Use *, 8> Direct;
  for (Use &U : GV.uses()) {
    auto *I = dyn_cast<Instruction>(U.getUser());
    if (!I || I->getFunction()->hasFnAttribute(AccessorAttr))
      continue;
    auto *II = dyn_cast<IntrinsicInst>(I);
    if (II && II->getIntrinsicID() == Intrinsic::threadlocal_address)
      continue;
    Direct.push_back(&U);
  }
  for (Use *U : Direct) {
    auto *I = cast<Instruction>(U->getUser());
    Instruction *Where = I;
    if (auto *Phi = dyn_cast<PHINode>(I))
      Where = Phi->getIncomingBlock(*U)->getTerminator();
    IRBuilder<> B(Where);
    U->set(B.CreateThreadLocalAddress(&GV));
  }
}

Function *TLSMigration::accessorFor(IntrinsicInst &II, const Function &User) {
  Value *Var = accessedVariable(II);
  Function *&A = Accessors[Var];
  if (A)
    return A;
  std::string Name =
      Var ? ((Var->hasName() ? Var->getName() : "tls") + TLSAccessorSuffix)
                .str()
          : "cacs.thread_pointer";
  A = Function::Create(FunctionType::get(II.getType(), /*isVarArg=*/false),
                       GlobalValue::InternalLinkage,
                       M.getDataLayout().getProgramAddressSpace(), Name, &M);
  A->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  copyCodeGenSettings(*A, User);
  A->setUWTableKind(User.getUWTableKind()); // For backtraces from inside.
  A->addFnAttr(AccessorAttr);
  A->addFnAttr(WrapperAttr); // C convention for good.
  A->addFnAttr(Attribute::NoInline);
  A->addFnAttr(Attribute::OptimizeNone);
  A->addFnAttr(Attribute::WillReturn);
  A->setDoesNotThrow();
  A->setMemoryEffects(threadStateRead());
  A->addRetAttr(Attribute::NoUndef);
  A->addRetAttr(Attribute::NonNull);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", A));
  Instruction *Clone = II.clone();
  Clone->setDebugLoc({});
  B.Insert(Clone);
  B.CreateRet(Clone);
  ++NumAccessors;
  return A;
}

/// The calls of \p Work that may hide a switch, and their callees: may
/// write inaccessible memory too. A call site can only narrow its callee's
/// effects, so the declaration is widened with it.
bool TLSMigration::distrustOpaqueReadOnly(ArrayRef<Function *> Work) {
  for (Function *F : Work) {
    const TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(*F);
    for (Instruction &I : instructions(*F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || !hidesSwitch(*CB, TLI))
        continue;
      if (Function *Callee = CB->getCalledFunction())
        mayWriteThreadState(*Callee);
      mayWriteThreadState(*CB);
      Hidden.insert(CB);
      ++NumOpaqueReadOnlyCalls;
    }
  }
  return !Hidden.empty();
}

/// A `const` or `pure` definition that may switch: warn, and drop the
/// attribute from it and from the calls of it in this module, before the
/// rewrite takes such calls for thread-dependent values. One that may only
/// through a call that may hide a switch (a `pure` wrapper of a `pure`
/// declaration) is widened as such calls are, silently: its attribute may
/// well be true.
bool TLSMigration::dropSwitchingPure(ArrayRef<Function *> Work) {
  SmallVector<Function *, 4> ReadOnly;
  for (Function *F : Work)
    if (F->onlyReadsMemory())
      ReadOnly.push_back(F);
  if (ReadOnly.empty())
    return false;
  MaySwitch Switches(M, FAM, Hidden, /*CountHidden=*/false);
  std::optional<MaySwitch> MayHide;
  if (!Hidden.empty())
    MayHide.emplace(M, FAM, Hidden, /*CountHidden=*/true);
  bool Changed = false;
  for (Function *F : ReadOnly) {
    const CallBase *CB = Switches.firstSwitch(*F);
    if (!CB) {
      if (!MayHide || !MayHide->firstSwitch(*F))
        continue;
      mayWriteThreadState(*F);
      for (Use &U : F->uses())
        if (auto *Call = dyn_cast<CallBase>(U.getUser());
            Call && Call->isCallee(&U))
          mayWriteThreadState(*Call);
      Changed = true;
      continue;
    }
    const Function *Callee = CB->getCalledFunction();
    StringRef Attr = F->doesNotAccessMemory() ? "const" : "pure";
    emitWarning(*F,
                "'" + F->getName() + "' is declared '" + Attr +
                    "' but may switch coroutines (it " +
                    (CB->isInlineAsm() ? Twine("has an inline asm statement")
                     : Callee          ? "calls '" + Callee->getName() + "'"
                                       : Twine("calls through a pointer")) +
                    "); cacs ignores '" + Attr +
                    "' here and in callers compiled with "
                    "-fcoroutine-migration, but code compiled without it "
                    "may keep errno's and thread-local addresses across the "
                    "switch: remove it",
                DebugLoc());
    F->removeFnAttr(Attribute::Memory);
    for (Use &U : F->uses())
      if (auto *Call = dyn_cast<CallBase>(U.getUser());
          Call && Call->isCallee(&U))
        Call->removeFnAttr(Attribute::Memory);
    ++NumSwitchingPureDropped;
    Changed = true;
  }
  return Changed;
}

bool TLSMigration::rewrite(Function &F) {
  const TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(F);
  SmallVector<IntrinsicInst *, 8> Intrinsics;
  SmallVector<CallBase *, 8> ConstCalls;
  for (Instruction &I : instructions(F)) {
    auto *CB = dyn_cast<CallBase>(&I);
    if (!CB || !isThreadDependentCall(*CB, TLI))
      continue;
    if (isThreadIntrinsic(*CB))
      Intrinsics.push_back(cast<IntrinsicInst>(CB));
    else
      ConstCalls.push_back(CB);
  }
  for (IntrinsicInst *II : Intrinsics) {
    CallInst *Call =
        CallInst::Create(accessorFor(*II, F), "", II->getIterator());
    Call->takeName(II);
    Call->setDebugLoc(II->getDebugLoc());
    II->replaceAllUsesWith(Call);
    II->eraseFromParent();
    ++NumAddressesRewritten;
  }
  for (CallBase *CB : ConstCalls) {
    // The call site and the declaration: LLVM intersects the two.
    CB->setMemoryEffects(threadStateRead());
    if (Function *Callee = CB->getCalledFunction())
      Callee->setMemoryEffects(threadStateRead());
    ++NumConstCallsRewritten;
  }
  return !Intrinsics.empty() || !ConstCalls.empty();
}

bool TLSMigration::run() {
  bool Changed = false;
  for (GlobalVariable &GV : M.globals())
    if (GV.isThreadLocal())
      wrapDirectUses(GV);
  for (GlobalAlias &GA : M.aliases())
    if (GA.isThreadLocal())
      wrapDirectUses(GA);
  SmallVector<Function *, 32> Work;
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (!F.hasFnAttribute(AccessorAttr)) {
      if (F.hasFnAttribute(MigrationAttr))
        Work.push_back(&F);
      continue;
    }
    // One made earlier (a compile step of this full-LTO link): reuse it.
    if (auto *II = dyn_cast<IntrinsicInst>(&F.getEntryBlock().front()))
      if (isThreadIntrinsic(*II))
        Accessors.try_emplace(accessedVariable(*II), &F);
  }
  Changed |= distrustOpaqueReadOnly(Work);
  Changed |= dropSwitchingPure(Work);
  for (Function *F : Work)
    Changed |= rewrite(*F);
  // A declaration no call in this module uses keeps its attributes: a
  // later step (an LTO link) runs the pass again.
  return Changed;
}

} // namespace

PreservedAnalyses TLSMigrationPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (P == Phase::PerTU)
    for (Function &F : M)
      if (!F.isDeclaration() && !F.hasFnAttribute(AccessorAttr))
        F.addFnAttr(MigrationAttr);
  // A link (full LTO, a ThinLTO backend) of code no compile step marked:
  // leave it exactly as stock clang would.
  if (none_of(M, [](const Function &F) {
        return F.hasFnAttribute(MigrationAttr);
      }))
    return PreservedAnalyses::all();
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  if (!TLSMigration(M, FAM).run())
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}
