//===- InstackYield.h - In-stack yield frames -------------------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The yield of libcacs's in-stack generator (cacs/instack.h) is inline
// assembly that calls the consumer, which then runs below the generator's
// stack pointer. The function around it must therefore keep its stack
// pointer call-aligned at the yield and keep nothing below it, as a function
// that makes a call does. Compiled by cacs, the header marks that assembly
// and this pass makes it so (lib/Transforms/InstackYield.cpp says how);
// elsewhere the header keeps a real call on a cold path instead.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_INSTACKYIELD_H
#define CACS_INSTACKYIELD_H

#include "cacs/detail/contract.h"

#include "llvm/IR/PassManager.h"

namespace cacs {

/// The first line of a marked yield's assembly (CACS__ISG_YIELD_MARK of
/// cacs/instack.h), which the pass removes. Assembled as it is (the pass did
/// not run), it stops the build with its message instead of producing a
/// misaligned frame.
inline constexpr const char *InstackYieldMarker =
    CACS_CONTRACT_INSTACK_YIELD_MARKER;

/// The first line of the assembly that keeps an in-stack generator's
/// consumer frame marker (CACS__ISG_CONSUMER_MARK of cacs/instack.h), put
/// there under SafeStack only. The pass removes it and marks the address the
/// assembly takes as neither captured nor read, so that SafeStack leaves the
/// marker's allocation on the real stack.
inline constexpr const char *InstackConsumerMarker =
    CACS_CONTRACT_INSTACK_CONSUMER_MARKER;

class InstackYieldPass : public llvm::PassInfoMixin<InstackYieldPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace cacs

#endif // CACS_INSTACKYIELD_H
