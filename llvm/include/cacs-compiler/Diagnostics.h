//===- Diagnostics.h - How the cacs passes report ---------------*- C++ -*-===//
//
// Part of cacs, a Clang/LLVM toolchain for fast stackful coroutines.
//
//===----------------------------------------------------------------------===//
//
// The one way the cacs passes report to the user, through
// LLVMContext::diagnose, so that clang, opt and lld each print it in their
// own format and -Werror applies:
//  - emit: about the compilation as a whole (a list file, a setting). A
//    plugin kind of diagnostic: clang shows `error: <msg>` or
//    `warning: <msg> [-Wbackend-plugin]`.
//  - emitError: about code, naming the function and, when the IR has debug
//    information, the source location (`file:line:col: error: <msg>`);
//  - emitWarning: the same as a warning.
//
//===----------------------------------------------------------------------===//

#ifndef CACS_DIAGNOSTICS_H
#define CACS_DIAGNOSTICS_H

#include "llvm/IR/DiagnosticInfo.h"

namespace llvm {
class DebugLoc;
class Function;
class LLVMContext;
class Twine;
} // namespace llvm

namespace cacs {

/// Reports \p Msg about the compilation as a whole, with severity \p S.
void emit(llvm::LLVMContext &Ctx, llvm::DiagnosticSeverity S,
          const llvm::Twine &Msg);

/// Reports an error about the code of \p F, at \p DL if it is known.
void emitError(const llvm::Function &F, const llvm::Twine &Msg,
               const llvm::DebugLoc &DL);

/// Reports a warning about the code of \p F, as emitError does.
void emitWarning(const llvm::Function &F, const llvm::Twine &Msg,
                 const llvm::DebugLoc &DL);

} // namespace cacs

#endif // CACS_DIAGNOSTICS_H
