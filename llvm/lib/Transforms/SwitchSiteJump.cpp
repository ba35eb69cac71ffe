//===- SwitchSiteJump.cpp - Switches entered by a jump --------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// cacs__yield_pn is entered by a `call` that it never returns to: it leaves
// into the resumed coroutine by `pop %rdx; jmp *%rdx` (yield_x86_64.S). On
// AMD Zen 5 that unreturned call costs ~2 ns per switch against the same
// switch entered by a jump (bench/results/switch-returns/jmp-entry.md).
//
// Under -fswitch-site-jumps (on by default) this pass lowers each call of
// cacs_yield's entry (`call preserve_nonecc void @cacs__yield_pn()`) to
//
//   leaq 1f(%rip), %r11
//   movq %r11, -8(%rsp)
//   jmpq *cacs__yield_pn_jmp@GOTPCREL(%rip)
//   1:
//
// in one inline assembly statement, and each call of cacs_effect_perform's
// and cacs_effect_resume's entries (cacs__effect_perform_pn,
// cacs__effect_resume_pn, which are entered by a call they never return to
// as well: effect_x86_64.S) to the same statement jumping to their _jmp
// entries, with the call's arguments bound to the preserve_none argument
// registers (r12, r13, r14, ... on x86-64) and its results to the return
// registers (rax, rdx): the statement is the call, minus the call. One rule
// for all three (callReason). The site stores its resume address where a
// call would have pushed it and jumps; the jump entry treats rsp as 8 above
// that word (the yield's moves rsp down to it and is cacs__yield_pn from
// there; the effect ones do so on their slow branches), so the suspended
// layout is the call entry's and any entry resumes any other's coroutines
// (cacs/detail/contract.h). Every call is lowered, in a loop or not: there
// is no per-site cost beyond the site's two instructions (the earlier
// lowering, a call of a site entry and a jump at each site, lost where a
// yield was not in a loop; this one does not: jmp-entry.md). The one call
// kept is a function's last act that the backend makes a tail jump
// (isTailJump: `wait() { ...; cacs_yield(); }` in a preserve_none caller):
// the jump to the call entry leaves no call unreturned either, and the
// caller's caller is resumed directly, without the site, the frame's
// alignment and the switch return that a lowered site would add.
//
// Calls by jump. Under the same flag (and -mllvm -cacs-calls-by-jump, on by
// default, to compare), each call of a function that returns by the switch
// returns (SwitchReturns, which ran before, gave it fn_ret_thunk_extern: it
// can reach a switch, so no `ret` ever matches its call) is lowered to
//
//   leaq 1f(%rip), %r11
//   pushq %r11
//   jmp callee          (callee@PLT where it is preemptible)
//   1:
//
// with the arguments and results bound as at the sites above (the callee is
// preserve_none: the same clobbers), and the callee a symbol operand ("s",
// printed by ${N:P}: accepted in PIC, PIE and non-PIC by LLVM 19 and 22,
// where "i" is refused for a preemptible callee in PIC), not a name pasted
// into the text, so that an internal callee is kept and renamed as any
// callee. The push leaves exactly a call's layout, so a PLT entry and its
// lazy resolver are fine here, unlike at the sites above. callByJumpReason
// is the one rule of which calls qualify (a `call`, not musttail nor a tail
// call the backend makes a jump; a known preserve_none callee with the
// switch returns that keeps rbp, with at most six i32, i64 or pointer
// arguments, none byval, sret, inalloca, nest, inreg or swift*, no varargs,
// a result in rax or rax:rdx; a callee that may unwind only in a caller
// without a personality: the statement has no call-site table entry; and
// functionReason's rules of the caller), lowerToAsm the one binding.
// Unwind information: between the push and the jump the caller's CFA, if
// rsp-based, is 8 off for that one instruction; an asynchronous unwind
// from exactly there (a profiler's, a signal's) sees a wrong frame. At the
// callee's first instruction and later, the frames are a call's (the
// return address is in the caller, after the jump, with the call's line:
// test/SwitchSiteJump/callbyjump-gdb.c). No CFI is emitted from the inline
// assembly. AArch64 keeps its calls (the module rule below).
//
// Why it is sound, and where it does nothing:
//  - Registers: the statement clobbers every register the preserve_none
//    call does (all but rsp and rbp; the AVX-512 ones where the function
//    has them; the x87 stack), flags and memory, so the values live across
//    the call are kept as around the call. The registers that carry
//    arguments are inputs and, since the call clobbers them, outputs too
//    (discarded); those of the results are outputs; no register is both
//    bound and in the clobber list. Calls with more than six arguments
//    (the seventh is in rdx, a result register; the eleventh in r11, the
//    site's scratch) stay calls: none of the entries has more than three.
//    Functions that may use rbx as a base pointer (mayHaveDynamicStack)
//    keep the call: the safety pass shields those calls, and rbx is
//    reserved there.
//  - The stack: no red zone (`noredzone`), where the site stores its resume
//    address and the entry rbp. The perform's and resume's sites and the
//    calls by jump are `alignstack`: the backend treats them as calls (the
//    frame keeps the call's 16-byte alignment, also in a function that
//    calls nothing), as their slow paths and callees run C. The yield's
//    sites are not (JumpEnteredEntry::AlignedSite): its jump entry's slow
//    branch realigns before any C (yield_x86_64.S), so a function that
//    calls nothing but yields has no push and pop for the alignment (2 of
//    the handler pattern's instructions per switch, issue 35).
//  - The resume address is the label after the jump, in the same statement:
//    nothing can be scheduled between the store and the jump, or between
//    the jump and the label.
//  - Nothing may write below rsp between the store and the entry, so no
//    site's jump (the yield's, the perform's, the resume's: siteAsm, one
//    rule for every entry) goes through a PLT: glibc's lazy resolver
//    pushes there (the PLT entry's `push $index`) and would overwrite the
//    resume address at the first switch of a shared object that links
//    libcacs (built with -DCACS_TLS_INITIAL_EXEC) or calls the libcacs of
//    the executable. The jump reads the entry from the GOT, which the
//    dynamic linker fills at load time; where the entry is in the same
//    module (libcacs linked into the executable) the linker relaxes it to
//    a direct `jmp` and a `nop` (R_X86_64_GOTPCRELX), as -fno-plt does for
//    calls (test/SwitchSiteJump/shared-lazy.c, dlopen.c).
//  - It runs last, after AutoPreserveNone, the safety checks, the sync-block
//    check, SwitchReturns and the stack-bound record have seen the call
//    (walkSwitchCallers, the one rule of what reaches a switch, follows
//    calls; the statement is none). So it never runs in an LTO compile step
//    (the link's walks see the calls across units, then lower); ThinLTO
//    keeps the calls (its backends cannot be told from compile steps on
//    LLVM 19). Not at -O0 (the pipeline does not add it).
//  - CET: IBT: the entry starts with endbr64 (an indirect jump reaches it
//    from another module); the resume point has no endbr64, as a call's
//    return site has none: every resumer reaches it by a `ret` or a
//    `notrack` jump (yield_x86_64.S). A shadow stack
//    (-fcf-protection=return, full) is unsupported by cacs; the pass keeps
//    the calls there.
//  - Sanitizers (ASan, TSan, MSan, HWASan): the calls stay (libcacs switches
//    through its annotated slow path under them anyway).
//  - -fcacs-stack-bounds: StackBoundRecord, before this pass, recorded the
//    call of cacs__yield_pn with its budget; the link's walk gives the jump
//    entry that budget and follows the jump to it as to a callee
//    (cacs-stack-bounds.cpp).
//  - Indirect-branch hardening (-mretpoline, -mlvi-cfi, -mharden-sls=all,
//    speculative load hardening): the calls stay; the site's jump is
//    indirect where the entry is in another module.
//  - Not x86-64 ELF (AArch64), the large code model: the calls stay, with a
//    missed remark each (no warning: the flag is on by default).
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/SwitchSiteJump.h"
#include "cacs-compiler/PreserveNoneRules.h"
#include "cacs-compiler/Settings.h"
#include "cacs-compiler/StackBound.h"
#include "cacs-compiler/StackFrame.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

