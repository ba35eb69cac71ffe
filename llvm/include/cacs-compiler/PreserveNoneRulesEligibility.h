//===- PreserveNoneRulesEligibility.h - May a function take it --*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Whether a function may take preserve_nonecc (canTakePreserveNone), for
// APN, the list pass and the safety pass, which differ only in the
// questions they ask. Legality only: the passes rewrite.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONERULESELIGIBILITY_H
#define CACS_PRESERVENONERULESELIGIBILITY_H

#include "cacs-compiler/PreserveNoneRules.h"

#include <string>

namespace llvm {
class CallInst;
class Function;
class Value;
} // namespace llvm

namespace cacs {

/// Marks a function APN made preserve_none: the safety pass may revert it
/// (with all its call sites) when later steps made it ineligible.
inline constexpr const char *APNInfectedAttr = "cacs-apn-infected";

/// Why a function may not take preserve_none.
enum class Ineligible {
  None,
  // Signature: what every translation unit that declares it sees.
  Wrapper,
  Main,
  Naked,
  CallingConv,
  VarArg,
  ParamAttr,
  SplitInt128,
  // Lowering: the backend would miscompile the definition.
  ProbedScratchArgument,
  // Lowering: code runs at the entry, before the prologue, that need only
  // preserve the C argument registers (-mfentry, patchable entries).
  EntryHookArgument,
  // Body: only the defining module sees it.
  MustTail,
  DynamicStack,
  // Callers: whether every call can be rewritten (APN's question).
  Interposable,
  NotLocal,
  Used,
  BlockAddress,
  Aliased,
  IFunc,
  CastedCall,
  AddressTaken,
  MustTailCallSite,
  CallerReservedRegister,
  CallerDynamicStack,
  CallerSjLjSetjmp,
  CallerOptNone,
};

struct Eligibility {
  Ineligible Why = Ineligible::None;
  /// What the reason is about, in words ("it is variadic").
  std::string Detail;
  /// The offending user or calling function, if any.
  const llvm::Value *Other = nullptr;
  explicit operator bool() const { return Why == Ineligible::None; }
};

/// The questions canTakePreserveNone asks.
enum RuleQuestions : unsigned {
  /// Main, naked, calling convention, variadic, parameter attributes.
  AskSignature = 1,
  /// Would the backend miscompile the definition (a stack probe loop or a
  /// split-stack prologue that clobbers an argument register, or an entry
  /// hook that may clobber one: __fentry__, a patched entry), or stop on it
  /// (x86-64 LLVM 19: a realigned dynamic stack)?
  AskLowering = 2,
  /// Musttail calls, a dynamic stack (which may need a base pointer).
  AskBody = 4,
  /// Is every use a direct call that can be rewritten, from a caller whose
  /// call can be lowered (APN's question).
  AskCallers = 8,
  AskAll = AskSignature | AskLowering | AskBody | AskCallers,
};

/// The first musttail call \p F makes, or null. Such a call must stay in a
/// function of F's calling convention and prototype: F may not change
/// convention, and its body may not move into another function.
const llvm::CallInst *firstMustTailCall(const llvm::Function &F);

/// May \p F take preserve_none? Asks the given questions, in the order
/// visibility (part of AskCallers), signature, lowering, body, callers, and
/// returns the first reason it may not.
Eligibility canTakePreserveNone(const llvm::Function &F, RuleContext &RC,
                                unsigned Questions = AskAll);

} // namespace cacs

#endif // CACS_PRESERVENONERULESELIGIBILITY_H
