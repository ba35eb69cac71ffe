//===- PreserveNoneRules.h - When preserve_none is safe ---------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The one place that decides
//  - whether a function may take preserve_nonecc (canTakePreserveNone), for
//    APN, the list pass and the safety pass, which differ
//    only in the questions they ask;
//  - whether a preserve_none call must go through a shield (needsShield),
//    for the safety pass and APN, and whether a rare one should
//    (shieldsColdCall), for the safety pass;
//  - how a C-convention wrapper around a preserve_none call is built
//    (getOrCreateWrapper): the list's C-entry thunks and the safety pass's
//    shields are the same kind of function.
//
// Every fact about the backends these rules rely on is pinned by a test in
// test/CodeGen or test/Hazards.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONERULES_H
#define CACS_PRESERVENONERULES_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Attributes.h"

#include <map>
#include <string>
#include <tuple>

namespace llvm {
class BlockFrequencyInfo;
class CallBase;
class CallInst;
class Function;
class FunctionType;
class GlobalValue;
class LoopInfo;
class Module;
class ProfileSummaryInfo;
class Triple;
class Value;
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

/// Marks a function APN made preserve_none: the safety pass may revert it
/// (with all its call sites) when later steps made it ineligible.
inline constexpr const char *APNInfectedAttr = "cacs-apn-infected";

/// Marks the C-convention wrappers cacs makes (shields, C entries, alias
/// entries): they exist to keep the C convention, so no list or APN may
/// give them preserve_none (a later full-LTO link sees them too).
inline constexpr const char *WrapperAttr = "cacs-wrapper";

/// Is \p F one of the wrappers cacs makes (WrapperAttr; C entries are also
/// known by their name, as modules from before the attribute name them)?
bool isCACSWrapper(const llvm::Function &F);

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

/// The first musttail call \p F makes, or null. Such a call must stay in a
/// function of F's calling convention and prototype: F may not change
/// convention, and its body may not move into another function.
const llvm::CallInst *firstMustTailCall(const llvm::Function &F);

/// May \p F take preserve_none? Asks the given questions, in the order
/// visibility (part of AskCallers), signature, lowering, body, callers, and
/// returns the first reason it may not.
Eligibility canTakePreserveNone(const llvm::Function &F, RuleContext &RC,
                                unsigned Questions = AskAll);

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

/// May \p CB, a preserve_none call on x86-64, pass an argument on the
/// stack: more than 12 integer or 8 float/double arguments, or one that may
/// go to memory for another reason (an aggregate, a vector, i128, x86_fp80,
/// a byval, inalloca, preallocated or nest parameter, a result returned
/// through memory)? LLVM 22 saves the caller's frame and base pointers around
/// a call that may clobber them by pushing them, and then stores such
/// arguments over them ("Interference usage of base pointer/frame
/// pointer", or a garbage frame).
bool mayPassArgumentsOnStack(const llvm::CallBase &CB);

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

/// A preserve_none call must be this many times rarer than the hottest block
/// of its function to go through a shield for speed (shieldsColdCall).
inline constexpr unsigned ColdCallRatio = 64;

/// The function attributes in which a compile records that its
/// -mllvm -cacs-cold-call-shield or -cacs-cold-wait-loop is off ("false" on
/// each of its definitions, recordColdShieldSettings), so that an LTO link,
/// which makes the shields but is not given the compile's options, keeps
/// the setting per function, as LLVM keeps "frame-pointer" or
/// "target-features". Functions inlined into another follow the caller's.
inline constexpr const char *ColdCallShieldAttr = "cacs-cold-call-shield";
inline constexpr const char *ColdWaitLoopAttr = "cacs-cold-wait-loop";

/// Records this compile's cold-shield settings that are off on every
/// definition of \p M (ColdCallShieldAttr, ColdWaitLoopAttr). Returns
/// whether it changed \p M.
bool recordColdShieldSettings(llvm::Module &M);

/// Should \p CB, a preserve_none call that needs no shield, go through one
/// anyway because it is rare? A preserve_none call clobbers every register,
/// so the register allocator keeps each value live across it in memory,
/// often over the whole loop around it: a wait loop's cold yield
/// (`while (full) yield();`) in a byte loop puts the byte loop's values in
/// stack slots. Through a shield, the C convention applies at the call
/// site, the values stay in callee-saved registers, and only the shield's
/// prologue, on the rare path, saves them. Cold if \p BFI says the call's
/// block runs at most 1/ColdCallRatio times as often as the function's
/// hottest block (\p GetBFI computes them when the other conditions
/// hold), or \p PSI's profile says it is cold; ColdWait if, without a
/// profile, the call is the yield of a wait loop inside a work loop that
/// does not arm the wait itself (isRareWait, \p GetLI); None for a call
/// the shield cannot keep exactly (musttail, variadic, operand bundles,
/// returns_twice, inline asm), one that does not return, in optnone or -O0
/// code, or with -mllvm -cacs-cold-call-shield=false given to this pass or
/// to the compile of the caller (ColdCallShieldAttr).
ShieldReason
shieldsColdCall(const llvm::CallBase &CB, const RuleContext &RC,
                llvm::function_ref<const llvm::BlockFrequencyInfo &()> GetBFI,
                llvm::function_ref<const llvm::LoopInfo &()> GetLI,
                const llvm::ProfileSummaryInfo *PSI);

/// Is \p CB, a preserve_none call, the yield of a rare wait? Static block
/// frequencies take any loop to run 32 times, so a wait loop
/// (`while (full) yield();`) looks 32 times hotter than the work loop
/// around it, whatever its condition. But a wait's trip count says nothing
/// about how often the work loop waits (each of its iterations is a round
/// of the other coroutines), and the costs are asymmetric: a frequent wait
/// taken for rare costs the shield's saves per yield (~12 instructions
/// beside a switch and a round of other coroutines); a rare wait taken for
/// frequent costs memory operands on every iteration of the work.
///
/// Yes if, with no branch weights on the branches that decide whether to
/// wait (a hint or a profile is believed instead):
///  - the innermost loop W around \p CB is a wait loop: besides \p CB, it
///    has no call, and only reads of memory (loads, address arithmetic,
///    casts), comparisons and logic on i1 that decide whether to go on
///    waiting, phis of values it reads, and counter updates
///    (`store (add (load P), C), P`, like `++waits`) whose P it reads
///    nowhere else; so it carries nothing from one round to the next but
///    memory that other code changes;
///  - W is inside another loop L, the work loop; and
///  - L does not arm the wait itself: no store in L of a constant to what
///    the decision reads, and no constant coming round L into it, makes it
///    wait. A one-slot channel's `full = 1` before the next `while (full)`
///    arms it: every round that comes back without the other side having
///    run waits (bench/patterns' pipeline, where every item waits).
/// Hazards (speed only; a shield never changes what the program computes):
/// a wait that is frequent for a reason the IR does not show (a counter
/// compared against a capacity the other side fills at once) gets a shield
/// on every yield; a store through another pointer to the same flag is not
/// seen as arming it; with -mllvm -cacs-cold-wait-loop=false (given to this
/// pass or to the compile of the caller, ColdWaitLoopAttr) shieldsColdCall
/// does not ask.
bool isRareWait(const llvm::CallBase &CB, const llvm::LoopInfo &LI);

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

/// Gives \p To the code generation settings of \p From that a function
/// cacs makes must not lose (target features, frame pointers, branch
/// protection, stack probes, entry instrumentation, ...).
void copyCodeGenSettings(llvm::Function &To, const llvm::Function &From);

/// What a C-convention wrapper around a preserve_none call is for.
enum class WrapperKind {
  /// The list's `<name>.cacs_c_entry`: stands for the function wherever its
  /// address is taken; one per function and program (linkonce_odr).
  CEntry,
  /// The entry an alias of a listed function points at when the alias is
  /// not listed: `<name>.cacs_c_entry.alias`, internal and in no comdat (a
  /// comdat may be discarded for another unit's copy).
  AliasEntry,
  /// The safety pass's `<name>.cacs.shield`: saves every callee-saved
  /// register around the call; private, one per lowering.
  Shield,
};

/// Builds and caches the wrappers of a module. The key holds everything that
/// changes how a wrapper is lowered: the callee, its function type, the
/// call-site attributes, and the code generation attributes of the function
/// whose settings the wrapper copies (target cpu and features, frame pointer,
/// branch protection, stack probes, optnone, ...).
class WrapperBuilder {
public:
  explicit WrapperBuilder(llvm::Module &M) : M(M) {}

  /// A wrapper that calls \p Callee (null: the wrapper's first parameter,
  /// an indirect callee) with type \p FTy, attributes \p CallAttrs, and the
  /// code generation settings of \p SettingsFrom.
  llvm::Function *get(WrapperKind K, llvm::Function *Callee,
                      llvm::FunctionType *FTy, llvm::AttributeList CallAttrs,
                      const llvm::Function &SettingsFrom, bool NoThrow);

private:
  llvm::Module &M;
  std::map<std::tuple<int, llvm::Function *, llvm::FunctionType *, void *,
                      std::string>,
           llvm::Function *>
      Cache;
};

} // namespace cacs

#endif // CACS_PRESERVENONERULES_H
