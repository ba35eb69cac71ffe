//===- PreserveNoneRulesShield.cpp - Calls that need a shield -------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// needsShield and the hazards it weighs.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/PreserveNoneRulesShield.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace llvm;
using namespace cacs;

ReservedRegisterHazard cacs::reservedRegisterHazard(const Function &Caller,
                                                    const FunctionType &FTy,
                                                    const AttributeList &Attrs,
                                                    const Function *Callee,
                                                    const RuleContext &RC) {
  // AArch64 preserve_none passes integer arguments in x20-x28, x0-x7,
  // x10-x14, x9, x15; -ffixed-xN reserves any of them ("+reserve-xN").
  static const unsigned AArch64Regs[] = {20, 21, 22, 23, 24, 25, 26, 27,
                                         28, 0,  1,  2,  3,  4,  5,  6,
                                         7,  10, 11, 12, 13, 14, 9,  15};
  ReservedRegisterHazard H;
  if (!RC.isAArch64())
    return H;
  auto Reserves = [](const Function &F, unsigned N) {
    return hasTargetFeature(F, "+reserve-x" + std::to_string(N));
  };
  unsigned Regs = std::min<unsigned>(integerArgumentRegisters(FTy, Attrs),
                                     std::size(AArch64Regs));
  for (unsigned I = 0; I != Regs; ++I)
    if (Reserves(Caller, AArch64Regs[I])) {
      H.What = ReservedRegisterHazard::Argument;
      H.Reg = "x" + std::to_string(AArch64Regs[I]);
      H.Number = I + 1;
      return H;
    }
  // x19 cannot be reserved (it may be the base pointer); x20-x28 are
  // callee-saved in the C convention only. The other reservable registers
  // are not preserved across a C call either, so every unit must reserve
  // them anyway. Only a definition that the linker keeps says how the callee
  // was compiled: clang gives a declaration the unit's own target features,
  // and another unit's copy, compiled otherwise, may replace a linkonce or
  // weak one.
  bool CalleeSeen =
      Callee && !Callee->isDeclaration() && Callee->isDefinitionExact();
  for (unsigned N = 20; N <= 28; ++N) {
    if (!Reserves(Caller, N))
      continue;
    H.Reg = "x" + std::to_string(N);
    if (LLVM_VERSION_MAJOR < 22) {
      H.What = ReservedRegisterHazard::Restore;
      return H;
    }
    if (!(CalleeSeen && Reserves(*Callee, N))) {
      H.What = ReservedRegisterHazard::Unknown;
      H.CalleeSeen = CalleeSeen;
      return H;
    }
  }
  H.Reg.clear();
  return H;
}

/// Does a caller that uses a base pointer lose it across this preserve_none
/// call? x86-64 was fixed by LLVM 22, which saves rbx around a call, but not
/// around an invoke: there the backend stops with "Stack realignment in
/// presence of dynamic allocas is not supported with this calling
/// convention" (a C++ frame with ASan, or an over-aligned local and a VLA,
/// calling a preserve_none function inside a destructor's scope); nor
/// around a call with arguments on the stack ("Interference usage of base
/// pointer/frame pointer"). AArch64 does not save x19 in 19 nor in 22.
static bool basePointerLostAcrossCall(const CallBase &CB,
                                      const RuleContext &RC) {
  // Other targets: assume the worst.
  return !(RC.isX86_64() && LLVM_VERSION_MAJOR >= 22) || isa<InvokeInst>(CB) ||
         mayPassArgumentsOnStack(CB);
}

/// Does \p F call __builtin_setjmp? __builtin_longjmp lands in a block
/// that reloads every value it needs from its spill slot, but no edge of the
/// CFG leads there from the calls that may longjmp, and the function is not
/// marked as calling a returns_twice function (a libc setjmp is), so
/// StackSlotColoring gives those slots to values spilled after the setjmp.
/// Across a C call the values stay in callee-saved registers; a
/// preserve_none call spills all of them: x86-64 LLVM 19 and 22, stock clang
/// with the attribute too (test/Hazards/builtin-setjmp-spill-slots.c).
static bool callsSjLjSetjmp(const Function &F) {
  const Function *SjLj =
      F.getParent()->getFunction(Intrinsic::getName(Intrinsic::eh_sjlj_setjmp));
  return SjLj && any_of(SjLj->users(), [&](const User *U) {
           const auto *CB = dyn_cast<CallBase>(U);
           return CB && CB->getFunction() == &F;
         });
}

ShieldReason cacs::needsShield(const CallBase &CB, RuleContext &RC) {
  const Function &Caller = *CB.getFunction();
  if (basePointerLostAcrossCall(CB, RC) && RC.mayHaveDynamicStack(Caller))
    return ShieldReason::BasePointer;
  if (callsSjLjSetjmp(Caller))
    return ShieldReason::SjLjSetjmp;
  // FastISel leaves variadic calls to SelectionDAG, which gets them right.
  if (RC.isAArch64() && (Caller.hasOptNone() || RC.mayFastISelLowerAll()) &&
      !CB.getFunctionType()->isVarArg())
    return ShieldReason::FastISel;
  if (reservedRegisterHazard(Caller, *CB.getFunctionType(), CB.getAttributes(),
                             CB.getCalledFunction(), RC)
          .What == ReservedRegisterHazard::Restore)
    return ShieldReason::ReservedRegister;
  return ShieldReason::None;
}

bool cacs::canRouteThroughShield(const CallBase &CB) {
  const auto *CI = dyn_cast<CallInst>(&CB);
  return !(CI && CI->isMustTailCall()) && !CB.hasOperandBundles() &&
         !CB.getFunctionType()->isVarArg();
}
