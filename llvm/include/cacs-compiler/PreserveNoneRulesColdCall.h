//===- PreserveNoneRulesColdCall.h - Rare calls through a shield *- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Whether a preserve_none call that needs no shield should go through one
// because it is rare (shieldsColdCall), for the safety pass: speed only.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_PRESERVENONERULESCOLDCALL_H
#define CACS_PRESERVENONERULESCOLDCALL_H

#include "cacs-compiler/PreserveNoneRulesShield.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class BlockFrequencyInfo;
class CallBase;
class LoopInfo;
class Module;
class ProfileSummaryInfo;
} // namespace llvm

namespace cacs {

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

} // namespace cacs

#endif // CACS_PRESERVENONERULESCOLDCALL_H
