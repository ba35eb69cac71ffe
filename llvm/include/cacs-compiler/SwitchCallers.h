//===- SwitchCallers.h - The functions that can reach a switch --*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The one walk that finds the functions of a module that can reach a
// coroutine switch: it starts from every preserve_nonecc function of the
// module, declared or defined (libcacs binds its yields and waits to
// preserve_none entries, cacs/coro.h), and follows direct call edges (calls
// and invokes) backwards. AutoPreserveNone infects along it, stopping at the
// callers it may not infect; SwitchReturns marks every function it reaches.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_SWITCHCALLERS_H
#define CACS_SWITCHCALLERS_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace cacs {

/// Walks the callers of the preserve_none functions of \p M backwards over
/// direct call edges. \p Visit is asked once for each function that calls a
/// function of the walk directly, with the first such callee found; the walk
/// goes on through that caller only if Visit returns true. A preserve_none
/// function that calls one of the walk is a seed already: Visit is asked
/// about it only if \p VisitSeeds. \p IsSeed, if given, narrows the seeds
/// to the preserve_none functions it accepts (SyncBlockCheck leaves out the
/// entries a sync block allows). Linear in the size of the call graph.
void walkSwitchCallers(
    llvm::Module &M,
    llvm::function_ref<bool(llvm::Function &Caller, llvm::Function &Callee)>
        Visit,
    bool VisitSeeds = false,
    llvm::function_ref<bool(const llvm::Function &)> IsSeed = nullptr);

} // namespace cacs

#endif // CACS_SWITCHCALLERS_H
