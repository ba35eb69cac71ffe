//===- cacs-compiler/TLSMigration.h - TLS and switches ---------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// A stackful coroutine may be suspended on one thread and resumed on another.
// LLVM takes the address of a thread-local variable (llvm.threadlocal.address),
// the thread pointer (llvm.thread.pointer) and the result of a function
// declared `const` (glibc's __errno_location) to be the same wherever it is
// computed in a function, and reuses one computation across a call that may
// switch: the coroutine then reads and writes the first thread's errno and
// __thread variables after it moved. The pass makes each such value a call
// that reads inaccessible memory, which a call that may switch writes, so
// that the optimizer reuses it between switches but not across one, and
// code generation cannot bring the reuse back (see TLSMigration.cpp and
// docs/tls-migration.md).
//
//===----------------------------------------------------------------------===//

#ifndef CACS_TLSMIGRATION_H
#define CACS_TLSMIGRATION_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class CallBase;
class Function;
class TargetLibraryInfo;
} // namespace llvm

namespace cacs {

/// The suffix of the accessor the pass makes for a thread-local variable
/// (`<name>.cacs.tls`); the thread pointer's is `cacs.thread_pointer`.
inline constexpr const char *TLSAccessorSuffix = ".cacs.tls";

/// Is \p CB a call whose result names the calling thread's storage or the
/// thread itself, which LLVM would reuse across a switch: an
/// llvm.threadlocal.address or llvm.thread.pointer intrinsic, or a call to a
/// function that mayDependOnThread?
bool isThreadDependentCall(const llvm::CallBase &CB,
                           const llvm::TargetLibraryInfo &TLI);

/// May \p F, declared or inferred `memory(none)`, return a value that
/// depends on the calling thread? True for a function that is neither an
/// intrinsic nor a library function LLVM knows (whose result depends on its
/// arguments only) and that returns a pointer (glibc's __errno_location,
/// __h_errno_location, __res_state, __ctype_b_loc, ..., or the program's own
/// accessor of a __thread variable) or is a thread identity (pthread_self,
/// thrd_current).
bool mayDependOnThread(const llvm::Function &F,
                       const llvm::TargetLibraryInfo &TLI);

/// Marks the functions of a translation unit compiled with
/// -fcoroutine-migration: the full-LTO link rewrites these only.
inline constexpr const char *MigrationAttr = "cacs-coroutine-migration";

class TLSMigrationPass : public llvm::PassInfoMixin<TLSMigrationPass> {
public:
  enum class Phase {
    /// A compilation with -fcoroutine-migration: every function, marked
    /// with MigrationAttr.
    PerTU,
    /// The full-LTO link: the functions that carry MigrationAttr.
    LTOLink,
  };
  explicit TLSMigrationPass(Phase P = Phase::PerTU) : P(P) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  Phase P;
};

} // namespace cacs

#endif // CACS_TLSMIGRATION_H
