//===- CACSPasses.cpp - The cacs pass plugin ------------------------------===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// Registers the cacs passes with the new pass manager:
//  - by name, for `opt -load-pass-plugin=CACSPasses.so -passes=...`:
//      preserve-none-list, preserve-none-list<lto>,
//      auto-preserve-none, auto-preserve-none<lto>, preserve-none-safety,
//      preserve-none-safety<O0>,
//      preserve-none-callee-saved, preserve-none-callee-saved<prelink>,
//      preserve-none-callee-saved<lto>, instack-yield, tls-migration,
//      tls-migration<lto>, switch-returns, switch-returns<lto>,
//      stack-bound-record, sync-block-check, sync-block-check<lto>,
//      switch-site-jump, switch-site-jump<lto>;
//  - in every per-TU pipeline (-O0 included, and the LTO pre-link compile),
//    as the settings of the compilation ask: the thread-local accessors
//    (-fcoroutine-migration) and the list at its start, AutoPreserveNone and
//    the safety checks at its end (after the in-stack yields' frames; the
//    sync-block check before APN), then the switch returns (-fswitch-returns),
//    then the record of entries (-fcacs-stack-bounds), and last the switch
//    sites (-fswitch-site-jumps, not at -O0);
//  - in the full-LTO link pipeline, where the settings are read back from the
//    IR: the thread-local accessors and the list at its start,
//    AutoPreserveNone, the safety checks and the switch returns at its end,
//    then the switch sites.
//
// The list runs first because it changes conventions that code compiled
// without it may disagree with; run later, the link's InstCombine would have
// turned each mismatched call into unreachable already. AutoPreserveNone runs
// last, when inlining has settled which calls remain, and rewrites a function
// and all its call sites in one step, so no call ever mismatches.
//
//===----------------------------------------------------------------------===//

#include "cacs-compiler/AutoPreserveNone.h"
#include "cacs-compiler/Diagnostics.h"
#include "cacs-compiler/InstackYield.h"
#include "cacs-compiler/PreserveNoneCalleeSaved.h"
#include "cacs-compiler/PreserveNoneList.h"
#include "cacs-compiler/PreserveNoneRules.h"
#include "cacs-compiler/PreserveNoneSafety.h"
#include "cacs-compiler/Settings.h"
#include "cacs-compiler/StackBound.h"
#include "cacs-compiler/SwitchReturns.h"
#include "cacs-compiler/SwitchSiteJump.h"
#include "cacs-compiler/SyncBlockCheck.h"
#include "cacs-compiler/TLSMigration.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h" // Moved from llvm/Passes in LLVM 22.
#else
#include "llvm/Passes/PassPlugin.h"
#endif

using namespace llvm;
using namespace cacs;

namespace {

using AutoPreserveNonePhase = AutoPreserveNonePass::Phase;
using ListPhase = PreserveNoneListPass::Phase;
using CalleeSavedPhase = PreserveNoneCalleeSavedPass::Phase;

/// Runs a cacs pass only on a target cacs supports (supportsPreserveNone):
/// elsewhere the module stays as stock clang made it.
template <typename PassT>
struct OnSupportedTarget : PassInfoMixin<OnSupportedTarget<PassT>> {
  PassT Pass;
  explicit OnSupportedTarget(PassT P) : Pass(std::move(P)) {}
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &AM) {
    if (!supportsPreserveNone(Triple(M.getTargetTriple())))
      return PreservedAnalyses::all();
    return Pass.run(M, AM);
  }
  static bool isRequired() { return true; }
  // -fdebug-pass-manager names the pass, not the adaptor.
  static StringRef name() { return PassT::name(); }
};

template <typename PassT> void addPass(ModulePassManager &MPM, PassT P) {
  MPM.addPass(OnSupportedTarget<PassT>(std::move(P)));
}

/// On a target cacs does not support, each cacs setting of the compilation
/// gets a warning that says it does nothing there (the front door's
/// spelling: the settings reach the passes from it, from -mllvm, or from
/// the IR of a compile step, and mean the same).
struct UnsupportedTargetWarningPass
    : PassInfoMixin<UnsupportedTargetWarningPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    Triple T(M.getTargetTriple());
    if (supportsPreserveNone(T))
      return PreservedAnalyses::all();
    for (const Setting &S : Settings) {
      if (!S.FrontDoorFlag)
        continue;
      std::string Flag = ("-f" + S.name()).str();
      if (S.isList()) {
        if (preserveNoneListFiles().empty())
          continue;
        Flag += "=";
      } else if (S.isChoice()) {
        unsigned I = choiceSetting(S.ID);
        if (I == 0)
          continue;
        Flag += ("=" + S.Choices[I]).str();
      } else if (!flagSettingChanged(S.ID)) {
        continue;
      } else if (!flagSetting(S.ID)) {
        Flag = ("-fno-" + S.name()).str();
      }
      emit(M.getContext(), DS_Warning, unsupportedTargetWarning(Flag, T));
    }
    return PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

