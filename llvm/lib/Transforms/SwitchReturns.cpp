//===- SwitchReturns.cpp - Returns that follow a switch -------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A `ret` is predicted from the return stack buffer, which the `call`s push.
// After a coroutine switch it holds the calls of the coroutine that ran
// before, so the first `ret` after a resume goes to the wrong address, and so
// does every `ret` of a frame that was live at the switch: a handler whose
// parse() calls read(), which waits, mispredicts twice per resume, a chain
// five frames deep five times (bench/patterns). The yield's own `pop; jmp`
// (yield_x86_64.S) fixed only the yield. An indirect jump is predicted from
// the branch history instead, which learns these patterns.
//
// So on x86-64 this pass gives every function that can reach a switch (the
// callers of preserve_none functions, directly or not: walkSwitchCallers,
// SwitchCallers.h, the walk AutoPreserveNone infects along) LLVM's
// `fn_ret_thunk_extern` attribute (what -mfunction-return=thunk-extern
// sets): the backend (X86ReturnThunks, LLVM 19 and 22) lowers each of its
// returns to `jmp __x86_return_thunk`. Functions that cannot switch keep
// `ret`, which the buffer predicts right. The thunk is defined in the module
// that needs it, hidden and linkonce_odr in a comdat: two instructions,
//
//   popq %r11; jmpq *%r11          (`notrack jmpq` under
//   -fcf-protection=branch)
//
// so that no link needs libcacs for it, a shared object calls its own copy
// directly (no PLT), and the LTO link keeps one. The name is fixed by the
// backend; a program that defines its own __x86_return_thunk (kernel-style
// -mfunction-return=thunk-extern code) keeps its definition, a strong one
// overriding ours: any definition of it is a return, so only the speed
// differs.
//
// Why this is sound:
//  - r11 is free at every return of the conventions marked (C, fastcc,
//    coldcc, preserve_none): none returns a value in it or preserves it.
//    Other conventions keep `ret`.
//  - The stack, the unwind tables and the frames are as with `ret`: the
//    function's epilogue is unchanged up to its last instruction, a tail
//    jump. The thunk has CFI of its own (the return address moves into r11),
//    so that C++ exceptions, gdb's backtraces and profilers unwind through a
//    signal taken there. Callers built without cacs see a normal return.
//  - CET: under IBT an indirect jump must land on endbr64 unless it is
//    `notrack`; a return site has none, so the jump is `notrack`, as the
//    yield's (the resume point is a return site too). The thunk itself is
//    only jumped to directly (nocf_check: no endbr64). A shadow stack sees a
//    call that no `ret` pops: under -fcf-protection=return or full the pass
//    does nothing (cacs does not support shadow stacks anyway: the yield
//    resumes by `pop; jmp` too).
//
// -fno-switch-returns turns it off. In the full-LTO link only functions
// compiled with it on (SwitchReturnsEnabledAttr) are marked; the link's walk
// sees the calls across units that each unit's could not. AArch64 keeps `ret`
// (its backend has no per-function hook for it; see docs).
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/SwitchReturns.h"
#include "cacs-compiler/SwitchCallers.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Attributes.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;
using namespace cacs;

#define DEBUG_TYPE "switch-returns"

STATISTIC(NumMarked, "Number of functions that return through the thunk");

namespace {

/// May \p F return through the thunk? Its convention must leave r11 free at
/// its returns, and nothing else may have decided how it returns.
bool mayReturnThroughThunk(const Function &F) {
  if (F.isDeclaration() || F.getName() == ReturnThunkName ||
      F.hasFnAttribute(Attribute::Naked) ||
      F.hasFnAttribute(Attribute::FnRetThunkExtern))
    return false;
  switch (F.getCallingConv()) {
  case CallingConv::C:
  case CallingConv::Fast:
  case CallingConv::Cold:
  case CallingConv::PreserveNone:
    return true;
  default:
    return false;
  }
}

/// Does the module keep a shadow stack (-fcf-protection=return or full)?
bool hasShadowStack(const Module &M) {
  const auto *Flag = mdconst::extract_or_null<ConstantInt>(
      M.getModuleFlag("cf-protection-return"));
  return Flag && !Flag->isZero();
}

/// Does the module enforce indirect branch targets (-fcf-protection=branch
/// or full)?
bool hasIBT(const Module &M) {
  const auto *Flag = mdconst::extract_or_null<ConstantInt>(
      M.getModuleFlag("cf-protection-branch"));
  return Flag && !Flag->isZero();
}

/// Defines the thunk in \p M, unless the module has a function of that name.
void defineThunk(Module &M) {
  if (M.getFunction(ReturnThunkName))
    return;
  LLVMContext &Ctx = M.getContext();
  auto *FTy = FunctionType::get(Type::getVoidTy(Ctx), false);
  Function *Thunk = Function::Create(FTy, GlobalValue::LinkOnceODRLinkage,
                                     ReturnThunkName, M);
  Thunk->setVisibility(GlobalValue::HiddenVisibility);
  Thunk->setComdat(M.getOrInsertComdat(ReturnThunkName));
  Thunk->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  Thunk->addFnAttr(Attribute::Naked);
  Thunk->addFnAttr(Attribute::NoInline);
  Thunk->addFnAttr(Attribute::NoUnwind);
  Thunk->addFnAttr(Attribute::NoCfCheck);
  Thunk->setUWTableKind(UWTableKind::Async);

  // At the entry the return address is at (%rsp), as at any function's
  // entry (the CIE's rule); after the pop it is in r11.
  std::string Asm = "popq %r11\n\t"
                    ".cfi_adjust_cfa_offset -8\n\t"
                    ".cfi_register %rip, %r11\n\t";
  Asm += hasIBT(M) ? "notrack jmpq *%r11" : "jmpq *%r11";
  auto *IA = InlineAsm::get(FTy, Asm, "~{r11},~{dirflag},~{fpsr},~{flags}",
                            /*hasSideEffects=*/true);
  IRBuilder<> B(BasicBlock::Create(Ctx, "", Thunk));
  B.CreateCall(IA);
  B.CreateUnreachable();
  // Only the backend refers to it, by name: keep the optimizer from
  // removing it as unused.
  appendToCompilerUsed(M, {Thunk});
}

} // namespace

PreservedAnalyses SwitchReturnsPass::run(Module &M, ModuleAnalysisManager &) {
  bool Changed = false;
  if (P == Phase::PerTU) {
    for (Function &F : M)
      if (!F.isDeclaration() && !F.hasFnAttribute(SwitchReturnsEnabledAttr)) {
        F.addFnAttr(SwitchReturnsEnabledAttr);
        Changed = true;
      }
  }
  if (Triple(M.getTargetTriple()).getArch() != Triple::x86_64 ||
      hasShadowStack(M))
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();

  bool Marked = false;
  walkSwitchCallers(
      M,
      [&](Function &Caller, Function &) {
        if (mayReturnThroughThunk(Caller) &&
            Caller.hasFnAttribute(SwitchReturnsEnabledAttr)) {
          Caller.addFnAttr(Attribute::FnRetThunkExtern);
          ++NumMarked;
          Marked = true;
        }
        // A caller that keeps `ret` can reach a switch all the same.
        return true;
      },
      /*VisitSeeds=*/true);
  if (Marked)
    defineThunk(M);
  if (!Changed && !Marked)
    return PreservedAnalyses::all();
  // Only attributes change, and a function may be added.
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}