#include <iterator>

using namespace llvm;
using namespace cacs;

#define DEBUG_TYPE "switch-site-jump"

STATISTIC(NumLowered, "Switches lowered to a jump-entered site");
STATISTIC(NumCallsByJump, "Calls of switch-aware functions entered by a jump");

namespace {

bool moduleFlagSet(const Module &M, StringRef Name) {
  const auto *Flag =
      mdconst::extract_or_null<ConstantInt>(M.getModuleFlag(Name));
  return Flag && !Flag->isZero();
}

/// Is \p M an LTO compile step or a ThinLTO backend? clang adds these flags
/// before it runs the pipeline of a compile that writes bitcode for LTO, and
/// a ThinLTO backend reads them back.
bool isLTOModule(const Module &M) {
  return M.getModuleFlag("ThinLTO") || M.getModuleFlag("EnableSplitLTOUnit");
}

/// Why the pass keeps every call of \p M, or null.
const char *moduleReason(const Module &M) {
  Triple T(M.getTargetTriple());
  if (T.getArch() != Triple::x86_64 || T.isX32() || !T.isOSBinFormatELF())
    return "it is implemented for x86-64 ELF only";
  if (moduleFlagSet(M, "cf-protection-return"))
    return "cacs does not support shadow stacks (-fcf-protection=return)";
  // The site's rip-relative operands (its resume label, the GOT slot) are
  // 32-bit, which the large code model cannot assume.
  if (M.getCodeModel() == CodeModel::Large)
    return "the site's call does not reach everywhere in the large code "
           "model";
  return nullptr;
}

/// The first registers of preserve_none's integer arguments on x86-64
/// (X86CallingConv.td's CC_X86_64_Preserve_None: r12, r13, r14, r15, rdi,
/// rsi, rdx, rcx, r8, r9, r11, rax): the six that are neither a result
/// register (rdx, rax: an argument there would be bound twice) nor the
/// site's scratch (r11). The entries take three at most.
constexpr const char *ArgRegs[] = {"r12", "r13", "r14", "r15", "rdi", "rsi"};
/// The registers of its integer results (RetCC_X86_64_C's).
constexpr const char *RetRegs[] = {"rax", "rdx"};

bool isWord(const Type *T) { return T->isPointerTy() || T->isIntegerTy(64); }

/// The results of \p FTy as words in RetRegs: none (void), one, or a
/// struct of two; false if it returns anything else.
bool resultWords(const FunctionType *FTy, SmallVectorImpl<Type *> &Words) {
  Type *R = FTy->getReturnType();
  if (R->isVoidTy())
    return true;
  if (isWord(R)) {
    Words.push_back(R);
    return true;
  }
  auto *ST = dyn_cast<StructType>(R);
  if (!ST || ST->getNumElements() > std::size(RetRegs))
    return false;
  for (Type *E : ST->elements()) {
    if (!isWord(E))
      return false;
    Words.push_back(E);
  }
  return true;
}

/// The integer type of \p FTy's result if it is narrower than a word (in
/// the low bits of rax), or null.
Type *narrowResult(const FunctionType *FTy) {
  auto *IT = dyn_cast<IntegerType>(FTy->getReturnType());
  return IT && IT->getBitWidth() < 64 ? IT : nullptr;
}

/// The statement's result outputs for \p FTy: rax for a result narrower
/// than a word (narrowResult: the low bits of rax), else resultWords; false
/// if neither can bind it. The one rule of how many results a statement
/// has: callByJumpReason, lowerToAsm and the callee's operand index.
bool resultOutputs(const FunctionType *FTy, SmallVectorImpl<Type *> &Outs) {
  if (narrowResult(FTy)) {
    Outs.push_back(Type::getInt64Ty(FTy->getContext()));
    return true;
  }
  return resultWords(FTy, Outs);
}

/// The entry of JumpEnteredEntries that \p CI calls if it is a plain
/// preserve_none call whose arguments and results are words in registers
/// the statement can bind, or null.
const JumpEnteredEntry *jumpEntryOf(const CallInst &CI) {
  const Function *Callee = CI.getCalledFunction();
  if (!Callee || Callee->getCallingConv() != CallingConv::PreserveNone ||
      CI.getCallingConv() != CallingConv::PreserveNone ||
      CI.hasOperandBundles() || CI.isMustTailCall())
    return nullptr;
  StringRef Name = Callee->getName();
  Name.consume_front("\1");
  const FunctionType *FTy = CI.getFunctionType();
  SmallVector<Type *, 2> Words;
  if (FTy->isVarArg() || FTy->getNumParams() > std::size(ArgRegs) ||
      !all_of(FTy->params(), isWord) || !resultWords(FTy, Words))
    return nullptr;
  for (const JumpEnteredEntry &E : JumpEnteredEntries)
    if (Name == E.Entry)
      return &E;
  return nullptr;
}

/// cacs_<name>, the call the user wrote, for the entry \p Entry.
std::string userName(StringRef Entry) {
  Entry.consume_front("\1");
  Entry.consume_front(CACS_CONTRACT_ENTRY_PREFIX);
  Entry.consume_back(CACS_CONTRACT_ENTRY_SUFFIX);
  return ("cacs_" + Entry).str();
}

/// Why the calls in \p F stay calls, or null.
const char *functionReason(const Function &F) {
  if (const char *Why = moduleReason(*F.getParent()))
    return Why;
  if (F.hasFnAttribute(Attribute::SanitizeAddress) ||
      F.hasFnAttribute(Attribute::SanitizeThread) ||
      F.hasFnAttribute(Attribute::SanitizeMemory) ||
      F.hasFnAttribute(Attribute::SanitizeHWAddress))
    return "the function is instrumented by a sanitizer";
  if (F.hasFnAttribute(Attribute::OptimizeNone))
    return "the function is optnone";
  if (F.hasFnAttribute(Attribute::Naked))
    return "the function is naked";
  if (mayHaveDynamicStack(F))
    return "the function may address its frame through rbx";
  // APX's extra registers: the clobber list below does not name them.
  if (hasTargetFeature(F, "+egpr"))
    return "the function may use APX registers";
  // Builds that harden indirect branches keep the plain call (the file
  // comment).
  if (hasTargetFeature(F, "+retpoline-indirect-branches") ||
      hasTargetFeature(F, "+lvi-cfi") ||
      hasTargetFeature(F, "+harden-sls-ijmp") ||
      F.hasFnAttribute(Attribute::SpeculativeLoadHardening))
    return "the function is hardened against indirect-branch speculation "
           "(-mretpoline, -mlvi-cfi, -mharden-sls, SLH)";
  switch (F.getCallingConv()) {
  case CallingConv::C:
  case CallingConv::Fast:
  case CallingConv::Cold:
  case CallingConv::PreserveNone:
    return nullptr;
  default:
    return "the function's calling convention is not C, fastcc, coldcc or "
           "preserve_none";
  }
}

/// Does the backend make \p CI a tail jump: a `tail` call right before a
/// `ret` of its value (or of nothing), in a caller of the call's convention
/// (x86-64's sibling calls need the caller's callee-saved registers to be
/// the callee's: a C caller of a preserve_none callee saves rbx, r12-r15
/// around a call instead), with tail calls allowed and no stack to realign
/// (an over-aligned local keeps the call too)? The one rule of which calls
/// the pass leaves to the backend's tail jump. Where it errs the call stays
/// a call: right, only slower. PreserveNoneCalleeSaved's
/// mayJumpFromCallerKeepingList asks the converse (may the backend jump?)
/// and errs toward a jump; keep the two in step when the backend's sibling
/// call rules change.
bool isTailJump(const CallInst &CI) {
  if (!CI.isTailCall())
    return false;
  const auto *Ret = dyn_cast_or_null<ReturnInst>(CI.getNextNode());
  if (!Ret || (Ret->getReturnValue() && Ret->getReturnValue() != &CI))
    return false;
  const Function &F = *CI.getFunction();
  if (F.getCallingConv() != CI.getCallingConv() ||
      F.getFnAttribute("disable-tail-calls").getValueAsBool() ||
      F.hasFnAttribute("stackrealign") || F.hasStructRetAttr())
    return false;
  for (const Instruction &I : F.getEntryBlock())
    if (const auto *AI = dyn_cast<AllocaInst>(&I))
      if (AI->getAlign() > Align(16))
        return false;
  return true;
}

/// The remark of a call that isTailJump keeps.
constexpr const char *TailJumpReason =
    "the call is the function's last act, which the backend makes a tail "
    "jump";

/// Why \p CI, a call of an entry of JumpEnteredEntries, stays a call, or
/// null: the rule of what is lowered, functionReason's. Every call, in a
/// loop or not: the jump entry is the entry's switch without its call,
/// which gained wherever measured (bench/results/switch-returns/jmp-entry.md,
/// bench/results/effect/jump-entry.md).
const char *callReason(const CallInst &CI) {
  if (const char *Why = functionReason(*CI.getFunction()))
    return Why;
  // The function's last act: the backend jumps to the call entry after the
  // epilogue, so the entry finds the caller's return address at rsp and
  // resumes the caller's caller by it. No unreturned call, no site, no
  // return after the resume (the site's 3 instructions, the alignment's
  // push and pop and the switch return's `jmp; pop; jmp` fewer).
  if (isTailJump(CI))
    return TailJumpReason;
  return nullptr;
}

/// The function attribute that records -mllvm -cacs-calls-by-jump=false on
/// the functions of a compile step, for the full-LTO link (which is not
/// given the compile's -mllvm options), as the cold-call shield's does.
constexpr const char *CallsByJumpAttr = "cacs-calls-by-jump";

/// Are calls by jump on in \p F: the knob, and the setting its compile
/// recorded?
bool callsByJumpOn(const Function &F) {
  return callsByJumpEnabled() &&
         F.getFnAttribute(CallsByJumpAttr).getValueAsString() != "false";
}

/// Does \p M record stack bounds (-fcacs-stack-bounds: the setting in this
/// process, or, at the LTO link, a compile step's records)?
bool recordsStackBounds(const Module &M) {
  if (flagSetting(SettingID::StackBounds))
    return true;
  // StackBoundRecordPass's records are module inline assembly.
  StringRef Asm = M.getModuleInlineAsm();
  return Asm.contains(StackBoundEntriesSection) ||
         Asm.contains(StackBoundBreaksSection) ||
         Asm.contains(StackBoundBudgetsSection);
}

/// Why \p CI stays a call rather than being entered by a jump, or null: the
/// one rule of what a call by jump is (legality only; lowerToAsm rewrites).
/// Conservative: a kept call is always correct.
const char *callByJumpReason(const CallInst &CI) {
  const Function *Callee = CI.getCalledFunction();
  if (!Callee)
    return "the callee is not a function known here";
  // The switch returns (SwitchReturns, which ran before): the callee can
  // reach a switch, so its call is never matched by a `ret`.
  if (!Callee->hasFnAttribute(Attribute::FnRetThunkExtern))
    return "the callee does not return by the switch returns";
  const Function &F = *CI.getFunction();
  if (!callsByJumpOn(F))
    return "calls by jump are off (-mllvm -cacs-calls-by-jump=false)";
  // The link's stack-bound walk (cacs-stack-bounds.cpp) would see a jump
  // where the call was; not proved sound for it: keep the call.
  if (recordsStackBounds(*F.getParent()))
    return "the stack bounds (-fcacs-stack-bounds) are recorded";
  if (const char *Why = functionReason(F))
    return Why;
  if (CI.isMustTailCall())
    return "the call is musttail";
  if (isTailJump(CI))
    return TailJumpReason;
  // preserve_none: the statement clobbers what such a call clobbers.
  if (Callee->getCallingConv() != CallingConv::PreserveNone ||
      CI.getCallingConv() != CallingConv::PreserveNone)
    return "the callee is not preserve_none";
  // -fpreserve-none-callee-saved=none: the callee may clobber rbp, which
  // the statement cannot name.
  if (Callee->hasFnAttribute("no_callee_saved_registers") ||
      CI.hasFnAttr("no_callee_saved_registers"))
    return "the callee may clobber rbp";
  if (CI.hasOperandBundles())
    return "the call has operand bundles";
  if (Callee->hasFnAttribute(Attribute::ReturnsTwice) ||
      CI.hasFnAttr(Attribute::ReturnsTwice) || CI.doesNotReturn())
    return "the callee returns twice or not at all";
  // An inline assembly statement has no entry in the call-site table: a
  // throw through it in a function with an LSDA would terminate.
  if (F.hasPersonalityFn() && !Callee->doesNotThrow())
    return "the callee may unwind and the caller has a personality function";
  const FunctionType *FTy = CI.getFunctionType();
  if (FTy != Callee->getFunctionType() || FTy->isVarArg())
    return "the call is variadic or does not match its callee's type";
  if (FTy->getNumParams() > std::size(ArgRegs))
    return "the call has more than six arguments";
  for (unsigned I = 0; I < FTy->getNumParams(); ++I) {
    // i32 takes the next register of the same list (r12d, r13d, ...:
    // X86CallingConv.td, LLVM 19 and 22); i8, i16 and i1 fall through to
    // the C convention's list (edi, esi, ...), which ArgRegs does not follow.
    Type *T = FTy->getParamType(I);
    if (!(isWord(T) || T->isIntegerTy(32)) ||
        (T->isPointerTy() && T->getPointerAddressSpace() != 0))
      return "an argument is not an i32, an i64 or a pointer";
    for (Attribute::AttrKind K :
         {Attribute::ByVal, Attribute::StructRet, Attribute::InAlloca,
          Attribute::Preallocated, Attribute::ByRef, Attribute::Nest,
          Attribute::InReg, Attribute::SwiftSelf, Attribute::SwiftError,
          Attribute::SwiftAsync})
      if (CI.paramHasAttr(I, K))
        return "an argument is byval, sret, inalloca, preallocated, byref, "
               "nest, inreg or swift*";
  }
  SmallVector<Type *, 2> Outs;
  if (!resultOutputs(FTy, Outs))
    return "the result is not an integer, a pointer or two words";
  if (CI.hasRetAttr(Attribute::InReg))
    return "the result is inreg";
  return nullptr;
}

/// The text of a call by jump of the function operand \p Op: the return
/// address pushed as the call would push it, then a direct jump (through a
/// PLT entry where the callee is preemptible: after the push, the lazy
/// resolver's pushes go below the return address, as after a call).
std::string callByJumpAsm(unsigned Op) {
  return (Twine("leaq 1f(%rip), %r11\n\t"
                "pushq %r11\n\t"
                "jmp ${") +
          Twine(Op) + ":P}\n1:")
      .str();
}

/// The clobbers of the statement: what a preserve_none call clobbers on
/// x86-64 (all but rsp and rbp), less \p Bound, the registers that are
/// the statement's operands.
std::string clobbers(const Function &F, ArrayRef<const char *> Bound) {
  std::string C;
  auto Add = [&](const Twine &R) { C += ("~{" + R + "},").str(); };
  for (const char *R : {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9",
                        "r10", "r11", "r12", "r13", "r14", "r15"})
    if (!is_contained(Bound, StringRef(R)))
      Add(R);
  bool AVX512 = hasTargetFeature(F, "+avx512f");
  for (unsigned I = 0; I < (AVX512 ? 32u : 16u); ++I)
    Add("xmm" + Twine(I));
  if (AVX512)
    for (unsigned I = 0; I < 8; ++I)
      Add("k" + Twine(I));
  Add("st");
  for (unsigned I = 1; I < 8; ++I)
    Add("st(" + Twine(I) + ")");
  C += "~{dirflag},~{fpsr},~{flags},~{memory}";
  return C;
}

/// The text of a site that jumps to the jump entry \p Jump, the one place
/// that spells a jump to a runtime entry: the resume address stored where a
/// call would have pushed it, then the jump through the GOT, never through
/// a PLT entry, whose lazy resolver would push over that address (the
/// header comment; test/SwitchSiteJump/shared-lazy.c, dlopen.c).
std::string siteAsm(StringRef Jump) {
  return (Twine("leaq 1f(%rip), %r11\n\t"
                "movq %r11, -8(%rsp)\n\t"
                "jmpq *") +
          Jump + "@GOTPCREL(%rip)\n1:")
      .str();
}

/// The frame operand of the site replacing \p CI: the address of the
/// return address's slot (llvm.addressofreturnaddress, just before the
/// site), which every site statement takes as an unused memory operand.
/// `alignstack` makes the prologue keep a call's 16-byte alignment, but
/// shrink-wrapping moves the prologue to the blocks that touch the frame,
/// and a site is no call to it: a site on a path without one ran with rsp 8
/// off (a callee entered by a jump faulted on an aligned SSE store: zlib's
/// gzwrite -> gz_write -> ... -> fill_window under -fswitch-site-jumps; the
/// yield entries' slow paths run C). A frame index operand is what
/// shrink-wrapping looks for (test/SwitchSiteJump/frame-shrink-wrap.ll).
/// The return address's slot is a fixed object that is there anyway: a
/// byte of the frame of its own (the earlier anchor, an alloca) cost a
/// `sub`/`add` pair in every function whose saved registers already kept
/// the alignment (a handler that keeps a value in rbp across its yield).
/// In the site's block, so that the backend folds it into the operand as
/// a frame index rather than computing it into a register. The yield's
/// sites, which need no alignment (JumpEnteredEntry::AlignedSite), take it
/// too: one shape of statement, at no cost.
Value *siteFrameOperand(CallInst &CI) {
  IRBuilder<> B(&CI);
  return B.CreateIntrinsic(Intrinsic::addressofreturnaddress, {B.getPtrTy()},
                           {}, nullptr, "cacs.site.frame");
}

/// Replaces \p CI with the inline assembly statement \p Asm, `alignstack`
/// where \p AlignStack (the backend keeps a call's 16-byte alignment at the
/// statement, also in a function that calls nothing else): outputs the
/// result words (rax, rdx), then the argument registers (clobbered:
/// discarded); inputs the arguments in those registers, then \p Target, if
/// any, as a symbol operand ("s"), then the frame operand (siteFrameOperand: an
/// unused "*m", the last operand); clobbers the rest of what a preserve_none
/// call clobbers. The one binding of a call to the statement that replaces it:
/// the yield sites' and the calls by jump.
void lowerToAsm(CallInst &CI, const std::string &Asm, Function *Target,
                bool AlignStack) {
  Function &F = *CI.getFunction();
  FunctionType *FTy = CI.getFunctionType();
  Type *Narrow = narrowResult(FTy);
  SmallVector<Type *, 2> Results;
  resultOutputs(FTy, Results);
  unsigned NArgs = CI.arg_size();
  SmallVector<const char *, 12> Bound(RetRegs, RetRegs + Results.size());
  Bound.append(ArgRegs, ArgRegs + NArgs);

  std::string Constraints;
  SmallVector<Type *, 12> Outs(Results.begin(), Results.end());
  for (const char *R : Bound)
    Constraints += ("={" + Twine(R) + "},").str();
  for (unsigned I = 0; I < NArgs; ++I) {
    Outs.push_back(Type::getInt64Ty(F.getContext()));
    Constraints += ("{" + Twine(ArgRegs[I]) + "},").str();
  }
  if (Target)
    Constraints += "s,";
  Constraints += "*m,";
  Constraints += clobbers(F, Bound);
  Type *AsmRet = Outs.empty()       ? Type::getVoidTy(F.getContext())
                 : Outs.size() == 1 ? Outs[0]
                                    : StructType::get(F.getContext(), Outs);

  IRBuilder<> B(&CI);
  SmallVector<Value *, 8> Args;
  SmallVector<Type *, 8> Ins;
  for (Value *A : CI.args()) {
    Args.push_back(A);
    Ins.push_back(A->getType());
  }
  if (Target) {
    Args.push_back(Target);
    Ins.push_back(Target->getType());
  }
  Value *Frame = siteFrameOperand(CI);
  unsigned FrameArg = Args.size();
  Args.push_back(Frame);
  Ins.push_back(Frame->getType());
  auto *IA =
      InlineAsm::get(FunctionType::get(AsmRet, Ins, false), Asm, Constraints,
                     /*hasSideEffects=*/true, AlignStack);
  auto *Site = CallInst::Create(
      IA, Args,
      AsmRet->isVoidTy() || !CI.hasName() ? "" : CI.getName() + ".site",
      CI.getIterator());
  Site->setDebugLoc(CI.getDebugLoc());
  Site->addFnAttr(Attribute::NoUnwind);
  Site->addParamAttr(FrameArg,
                     Attribute::get(F.getContext(), Attribute::ElementType,
                                    Type::getInt8Ty(F.getContext())));

  // The call's value, from the statement's first outputs.
  Value *Result = nullptr;
  if (Narrow) {
    Result = B.CreateTrunc(Outs.size() == 1 ? static_cast<Value *>(Site)
                                            : B.CreateExtractValue(Site, 0),
                           Narrow);
  } else if (Outs.size() == 1 && !Results.empty()) {
    Result = Site;
  } else if (Results.size() == 1 && !FTy->getReturnType()->isStructTy()) {
    Result = B.CreateExtractValue(Site, 0);
  } else if (!Results.empty()) {
    Result = PoisonValue::get(FTy->getReturnType());
    for (unsigned I = 0; I < Results.size(); ++I)
      Result = B.CreateInsertValue(Result, B.CreateExtractValue(Site, I), I);
  }
  if (Result) {
    Result->takeName(&CI);
    CI.replaceAllUsesWith(Result);
  }
  CI.eraseFromParent();
  F.addFnAttr(Attribute::NoRedZone);
}

/// Replaces \p CI with the site that jumps to \p E's jump entry, aligned
/// as a call only where that entry needs it (JumpEnteredEntry::AlignedSite).
void lower(CallInst &CI, const JumpEnteredEntry &E) {
  lowerToAsm(CI, siteAsm(E.Jump), nullptr, E.AlignedSite);
  ++NumLowered;
}

/// Replaces \p CI, which callByJumpReason lets through, with its call by
/// jump.
void lowerCallByJump(CallInst &CI) {
  Function *Callee = CI.getCalledFunction();
  SmallVector<Type *, 2> Results;
  resultOutputs(CI.getFunctionType(), Results);
  // The operands: the results, the argument registers (out), the arguments
  // (in), then the callee.
  // Aligned: the callee is compiled for a call's alignment.
  lowerToAsm(CI, callByJumpAsm(Results.size() + 2 * CI.arg_size()), Callee,
             /*AlignStack=*/true);
  ++NumCallsByJump;
}

/// Lowers the calls by jump in \p F (a function the pass lowers in),
/// with a remark for each call of a switch-aware function.
bool lowerCallsByJump(Function &F, OptimizationRemarkEmitter &ORE) {
  SmallVector<CallInst *, 8> Calls;
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I))
      if (const Function *Callee = CI->getCalledFunction())
        if (Callee->hasFnAttribute(Attribute::FnRetThunkExtern))
          Calls.push_back(CI);
  bool Changed = false;
  for (CallInst *CI : Calls) {
    StringRef Name = CI->getCalledFunction()->getName();
    if (const char *Why = callByJumpReason(*CI)) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "KeptCallOfSwitchAware", CI)
               << "the call of " << Name << " stays a call: " << Why;
      });
      continue;
    }
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "CallByJump", CI)
             << Name << " is entered by a jump at this call";
    });
    lowerCallByJump(*CI);
    Changed = true;
  }
  return Changed;
}

} // namespace

