//===- PreserveNoneRules.h - When preserve_none is safe ---------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The one rule set of cacs: which functions may take preserve_nonecc, which
// preserve_none calls need a shield, and how cacs builds the C-convention
// wrappers, each decided in one place that the passes ask. This header holds
// what every rule shares: the targets cacs supports, the facts computed once
// per module (RuleContext), and the facts of the backends about argument
// registers. Each concern has its header, included by the passes that ask it:
//  - PreserveNoneRulesEligibility.h: may a function take preserve_none
//    (canTakePreserveNone), for APN, the list pass and the safety pass,
//    which differ only in the questions they ask;
//  - PreserveNoneRulesShield.h: must a preserve_none call go through a shield
//    (needsShield), for the safety pass and APN;
//  - PreserveNoneRulesColdCall.h: should a rare one (shieldsColdCall), for the
//    safety pass;
//  - PreserveNoneRulesBinding.h: what the dynamic linker and indirect-call
//    checks may do to a call's argument registers (bindingHazard);
//  - PreserveNoneRulesWrapper.h: how a C-convention wrapper around a
//    preserve_none call is built (WrapperBuilder): the list's C-entry thunks
//    and the safety pass's shields are the same kind of function.
//
// Every fact about the backends these rules rely on is pinned by a test in
// test/CodeGen or test/Hazards.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONERULES_H
#define CACS_PRESERVENONERULES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Attributes.h"

#include <string>

namespace llvm {
class CallBase;
class Function;
class FunctionType;
class GlobalValue;
class Module;
class Triple;
} // namespace llvm

namespace cacs {

/// Does cacs give preserve_none on target \p T? On x86-64 and AArch64, the
/// targets whose backends lower the convention and whose hazards these rules
/// know. Elsewhere stock clang ignores the attribute with a warning, and a
/// list or APN would reach backends that stop on the convention (riscv64,
/// 32-bit Arm: "Unsupported calling convention"), crash on it (i386), or
/// lower it as the C one (powerpc64le): the cacs passes leave such a module
/// as stock clang made it (the pass plugin runs none of them there), and a
/// cacs setting there gets unsupportedTargetWarning. A module that names no
/// target (an IR test of a pass) is not refused: what the passes do without
/// a target is theirs to decide.
bool supportsPreserveNone(const llvm::Triple &T);

/// The warning for a cacs setting, spelled \p Flag as the front door takes
/// it, given for a target that supportsPreserveNone says no to.
std::string unsupportedTargetWarning(llvm::StringRef Flag,
                                     const llvm::Triple &T);

/// Facts computed once per module and shared by the questions.
class RuleContext {
public:
  /// \p CodeGenAtO0: the module's code is generated at -O0 (the pipeline
  /// runs at O0), where FastISel lowers the functions that GlobalISel does
  /// not, optnone or not (-Xclang -disable-O0-optnone).
  explicit RuleContext(const llvm::Module &M, bool CodeGenAtO0 = false);