std::vector<std::string> listFilesFromSettings() {
  ArrayRef<std::string> Files = preserveNoneListFiles();
  return {Files.begin(), Files.end()};
}

/// The per-TU head of the pipeline: what the list names also seeds
/// AutoPreserveNone.
void addPerTUStartPasses(ModulePassManager &MPM) {
  MPM.addPass(UnsupportedTargetWarningPass());
  // Before EarlyCSE, GVN and LICM, which would reuse thread-local addresses
  // across switches.
  if (flagSetting(SettingID::CoroutineMigration))
    addPass(MPM, TLSMigrationPass(TLSMigrationPass::Phase::PerTU));
  if (!preserveNoneListFiles().empty())
    addPass(MPM,
            PreserveNoneListPass(ListPhase::PerTU, listFilesFromSettings()));
}

/// The per-TU tail of the pipeline. An O0 pipeline means O0 code generation
/// (clang -O0, whatever -Xclang -disable-O0-optnone says about optnone).
void addPerTUPasses(ModulePassManager &MPM, OptimizationLevel Level) {
  addPass(MPM, InstackYieldPass());
  // Before APN, whose infected functions would end the paths it names.
  if (flagSetting(SettingID::SyncBlockCheck))
    addPass(MPM, SyncBlockCheckPass(SyncBlockCheckPass::Phase::PerTU));
  if (autoPreserveNoneEnabled())
    addPass(MPM, AutoPreserveNonePass(AutoPreserveNonePhase::PerTU));
  // Always, flags or not: it guards hand-written preserve_none code too.
  addPass(MPM, PreserveNoneSafetyPass(Level == OptimizationLevel::O0));
  // After the calls are settled: the safety pass's shields switch too.
  if (flagSetting(SettingID::SwitchReturns))
    addPass(MPM, SwitchReturnsPass(SwitchReturnsPass::Phase::PerTU));
  // Last: it names the functions code generation will emit.
  if (flagSetting(SettingID::StackBounds))
    addPass(MPM, StackBoundRecordPass());
}

/// The full-LTO link: the passes always run; each finds in the merged module
/// what the compile steps recorded, and does nothing where they recorded
/// nothing.
void addLTOLinkStartPasses(ModulePassManager &MPM) {
  // The functions compiled with -fcoroutine-migration, inlined into or not.
  addPass(MPM, TLSMigrationPass(TLSMigrationPass::Phase::LTOLink));
  addPass(MPM, PreserveNoneListPass(ListPhase::LTOLink, {}));
}

void addLTOLinkPasses(ModulePassManager &MPM, OptimizationLevel Level) {
  addPass(MPM, InstackYieldPass());
  addPass(MPM, SyncBlockCheckPass(SyncBlockCheckPass::Phase::LTOLink));
  addPass(MPM, AutoPreserveNonePass(AutoPreserveNonePhase::LTOLink));
  addPass(MPM, PreserveNoneSafetyPass(Level == OptimizationLevel::O0));
  addPass(MPM, SwitchReturnsPass(SwitchReturnsPass::Phase::LTOLink));
  addPass(MPM, PreserveNoneCalleeSavedPass(CalleeSavedPhase::LTOLink));
  // After every pass that asks which calls switch: the sites are no calls.
  addPass(MPM, SwitchSiteJumpPass(SwitchSiteJumpPass::Phase::LTOLink));
}

/// The very end of the per-TU pipeline (-fswitch-site-jumps, not at -O0):
/// every pass that asks which calls switch has seen the calls it lowers. An
/// LTO compile step only records the setting for the link.
void addPerTUSiteJumps(ModulePassManager &MPM, OptimizationLevel Level,
                       bool PreLink) {
  if (flagSetting(SettingID::SwitchSiteJumps) && Level != OptimizationLevel::O0)
    addPass(MPM,
            SwitchSiteJumpPass(PreLink ? SwitchSiteJumpPass::Phase::PreLink
                                       : SwitchSiteJumpPass::Phase::PerTU));
}

