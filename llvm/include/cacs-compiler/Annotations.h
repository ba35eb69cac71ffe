//===- Annotations.h - Functions marked in the source -----------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// libcacs's headers mark declarations with __attribute__((annotate(S))),
// S a string of cacs/detail/contract.h; clang records each marked function
// that the unit emits in llvm.global.annotations. The one reader of that
// table for the cacs passes.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_ANNOTATIONS_H
#define CACS_ANNOTATIONS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <utility>

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace cacs {

/// Every annotation of a function in \p M, in the order of the table: the
/// function and the string.
llvm::SmallVector<std::pair<llvm::Function *, llvm::StringRef>, 4>
functionAnnotations(const llvm::Module &M);

/// The functions of \p M annotated \p Annotation, declared or defined, each
/// once, in the order of the table.
llvm::SmallVector<llvm::Function *, 4>
annotatedFunctions(const llvm::Module &M, llvm::StringRef Annotation);

} // namespace cacs

#endif // CACS_ANNOTATIONS_H
