//===- PreserveNoneRulesShield.h - Calls that need a shield -----*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Whether a preserve_none call must go through a shield for the program to
// be right (needsShield), for the safety pass and APN, and what such a call
// may do to a register its caller reserves.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONERULESSHIELD_H
#define CACS_PRESERVENONERULESSHIELD_H

#include "cacs-compiler/PreserveNoneRules.h"

#include <string>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
} // namespace llvm

namespace cacs {

/// A register that a preserve_none call may overwrite although its caller
/// reserves it for other uses (AArch64 -ffixed-xN, as for a global register
/// variable, which the backend refuses to read without it).
struct ReservedRegisterHazard {
  enum Kind {
    None,
    /// The call passes an integer argument in it (\p Number, from 1). A
    /// shield would not help: it reserves the register too.
    Argument,
    /// It is callee-saved in the C convention but not in preserve_none
    /// (x20-x28). LLVM 19 saves such a register in the prologue of every C
    /// function that modifies it, reserved or not, so after a C call it is
    /// always what it was: a shield (which modifies it by its call) restores
    /// it just as well.
    Restore,
    /// The same, on LLVM 22, which saves a register only where it is not
    /// reserved: after a C call it is what it was if the callee was compiled
    /// without -ffixed-xN, and what the callee wrote if compiled with it.
    /// Unless the callee's definition is in view and reserves it too, cacs
    /// cannot tell which, and a shield (or none) may be wrong.
    Unknown,
  };
  Kind What = None;
  std::string Reg;
  unsigned Number = 0;
  /// Unknown: the callee's definition, as the linker keeps it, is in view
  /// (and does not reserve Reg).
  bool CalleeSeen = false;
  explicit operator bool() const { return What != None; }
};

/// What a preserve_none call from \p Caller with type \p FTy and attributes
/// \p Attrs may do to a register Caller reserves. \p Callee is the function
/// called, null if unknown (an indirect call).
ReservedRegisterHazard reservedRegisterHazard(const llvm::Function &Caller,
                                              const llvm::FunctionType &FTy,
                                              const llvm::AttributeList &Attrs,
                                              const llvm::Function *Callee,
                                              const RuleContext &RC);

/// Why a preserve_none call must go through a shield.
enum class ShieldReason {
  None,
  /// The caller may address its frame through a base pointer (rbx, x19),
  /// which the preserve_none callee need not preserve.
  BasePointer,
  /// AArch64: FastISel may lower the caller (it is optnone, or
  /// RuleContext::mayFastISelLowerAll), and would pass the call's arguments
  /// in the AAPCS registers.
  FastISel,
  /// The caller reserves a register the C convention preserves and
  /// preserve_none does not (ReservedRegisterHazard::Restore).
  ReservedRegister,
  /// The caller calls __builtin_setjmp (llvm.eh.sjlj.setjmp): the block
  /// that __builtin_longjmp lands in reloads values from spill slots, and
  /// LLVM may give those slots to the values a preserve_none call spills.
  SjLjSetjmp,
  /// Not for safety: the call is rare (shieldsColdCall), and through a
  /// shield it leaves the hot path its callee-saved registers.
  Cold,
  /// Not for safety: the call is the yield of a wait loop inside a work loop
  /// (shieldsColdCall's wait-loop heuristic), taken as rare.
  ColdWait,
};

/// Must \p CB, a preserve_none call, go through a shield?
ShieldReason needsShield(const llvm::CallBase &CB, RuleContext &RC);

/// Can the safety pass route \p CB through a shield? Not a musttail call
/// (it must stay in a function of its caller's convention), a variadic one
/// (the shield's signature is fixed) or one with operand bundles.
bool canRouteThroughShield(const llvm::CallBase &CB);

} // namespace cacs

#endif // CACS_PRESERVENONERULESSHIELD_H