PreservedAnalyses SwitchSiteJumpPass::run(Module &M,
                                          ModuleAnalysisManager &MAM) {
  bool Changed = false;
  // Where nothing can be lowered (moduleReason), every call stays, and
  // functionReason gives each its missed remark (-Rpass-missed=
  // switch-site-jump), from the compile, not again at the link. No
  // warning: the flag is the default, which must be silent on every
  // AArch64, shadow-stack and large-code-model compile.
  const char *ModuleWhy = moduleReason(M);
  if (ModuleWhy && P == Phase::LTOLink)
    return PreservedAnalyses::all();
  if (!ModuleWhy && P != Phase::LTOLink) {
    for (Function &F : M)
      if (!F.isDeclaration() && !F.hasFnAttribute(SwitchSiteJumpEnabledAttr)) {
        F.addFnAttr(SwitchSiteJumpEnabledAttr);
        if (!callsByJumpEnabled())
          F.addFnAttr(CallsByJumpAttr, "false");
        Changed = true;
      }
    // The link lowers, after its walks.
    if (P == Phase::PreLink || isLTOModule(M))
      return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function &F : M) {
    if (F.isDeclaration() ||
        (!ModuleWhy && !F.hasFnAttribute(SwitchSiteJumpEnabledAttr)))
      continue;
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    Changed |= lowerCallsByJump(F, ORE);
    SmallVector<std::pair<CallInst *, const JumpEnteredEntry *>, 4> Calls;
    for (Instruction &I : instructions(F))
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (const JumpEnteredEntry *E = jumpEntryOf(*CI))
          Calls.push_back({CI, E});
    if (Calls.empty())
      continue;
    for (auto &[Call, Entry] : Calls) {
      CallInst *CI = Call;
      std::string User = userName(CI->getCalledFunction()->getName());
      if (const char *Why = callReason(*CI)) {
        ORE.emit([&] {
          return OptimizationRemarkMissed(DEBUG_TYPE, "KeptCall", CI)
                 << User << " stays a call: " << Why;
        });
        continue;
      }
      ORE.emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "Lowered", CI)
               << User << " is entered by a jump at this site";
      });
      lower(*CI, *Entry);
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
