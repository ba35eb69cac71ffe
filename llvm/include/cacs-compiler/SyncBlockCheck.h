//===- SyncBlockCheck.h - Sync blocks checked at compile time ---*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A call inside a sync block (cacs/syncblock.h) that can reach a coroutine
// switch is an error naming the block and the path to the switch. "Can
// reach a switch" is walkSwitchCallers (SwitchCallers.h), the walk APN
// infects along and SwitchReturns marks, without the entries libcacs marks
// as allowed in a block. See SyncBlockCheck.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SYNCBLOCKCHECK_H
#define CACS_SYNCBLOCKCHECK_H

#include "cacs/detail/contract.h"

#include "llvm/IR/PassManager.h"

namespace cacs {

/// The function attribute the per-TU run puts on the functions it checked,
/// so that the full-LTO link checks again only what was compiled with
/// -fsync-block-check.
inline constexpr const char *SyncBlockCheckEnabledAttr =
    "cacs-sync-block-check";

/// The annotation on libcacs's entries that a sync block allows (the I/O
/// waits, an effect resume): not switches to this check, as the runtime
/// lets them through a block.
inline constexpr const char *SyncBlockAllowsAnnotation =
    CACS_CONTRACT_SYNC_BLOCK_ALLOWS_ANNOTATION;

/// The calls of libcacs that open and close a block (CACS_SYNC expands to
/// them).
inline constexpr const char *SyncBeginName = "cacs_sync_begin";
inline constexpr const char *SyncEndName = "cacs_sync_end";

class SyncBlockCheckPass : public llvm::PassInfoMixin<SyncBlockCheckPass> {
public:
  enum class Phase {
    /// Per translation unit (and the LTO pre-link compile): check every
    /// block, and mark the functions that hold one.
    PerTU,
    /// Full-LTO link: check again the blocks of the marked functions, now
    /// that calls into other units are visible.
    LTOLink,
  };

  explicit SyncBlockCheckPass(Phase P = Phase::PerTU) : P(P) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Phase P;
};

} // namespace cacs

#endif // CACS_SYNCBLOCKCHECK_H