bool parsePipelineElement(StringRef Name, ModulePassManager &MPM) {
  if (Name == "auto-preserve-none") {
    addPass(MPM, AutoPreserveNonePass(AutoPreserveNonePhase::PerTU));
    return true;
  }
  if (Name == "tls-migration" || Name == "tls-migration<lto>") {
    MPM.addPass(TLSMigrationPass(Name.ends_with("<lto>")
                                     ? TLSMigrationPass::Phase::LTOLink
                                     : TLSMigrationPass::Phase::PerTU));
    return true;
  }
  if (Name == "switch-returns" || Name == "switch-returns<lto>") {
    addPass(MPM, SwitchReturnsPass(Name.ends_with("<lto>")
                                       ? SwitchReturnsPass::Phase::LTOLink
                                       : SwitchReturnsPass::Phase::PerTU));
    return true;
  }
  if (Name == "switch-site-jump" || Name == "switch-site-jump<lto>") {
    addPass(MPM, SwitchSiteJumpPass(Name.ends_with("<lto>")
                                        ? SwitchSiteJumpPass::Phase::LTOLink
                                        : SwitchSiteJumpPass::Phase::PerTU));
    return true;
  }
  if (Name == "stack-bound-record") {
    addPass(MPM, StackBoundRecordPass());
    return true;
  }
  if (Name == "sync-block-check" || Name == "sync-block-check<lto>") {
    addPass(MPM, SyncBlockCheckPass(Name.ends_with("<lto>")
                                        ? SyncBlockCheckPass::Phase::LTOLink
                                        : SyncBlockCheckPass::Phase::PerTU));
    return true;
  }
  if (Name == "instack-yield") {
    addPass(MPM, InstackYieldPass());
    return true;
  }
  if (Name == "auto-preserve-none<lto>") {
    addPass(MPM, AutoPreserveNonePass(AutoPreserveNonePhase::LTOLink));
    return true;
  }
  if (Name == "preserve-none-list") {
    addPass(MPM,
            PreserveNoneListPass(ListPhase::PerTU, listFilesFromSettings()));
    return true;
  }
  if (Name == "preserve-none-safety" || Name == "preserve-none-safety<O0>") {
    addPass(MPM, PreserveNoneSafetyPass(Name.ends_with("<O0>")));
    return true;
  }
  if (Name == "preserve-none-callee-saved") {
    addPass(MPM, PreserveNoneCalleeSavedPass(CalleeSavedPhase::PerTU));
    return true;
  }
  if (Name == "preserve-none-callee-saved<prelink>") {
    addPass(MPM, PreserveNoneCalleeSavedPass(CalleeSavedPhase::PreLink));
    return true;
  }
  if (Name == "preserve-none-callee-saved<lto>") {
    addPass(MPM, PreserveNoneCalleeSavedPass(CalleeSavedPhase::LTOLink));
    return true;
  }
  if (Name == "preserve-none-list<lto>") {
    addPass(MPM, PreserveNoneListPass(ListPhase::LTOLink, {}));
    return true;
  }
  return false;
}

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        return parsePipelineElement(Name, MPM);
      });

  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        addPerTUStartPasses(MPM);
      });
#if LLVM_VERSION_MAJOR >= 20
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM,
                                        OptimizationLevel Level,
                                        ThinOrFullLTOPhase Phase) {
    addPerTUPasses(MPM, Level);
    // Last of all: it decides on the calls the other passes leave. An LTO
    // pre-link compile only records the setting for the link.
    bool PreLink = Phase == ThinOrFullLTOPhase::ThinLTOPreLink ||
                   Phase == ThinOrFullLTOPhase::FullLTOPreLink;
    addPass(MPM,
            PreserveNoneCalleeSavedPass(PreLink ? CalleeSavedPhase::PreLink
                                                : CalleeSavedPhase::PerTU));
    addPerTUSiteJumps(MPM, Level, PreLink);
  });
#else
  // LLVM 19 does not tell the pre-link compile apart; the setting `none` is
  // an error there anyway (see PreserveNoneCalleeSaved.cpp).
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        addPerTUPasses(MPM, Level);
        addPass(MPM, PreserveNoneCalleeSavedPass(CalleeSavedPhase::PerTU));
        // LLVM 19: the pass tells a compile step from its module flags.
        addPerTUSiteJumps(MPM, Level, /*PreLink=*/false);
      });
#endif

  // A ThinLTO backend imports functions compiled with -fcoroutine-migration
  // into modules compiled without it, whose declarations (glibc's `const`
  // __errno_location) undo the compile step's rewrite of their calls. Redo
  // it on the imported copies before the inliner and GVN see them; it finds
  // only the functions the compile steps marked.
#if LLVM_VERSION_MAJOR >= 20
  PB.registerPipelineEarlySimplificationEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase Phase) {
        if (Phase == ThinOrFullLTOPhase::ThinLTOPostLink)
          addPass(MPM, TLSMigrationPass(TLSMigrationPass::Phase::LTOLink));
      });
#else
  // LLVM 19 does not say which phase this is: run it in every compile. In
  // one that is not a ThinLTO backend it finds nothing left to rewrite.
  PB.registerPipelineEarlySimplificationEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        addPass(MPM, TLSMigrationPass(TLSMigrationPass::Phase::LTOLink));
      });
#endif

  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        addLTOLinkStartPasses(MPM);
      });
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        addLTOLinkPasses(MPM, Level);
      });
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "cacs", CACS_VERSION, registerCallbacks};
}