  bool isAArch64() const { return AArch64; }
  bool isX86_64() const { return X86_64; }
  /// May \p F get a dynamically sized or realigned frame, from its own IR or
  /// from instrumentation that runs after cacs (see StackFrame.h)? Cached.
  bool mayHaveDynamicStack(const llvm::Function &F);
  bool isUsed(const llvm::GlobalValue &GV) const { return Used.count(&GV); }
  /// May FastISel lower any function of the module, not only the optnone
  /// ones? Yes if it was asked for on the command line (-mllvm -fast-isel,
  /// at any -O) or the code is generated at -O0.
  bool mayFastISelLowerAll() const { return FastISelForced || CodeGenAtO0; }
  /// Does the module's code take the address of a function as an absolute
  /// immediate, whatever its visibility (x86-64 -mcmodel=large without
  /// -fPIC/-fPIE: `movabsq $f`)? The linker then makes the executable's
  /// lazily bound PLT entry the function's address in the whole program (a
  /// canonical PLT entry), and no call of it can be bound at load time.
  bool takesAbsoluteAddresses() const { return AbsoluteAddresses; }
  /// Is the code linked with -z now, which binds every PLT entry at load
  /// time (the setting cacs-link-binds-now: only a command that compiles and
  /// links knows)?
  bool linkBindsNow() const { return LinkBindsNow; }
  /// Is the module's code generated at -O0?
  bool codeGenAtO0() const { return CodeGenAtO0; }

private:
  bool AArch64, X86_64, FastISelForced, CodeGenAtO0, AbsoluteAddresses,
      LinkBindsNow;
  llvm::SmallPtrSet<const llvm::GlobalValue *, 8> Used;
  llvm::DenseMap<const llvm::Function *, bool> DynamicStack;
};

/// Does the backend miscompile a variadic preserve_none function or call on
/// this target (x86-64: callers and callee use different registers)?
/// The clang plugin's check asks this too.
bool variadicPreserveNoneMiscompiles(const llvm::Triple &T);

/// Does the backend miscompile a preserve_none call whose first argument is
/// `returned` (AArch64, LLVM 19 and 22: the call gets the AAPCS "this
/// return" register mask, which keeps x0 and x19-x28 across the call,
/// although the argument went in x20 and the callee saves none of them)?
/// LLVM's function-attribute inference adds `returned` to any function that
/// returns its first argument, so the safety pass removes it there.
bool returnedArgumentMiscompiles(const llvm::Triple &T);

/// The number of integer argument registers of preserve_none on the target
/// after which an argument lands in a register that code outside the
/// compiler's view clobbers: the lazy PLT resolver (x86-64: r11, the 11th;
/// AArch64: x10-x15 and x9, from the 18th) and the inline stack probe loop
/// (x86-64: r11; AArch64: x9, the 23rd) and the -fsplit-stack prologue
/// (x86-64: r11), and a hook called at the entry, before the prologue, which
/// the ABI obliges to preserve only the C argument registers (x86-64: r11;
/// AArch64: x9-x15, from the 18th), and the KCFI check of an indirect call
/// (x86-64: r11; AArch64: x9, the 23rd; see BindingHazard::KCFIScratch).
/// 0 if none.
enum class ScratchUser {
  LazyBinding,
  StackProbe,
  SplitStack,
  EntryHook,
  KCFICheck
};
unsigned firstClobberedArgument(const RuleContext &RC, ScratchUser U);

/// Is \p Feature ("+name") among the target features of \p F?
bool hasTargetFeature(const llvm::Function &F, llvm::StringRef Feature);

/// The function attributes that make the backend put code at the entry of a
/// function, before its prologue, that calls a hook or is patched at run time
/// into a call of one: -mfentry's `call __fentry__` (-mnop-mcount's nops in
/// its place), -fpatchable-function-entry's nops. The x86-64 ABI lets such a
/// hook clobber what the C convention does not pass arguments in (r10, r11);
/// glibc's __fentry__ saves only rax, rcx, rdx, rsi, rdi, r8 and r9. XRay's
/// sleds are not among them: its trampolines save every argument register.
/// Does \p F have an entry hook?
bool hasEntryHook(const llvm::Function &F);

/// Removes the entry hooks of \p F (whose body moved into a function that
/// keeps them).
void removeEntryHooks(llvm::Function &F);

/// The number of integer registers the arguments of \p FTy take: one per
/// 64 bits of an integer (two for i128), the sum of the elements of a
/// first-class aggregate, none for an argument passed in memory (byval,
/// inalloca, preallocated in \p Attrs, the function's or the call's).
unsigned integerArgumentRegisters(const llvm::FunctionType &FTy,
                                  const llvm::AttributeList &Attrs = {});

/// May \p CB, a preserve_none call on x86-64, pass an argument on the
/// stack: more than 12 integer or 8 float/double arguments, or one that may
/// go to memory for another reason (an aggregate, a vector, i128, x86_fp80,
/// a byval, inalloca, preallocated or nest parameter, a result returned
/// through memory)? LLVM 22 saves the caller's frame and base pointers around
/// a call that may clobber them by pushing them, and then stores such
/// arguments over them ("Interference usage of base pointer/frame
/// pointer", or a garbage frame).
bool mayPassArgumentsOnStack(const llvm::CallBase &CB);

} // namespace cacs

#endif // CACS_PRESERVENONERULES_H
