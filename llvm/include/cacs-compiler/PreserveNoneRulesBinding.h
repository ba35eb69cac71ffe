//===- PreserveNoneRulesBinding.h - Calls the linker binds ------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// What code outside the compiler's view (the lazy resolver of the dynamic
// linker, retpoline thunks, KCFI checks) may do to the argument registers of
// a preserve_none call, and which references must be bound at load time.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONERULESBINDING_H
#define CACS_PRESERVENONERULESBINDING_H

#include "cacs-compiler/PreserveNoneRules.h"

namespace llvm {
class CallBase;
class Function;
} // namespace llvm

namespace cacs {

/// What code outside the compiler's view may do to the argument registers of
/// a preserve_none call.
enum class BindingHazard {
  None,
  /// The callee may be bound lazily (a PLT entry: a function that is not
  /// known to be in this object, or is interposable), and an argument is in
  /// a register the lazy resolver clobbers. Binding it at load time
  /// (nonlazybind: a call through the GOT) makes it safe.
  LazyBinding,
  /// The call is indirect, or through the GOT, from a function compiled with
  /// retpolines or LVI hardening (x86-64), whose thunk needs r11, which
  /// carries an argument: the backend has no register left and stops with a
  /// fatal error.
  RetpolineNoRegister,
  /// The call is indirect and checked by KCFI, and an argument is in a
  /// register the check may take as its scratch register without telling
  /// the register allocator (an upstream bug, LLVM 19 and 22: the callee
  /// silently gets a wrong value):
  ///  - x86-64, 11 or more integer arguments: when the register allocator
  ///    puts the target in r10 (it does once rax carries the 12th), the
  ///    check loads the type hash into r11, the 11th argument. With exactly
  ///    11 the target usually lands in rax, but nothing keeps it out of r10.
  ///  - AArch64, 23 or more: the check compares the hashes in w16 and w17,
  ///    but in w9 and w17 when the target is in x16 or x17 (which carry no
  ///    argument, so the allocator may well put it there), and x9 carries
  ///    the 23rd argument.
  /// No shield helps: the shield's own call would need the same check.
  KCFIScratch,
};

/// What may happen to the arguments of \p CB, a preserve_none call, between
/// the caller and the callee.
BindingHazard bindingHazard(const llvm::CallBase &CB, const RuleContext &RC);

/// Would \p CB, a preserve_none call, find no register for its target if
/// made a jump (a sibling call: `tail`; or `musttail`)? x86-64 jumps to an
/// address in a register that carries no argument and is not restored
/// before the jump (rax, rcx, rdx, rsi, rdi, r8, r9, r11), every one of which
/// preserve_none passes an argument in from 12 integer arguments; a call to
/// a pointer or through the GOT (nonlazybind: -fno-plt, or bound at load time
/// by cacs) needs one. LLVM 19 and 22 then stop with "ran out of registers
/// during register allocation"; a `tail` call can be made an ordinary one.
bool jumpTargetLacksRegister(const llvm::CallBase &CB, const RuleContext &RC);

/// Must every reference this module makes to \p F be bound at load time? True
/// for a preserve_none function that may be bound lazily and whose integer
/// arguments reach a register the lazy resolver clobbers. Not only its
/// direct calls (bindingHazard): in code that is not position-independent,
/// an address taken directly (in code, or in a read-only initializer) makes
/// the executable's PLT entry the function's address in the whole program
/// (a canonical PLT entry), and that entry is bound lazily, so every call
/// through a pointer to it, and every call through the GOT, which then holds
/// the same address, reaches the resolver.
bool mustBindAtLoadTime(const llvm::Function &F, const RuleContext &RC);

} // namespace cacs

#endif // CACS_PRESERVENONERULESBINDING_H
